import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Center,
  CloseButton,
  Group,
  List,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, useLocation } from 'react-router';
import { PAGE_QUERY } from '../../../shared/page-queries.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { queryOf } from '../../lib/queries.ts';
import type { ContractAnswer } from '../../../shared/contracts/contract.ts';
import type { siteContracts } from '../../../shared/contracts/site.ts';

type StateRequirement = ContractAnswer<typeof siteContracts.stateRequirements>['states'][number];

function StateDetails({ state, onClose }: { state: StateRequirement; onClose: () => void }) {
  return (
    <Card withBorder shadow="md" padding="md" component="section" aria-labelledby="state-details" aria-live="polite">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={3} id="state-details">
          {state.state_name}
        </Title>
        <CloseButton onClick={onClose} aria-label={`Close the ${state.state_name} details`} />
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
        <Text size="sm">
          Maintain estimate: <strong>{formatCurrency(state.maintain_estimate_cents)}</strong> per year
        </Text>
        <Text size="sm">
          Articles of incorporation: <strong>{formatCurrency(state.aoi_estimate_cents)}</strong>
        </Text>
      </SimpleGrid>
      {state.notes && (
        <Text size="sm" mt="xs">
          {state.notes}
        </Text>
      )}
      <Text size="sm" mt="xs">
        <Anchor inherit component={Link} to="/contact">
          Ask us about {state.state_name}
        </Anchor>
        {' · '}
        <Anchor inherit component={Link} to="/pricing">
          See which levels file it for you
        </Anchor>
      </Text>
    </Card>
  );
}

export default function StateRegistrationPage() {
  const { data, isPending, isError } = useQuery({
    // Typed by the contract but fetched by its address: the contract's zod schemas stay out of this
    // page's first screen (docs/ARCHITECTURE.md "Initial JavaScript").
    ...queryOf(PAGE_QUERY.stateRequirements.route, {}),
  });
  const [selected, setSelected] = useState<string | null>(null);
  const { hash } = useLocation();
  const states = data?.states ?? [];
  const current = states.find((s) => s.code === selected);

  // Links such as /state-registration#us_map arrive before the map is on the page.
  useEffect(() => {
    if (hash && data) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash, data]);

  function choose(code: string) {
    // Render the details card first so the scroll lands on the row's final position.
    flushSync(() => setSelected(code));
    document.getElementById(`state-${code}`)?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }

  return (
    <Stack gap="lg">
      <PageHeader
        title="State registration"
        lead="IRS tax exemption is only half of it: your state has its own rules for nonprofit groups. Pick your state to see what it expects and what it costs."
      />

      <Stack gap="sm" component="section" aria-labelledby="what-states-require">
        <Title order={2} id="what-states-require">
          What states usually require
        </Title>
        <List spacing="xs">
          <List.Item>
            <strong>An annual or biennial report</strong> with the Secretary of State if your group is incorporated, to
            keep the corporation active.
          </List.Item>
          <List.Item>
            <strong>Charitable solicitation registration</strong> with the Attorney General or Secretary of State before
            asking the public for donations. About 40 states require it; many exempt small groups below a revenue limit.
          </List.Item>
          <List.Item>
            <strong>State tax exemptions</strong> for income, sales or property tax, which are separate from your IRS
            exemption and often need their own application.
          </List.Item>
        </List>
        <Text>
          Thinking about incorporating? Read about{' '}
          <Anchor inherit component={Link} to="/incorporation-and-ein">
            incorporation and getting an EIN
          </Anchor>
          .
        </Text>
      </Stack>

      {isPending && (
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      )}
      {isError && (
        <Alert color="red" title="Something went wrong">
          We could not load the state requirements. Please reload the page.
        </Alert>
      )}
      {data && (
        <>
          <Stack gap="sm" component="section" aria-labelledby="choose-state">
            <Title order={2} id="choose-state">
              Choose your state
            </Title>
            <SimpleGrid
              id="us_map"
              component="ul"
              aria-labelledby="choose-state"
              cols={{ base: 6, xs: 9, sm: 13, lg: 17 }}
              spacing={6}
              verticalSpacing={6}
              style={{ listStyle: 'none', padding: 0, margin: 0, scrollMarginTop: 80 }}
            >
              {states.map((s) => (
                <li key={s.code}>
                  <Button
                    fullWidth
                    px={0}
                    variant={s.code === selected ? 'filled' : 'default'}
                    // The spoken name starts with the letters shown (WCAG 2.5.3), then the full name.
                    aria-label={`${s.code}, ${s.state_name}`}
                    aria-pressed={s.code === selected}
                    title={s.state_name}
                    onClick={() => choose(s.code)}
                  >
                    {s.code}
                  </Button>
                </li>
              ))}
            </SimpleGrid>
          </Stack>

          <Stack gap="sm" component="section" aria-labelledby="state-table-title">
            <Title order={2} id="state-table-title">
              Fees by state
            </Title>
            <Text size="sm" c="gray.7">
              These figures are our estimates of state fees for a small nonprofit: the yearly cost of annual reports and
              charitable registration, and the filing fee for articles of incorporation. States change their fees and
              rules, so check with the state before you file.
            </Text>
            {current && (
              <Box style={{ position: 'sticky', top: 8, zIndex: 2 }}>
                <StateDetails state={current} onClose={() => setSelected(null)} />
              </Box>
            )}
            <Table.ScrollContainer minWidth={720}>
              <Table striped highlightOnHover withTableBorder verticalSpacing="sm" bg="white">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">State</Table.Th>
                    <Table.Th scope="col" ta="right">
                      Maintain estimate (per year)
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      Articles of incorporation estimate
                    </Table.Th>
                    <Table.Th scope="col">Notes</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {states.map((s) => {
                    const isSelected = s.code === selected;
                    return (
                      <Table.Tr
                        key={s.code}
                        id={`state-${s.code}`}
                        data-selected={isSelected || undefined}
                        aria-current={isSelected || undefined}
                        bg={isSelected ? 'yellow.1' : undefined}
                        style={{
                          scrollMarginTop: 240,
                          outline: isSelected ? '2px solid var(--mantine-color-yellow-6)' : undefined,
                        }}
                      >
                        <Table.Th scope="row" fw={isSelected ? 700 : 500}>
                          {s.state_name}
                        </Table.Th>
                        <Table.Td ta="right">{formatCurrency(s.maintain_estimate_cents)}</Table.Td>
                        <Table.Td ta="right">{formatCurrency(s.aoi_estimate_cents)}</Table.Td>
                        <Table.Td>{s.notes}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        </>
      )}
    </Stack>
  );
}
