import {
  Alert,
  Button,
  Card,
  Center,
  Group,
  List,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { Fact, StandingBadge, StandingCard } from '../../components/standing-card.tsx';
import { HttpFailure } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import type { irsCheckContracts } from '../../../shared/contracts/irs-check.ts';
import type { IrsCheck } from '../../../shared/schemas/irs-check.ts';

const lookupRoute = routeAt<typeof irsCheckContracts.lookup>('GET', '/api/irs/organizations');
const checkRoute = routeAt<typeof irsCheckContracts.check>('GET', '/api/irs/organizations/:ein');

/**
 * The instant revocation-risk check (docs/irs-standing.md "Instant check"): a visitor types an EIN
 * or a name, picks the organization, and reads its standing at once, with what to do next. The
 * query and the organization picked live in the address (`check`, `ein`), so an answer can be
 * shared. `onChecked` hands the organization to the review request form below, to prefill it.
 */
export function InstantCheck({ onChecked }: { onChecked: (org: IrsCheck) => void }) {
  const [params, setParams] = useSearchParams();
  const asked = params.get('check') ?? '';
  const ein = params.get('ein') ?? '';
  // Keyset pages: the organization the page starts after or ends before (the answer's next / previous).
  const after = params.get('after') ?? undefined;
  const before = after ? undefined : (params.get('before') ?? undefined);
  const [tooShort, setTooShort] = useState(false);

  const lookup = useQuery({
    ...queryOf(lookupRoute, { query: { query: asked, after, before } }),
    enabled: asked.length >= 2,
    placeholderData: keepPreviousData,
  });
  const check = useQuery({
    ...queryOf(checkRoute, { params: { ein } }),
    enabled: ein !== '',
    retry: false,
  });
  useEffect(() => {
    if (check.data) onChecked(check.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [check.data]);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // Read from the form, not from state: text typed before the page's script loaded is kept.
    const q = String(new FormData(e.currentTarget).get('check') ?? '').trim();
    setTooShort(q.length < 2);
    if (q.length >= 2) setParams({ check: q }, { replace: false });
  };
  const pick = (picked: string) => setParams({ ...(asked ? { check: asked } : {}), ein: picked });
  const previousPage = lookup.data?.previous ?? null;
  const nextPage = lookup.data?.next ?? null;
  const notFound = check.error instanceof HttpFailure && check.error.status === 404;

  return (
    <Card withBorder padding="xl" mb="xl" component="section" aria-labelledby="instant-check-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="instant-check-title">
          Check any organization now
        </Title>
        {/* A plain GET form: it works before the page's script has loaded, the address carries the query. */}
        <form
          onSubmit={submit}
          role="search"
          aria-label="Check an organization"
          method="get"
          action="/compliance-check"
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="EIN or organization name"
              name="check"
              placeholder="12-3456789 or a name"
              defaultValue={asked}
              error={tooShort ? 'Type an EIN or at least two letters of the name.' : undefined}
              style={{ flex: '1 1 16rem' }}
              maxLength={100}
            />
            <Button type="submit">Check</Button>
          </Group>
        </form>
        {lookup.isError && <Alert color="red">The check did not work. Please try again.</Alert>}
        {asked && !ein && lookup.isPending && (
          <Center py="md">
            <Loader role="status" aria-label="Searching" />
          </Center>
        )}
        {asked && !ein && lookup.data && (
          <div role="status" aria-live="polite">
            {lookup.data.data.length === 0 ? (
              <Alert color="gray" title={`No organization found for “${asked}”`}>
                {lookup.data.not_found}
              </Alert>
            ) : (
              <Stack gap="xs">
                <Text size="sm" c="dimmed">
                  Pick the organization:
                </Text>
                {lookup.data.data.map((o) => (
                  <Button
                    key={o.ein}
                    variant="light"
                    justify="space-between"
                    fullWidth
                    onClick={() => pick(o.ein)}
                    styles={{
                      label: { whiteSpace: 'normal', textAlign: 'left' },
                      root: { height: 'auto', paddingBlock: 8 },
                    }}
                  >
                    {o.name} ·{' '}
                    {[o.city, o.state].filter(Boolean).join(', ') || (o.revoked_only ? 'on the revocation list' : '')} ·
                    EIN {o.ein_formatted}
                  </Button>
                ))}
                <Group>
                  {previousPage && (
                    <Button variant="subtle" onClick={() => setParams({ check: asked, before: previousPage })}>
                      Previous
                    </Button>
                  )}
                  {nextPage && (
                    <Button variant="subtle" onClick={() => setParams({ check: asked, after: nextPage })}>
                      More results
                    </Button>
                  )}
                </Group>
              </Stack>
            )}
          </div>
        )}
        {ein && check.isPending && (
          <Center py="md">
            <Loader role="status" aria-label="Checking" />
          </Center>
        )}
        {ein && notFound && (
          <Alert color="gray" title="Not in the IRS data">
            No organization with EIN {ein} is in the IRS data loaded.
          </Alert>
        )}
        {check.data && <CheckAnswer org={check.data} />}
      </Stack>
    </Card>
  );
}

/** The answer for one organization: who it is, its standing, what to do next, the facts and their sources. */
function CheckAnswer({ org }: { org: IrsCheck }) {
  return (
    <Stack gap="md" role="region" aria-label={`Standing of ${org.name}`}>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <Title order={3}>{org.name}</Title>
          {org.other_name && <Text c="dimmed">{org.other_name}</Text>}
          <Text c="dimmed">{[org.city, org.state].filter(Boolean).join(', ')}</Text>
        </div>
        <StandingBadge state={org.standing.state} label={org.standing.label} size="lg" />
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
        <Fact label="EIN" value={org.ein_formatted} />
        <Fact label="Subsection" value={org.subsection} />
        <Fact
          label={org.ruling_is_group ? 'Group exemption ruling year' : 'Ruling year'}
          value={org.ruling_is_group && org.ruling_year ? `${org.ruling_year} (GEN ${org.gen})` : org.ruling_year}
        />
        <Fact label="Gifts tax deductible" value={org.deductible} />
      </SimpleGrid>
      <div>
        <Title order={4} mb="xs">
          What to do next
        </Title>
        <List spacing="xs">
          {org.next_steps.map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List>
      </div>
      <StandingCard state={org.standing.state} irs={org.standing.irs} />
    </Stack>
  );
}
