import { Alert, Anchor, Badge, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { accountSettingsContracts } from '../../../shared/contracts/account-settings.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { ComplianceCalendarCard } from '../../components/compliance-calendar-card.tsx';
import { FilingExtensions } from '../../components/filing-extensions.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ReinstatementChecklist } from '../../components/reinstatement-checklist.tsx';
import { RenewalCard } from '../../components/renewal-card.tsx';
import { DynamicForm } from '../../components/schema-form/dynamic-form.tsx';
import { StandingCard } from '../../components/standing-card.tsx';
import { hrefOf } from '../../lib/http.ts';
import { showDate } from '../../lib/locale.ts';
import { keyOf, queryOf } from '../../lib/queries.ts';
import { BillingCard } from './billing-card.tsx';
import { ProfileImageCard } from './profile-image-card.tsx';

/**
 * "Your applications" on /account: the signed-in user's applications from
 * GET /api/account/applications, each with a link back into its wizard. Shows nothing while
 * loading, on failure, or when there are none.
 */
function MyApplicationsCard() {
  const q = useQuery({
    ...queryOf(accountOverviewContracts.applications, {}),
    retry: false,
  });
  const list = q.data?.applications ?? [];
  if (!list.length) return null;
  return (
    <Card withBorder padding="xl" mb="lg" component="section" aria-labelledby="my-applications">
      <Title order={2} size="h3" id="my-applications" mb="sm">
        Your applications
      </Title>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {list.map((a) => (
          <Group component="li" key={a.id} justify="space-between" wrap="nowrap">
            <div>
              <Text fw={600}>{a.level}</Text>
              <Text size="sm" c="gray.7">
                Last saved {showDate(a.updated_at)}
              </Text>
            </div>
            <Group gap="sm" wrap="nowrap">
              <Badge color={a.status === 'completed' ? 'green' : 'blue'} variant="light">
                {a.status === 'completed' ? 'Submitted' : 'In progress'}
              </Badge>
              <Anchor
                component={Link}
                to={`/application/create/${a.id}`}
                aria-label={`${a.status === 'completed' ? 'View' : 'Continue'} your ${a.level} application`}
              >
                {a.status === 'completed' ? 'View' : 'Continue'}
              </Anchor>
            </Group>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

/** The organization data as a dynamic form (GET /app/fields/editable, docs/requirements/entities.md "Dynamic form configuration"). */
function OrganizationDataCard() {
  const queryClient = useQueryClient();
  const q = useQuery({
    ...queryOf(accountSettingsContracts.editableFields, {}),
    retry: false,
  });
  if (!q.data) return null;
  return (
    <Card withBorder padding="xl" mt="lg" maw={720}>
      <DynamicForm
        config={q.data}
        route={accountSettingsContracts.saveData}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: keyOf(accountOverviewContracts.account) })}
      />
    </Card>
  );
}

/** The account holder's home: organization, level and renewal date. */
export default function AccountPage() {
  const queryClient = useQueryClient();
  const read = queryOf(accountOverviewContracts.account, {});
  const q = useQuery(read);
  if (q.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (q.isError) return <Alert color="red">Your account could not be loaded. Please reload the page.</Alert>;
  const { user, account } = q.data;
  return (
    <>
      <PageHeader title="Your account" lead={`Welcome back${user.firstName ? `, ${user.firstName}` : ''}.`} />
      <MyApplicationsCard />
      {!account ? (
        <Alert>
          This sign-in is not linked to an organization yet. Your organization appears here once you submit your
          application.
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder padding="xl">
            <Stack gap={4}>
              <Title order={2} size="h3">
                {account.name}
              </Title>
              <Text c="dimmed">{[account.city, account.state].filter(Boolean).join(', ')}</Text>
              {account.ein && <Text>EIN {formatEin(account.ein)}</Text>}
              <Anchor component={Link} to="/app/account/users" mt="xs">
                Users
              </Anchor>
              <Anchor component={Link} to="/app/supervision">
                Yearly supervision report and Form 990-N
              </Anchor>
            </Stack>
          </Card>
          <Card withBorder padding="xl">
            <Stack gap={4}>
              <Title order={2} size="h3">
                Membership
              </Title>
              <Text>Level: {account.level ?? '—'}</Text>
              <Text>Renewal due: {account.renewal_due_at ? showDate(account.renewal_due_at) : '—'}</Text>
            </Stack>
          </Card>
        </SimpleGrid>
      )}
      {account && (
        <Stack mt="lg">
          <StandingCard
            state={account.standing.state}
            irs={account.standing.irs}
            letterUrl={hrefOf(accountOverviewContracts.standingLetter, {})}
            title={{ id: 'my-standing', text: 'Standing with the IRS', label: account.standing.label }}
            reinstatement={account.standing.state === 'revoked' ? <ReinstatementChecklist /> : undefined}
            extensions={
              <FilingExtensions
                suggestedPeriod={
                  account.standing.irs.returns.find((r) => r.status === 'missed_unless_extended')?.period_end
                }
              />
            }
          />
        </Stack>
      )}
      {account && <RenewalCard />}
      {account && <BillingCard />}
      {account && (
        <ProfileImageCard
          account={account}
          onChange={(updated) =>
            queryClient.setQueryData(read.queryKey, (old) =>
              old?.account
                ? { ...old, account: { ...old.account, public_profile_image: updated.public_profile_image } }
                : old,
            )
          }
        />
      )}
      {account && <ComplianceCalendarCard />}
      {account && <OrganizationDataCard />}
    </>
  );
}
