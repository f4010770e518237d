import { Alert, Anchor, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { groupHomeContracts } from '../../../shared/contracts/group-home.ts';
import { groupWorkspaceContracts } from '../../../shared/contracts/group-workspace.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { HttpFailure } from '../../lib/http.ts';
import { showDate } from '../../lib/locale.ts';
import { queryOf } from '../../lib/queries.ts';
import {
  StandingSection,
  DeadlinesSection,
  InvoicesSection,
  ApplicationsSection,
  DocumentsSection,
  UsersSection,
} from './home-sections.tsx';

/** The central organizations whose workspace the signed-in user may open (GET /api/app/groups). */
function useWorkspaces() {
  return useQuery({
    ...queryOf(groupWorkspaceContracts.list, {}),
    enabled: !!boot.user,
    retry: false,
  });
}

/**
 * The way to the central organization's workspace (docs/roles.md "Central organizations"), for a
 * signed-in user who is a user of at least one group (GET /api/app/groups); nothing for anyone
 * else, staff without a group of their own included.
 */
function WorkspaceCard() {
  const q = useWorkspaces();
  const count = q.data?.data.length ?? 0;
  if (count === 0) return null;
  return (
    <Card withBorder padding="md" mb="lg" component="section" aria-labelledby="home-workspace">
      <Group justify="space-between" align="center" gap="xs" wrap="wrap">
        <div>
          <Title order={2} size="h4" id="home-workspace">
            Your central organization’s workspace
          </Title>
          <Text size="sm" c="gray.7">
            {count === 1
              ? `${q.data?.data[0].label}: check your chapters’ standing with the IRS and see who can open it.`
              : `${count} central organizations: check their chapters’ standing with the IRS and see who can open them.`}
          </Text>
        </div>
        <Button component={Link} to="/app/group" variant="light" style={{ flex: 'none' }}>
          Open the workspace
        </Button>
      </Group>
    </Card>
  );
}

/**
 * /app, the group's home (docs/app-home.md): where the group stands with the IRS and what is due
 * next, what is unpaid (with a button to pay it), the applications in progress, its documents and
 * its users, from GET /api/app/home. Staff open an account's home with `?account_id=` (from the
 * staff page of the account); every link then keeps that account. A user of a central
 * organization also finds the way to its workspace (WorkspaceCard, docs/roles.md "Central organizations").
 */
export default function HomePage() {
  const [params] = useSearchParams();
  const isStaff = !!boot.user?.isAdmin;
  const requested = /^[1-9]\d{0,9}$/.test(params.get('account_id') ?? '') ? Number(params.get('account_id')) : null;
  const needsChoice = isStaff && requested === null && !boot.user?.accountId;
  const workspaces = useWorkspaces();
  const q = useQuery({
    ...queryOf(groupHomeContracts.home, { query: requested ? { account_id: requested } : {} }),
    enabled: !needsChoice,
    retry: false,
  });

  if (needsChoice) {
    return (
      <>
        <PageHeader title="Your group" />
        <WorkspaceCard />
        <Alert color="blue" title="Choose an account">
          Staff see a group’s home by opening the account and choosing “Open the group’s home”.{' '}
          <Anchor component={Link} to="/admin/accounts" inherit>
            Go to the accounts
          </Anchor>
        </Alert>
      </>
    );
  }
  if (q.isPending)
    return (
      <>
        <PageHeader title="Your group" />
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      </>
    );
  if (q.isError) {
    const missing = q.error instanceof HttpFailure && q.error.status === 404;
    return (
      <>
        <PageHeader title="Your group" />
        <Alert color="red">
          {missing
            ? 'This account could not be found.'
            : 'Your group’s home could not be loaded. Please reload the page.'}
        </Alert>
      </>
    );
  }

  const home = q.data;
  const acting = home.on_behalf && home.account ? home.account.id : null;
  const withAccount = (path: string) => (acting ? `${path}?account_id=${acting}` : path);
  const firstName = boot.user?.firstName;

  if (!home.account) {
    return (
      <>
        <PageHeader title="Your group" lead={`Welcome${firstName ? `, ${firstName}` : ''}.`} />
        <WorkspaceCard />
        {workspaces.data?.data.length ? (
          <Alert mb="lg" title="No organization of your own">
            This sign-in opens your central organization’s workspace. It is not linked to a group of its own: if your
            group needs one, start an application, and its standing, deadlines, invoices and documents then appear here.
          </Alert>
        ) : (
          <Alert mb="lg" title="Your group is not set up yet">
            This sign-in is not linked to an organization yet. Finish and submit your application: your group’s
            standing, deadlines, invoices and documents then appear here.
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <ApplicationsSection home={home} />
          <DocumentsSection home={home} withAccount={withAccount} />
        </SimpleGrid>
      </>
    );
  }

  const a = home.account;
  const place = [a.city, a.state].filter(Boolean).join(', ');
  return (
    <>
      <PageHeader
        title={a.name}
        lead={
          acting
            ? `The group’s home as its users see it${place ? ` · ${place}` : ''}.`
            : `Welcome back${firstName ? `, ${firstName}` : ''}.`
        }
      >
        <Text size="sm" c="gray.7">
          {[
            a.ein && `EIN ${a.ein}`,
            a.level && `Level: ${a.level}`,
            a.renewal_due_at && `Renewal due ${showDate(a.renewal_due_at)}`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      </PageHeader>
      {!acting && <WorkspaceCard />}
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <StandingSection home={home} detailsTo={acting ? `/admin/accounts/show/${acting}` : '/account'} />
          <DeadlinesSection home={home} calendarTo="/account" isStaff={!!acting} />
        </SimpleGrid>
        <InvoicesSection home={home} withAccount={withAccount} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <ApplicationsSection home={home} />
          <UsersSection home={home} withAccount={withAccount} />
        </SimpleGrid>
        <DocumentsSection home={home} withAccount={withAccount} />
        {!acting && (
          <Text size="sm" c="gray.7">
            Your organization’s details, renewal and profile image are in{' '}
            <Anchor component={Link} to="/account" inherit>
              your account
            </Anchor>
            .{' '}
            <Anchor component={Link} to="/app/supervision" inherit>
              Yearly supervision report and Form 990-N
            </Anchor>
          </Text>
        )}
      </Stack>
    </>
  );
}
