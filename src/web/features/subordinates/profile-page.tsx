import { Alert, Anchor, Card, Center, Group, Image, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { Fact, StandingBadge, StandingCard } from '../../components/standing-card.tsx';
import { HttpFailure } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import type { publicProfileContracts } from '../../../shared/contracts/public-profile.ts';

/** The public profile of an account (docs/requirements/screens.md /app/account/show/{id}) with its good-standing badge. */
export default function ProfilePage() {
  const { id = '' } = useParams();
  const query = useQuery({
    // Typed by the contract but fetched by its address: the contract's zod schemas stay out of this
    // public page (docs/ARCHITECTURE.md "Initial JavaScript").
    ...queryOf(routeAt<typeof publicProfileContracts.show>('GET', '/api/accounts/:id/public'), { params: { id } }),
    retry: false,
  });
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (query.isError) {
    const missing = query.error instanceof HttpFailure && query.error.status === 404;
    return (
      <Stack>
        <Title order={1}>{missing ? 'Organization not found' : 'Something went wrong'}</Title>
        <Alert color={missing ? 'gray' : 'red'}>
          {missing
            ? 'There is no organization at this address.'
            : 'The profile could not be loaded. Please reload the page.'}
        </Alert>
        <Anchor component={Link} to="/verify-501c3">
          Search organizations
        </Anchor>
      </Stack>
    );
  }
  const p = query.data;
  return (
    <Stack gap="lg">
      {p.public_profile_image && (
        <Image src={p.public_profile_image} alt={`${p.name} header`} h={200} radius="md" fit="cover" />
      )}
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>{p.name}</Title>
          {p.legal_name && p.legal_name !== p.name && (
            <Text c="dimmed">
              {p.gen ? `Covered by the group exemption of ${p.legal_name}` : `Legal name: ${p.legal_name}`}
            </Text>
          )}
          <Text c="dimmed">{[p.city, p.state].filter(Boolean).join(', ')}</Text>
        </div>
        <StandingBadge state={p.standing} label={p.standing_label} />
      </Group>
      <Card withBorder padding="xl">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
          <Fact label="EIN" value={p.ein} />
          <Fact label="Group exemption number (GEN)" value={p.gen} />
          {p.ruling_is_group ? (
            <Fact
              label="Group exemption ruling year"
              value={p.ruling_year ? `${p.ruling_year} (the group exemption's, not this organization's own)` : ''}
            />
          ) : (
            <Fact label="Ruling year" value={p.ruling_year} />
          )}
          <Fact label="Subsection" value={p.subsection} />
          <Fact label="Gifts tax deductible" value={p.deductible} />
        </SimpleGrid>
      </Card>
      <Title order={2} size="h3">
        Standing with the IRS
      </Title>
      <StandingCard state={p.standing} irs={p.irs} />
      <Anchor component={Link} to="/verify-501c3">
        Search other organizations
      </Anchor>
    </Stack>
  );
}
