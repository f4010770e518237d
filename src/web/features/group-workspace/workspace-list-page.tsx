import { Alert, Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate } from 'react-router';
import { groupWorkspaceContracts } from '../../../shared/contracts/group-workspace.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { queryOf } from '../../lib/queries.ts';
import { describeGroup, ROLE_LABEL } from './workspace-texts.ts';

const TITLE = 'Your central organization’s workspace';

/**
 * /app/group (docs/roles.md "Central organizations"): the central organizations whose workspace
 * the signed-in user may open (GET /api/app/groups). With exactly one, the user goes straight to
 * its workspace (the address is replaced, so Back leaves it); with none, what to do to be given
 * one; with several, one card each with its GEN, the central organization and the user's role.
 */
export default function WorkspaceListPage() {
  const q = useQuery({
    ...queryOf(groupWorkspaceContracts.list, {}),
    retry: false,
  });

  if (q.data?.data.length === 1) return <Navigate to={`/app/group/${q.data.data[0].id}`} replace />;
  return (
    <>
      <PageHeader title={TITLE} />
      {q.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      )}
      {q.isError && <Alert color="red">Your workspaces could not be loaded. Please reload the page.</Alert>}
      {q.data?.data.length === 0 && (
        <Card withBorder padding="xl" maw={640}>
          <Stack gap="sm" align="flex-start">
            <Title order={2} size="h3">
              You are not a user of any central organization’s workspace.
            </Title>
            {boot.user?.isAdmin ? (
              <>
                <Text>Staff open any group’s workspace from the annual GEN update, group by group.</Text>
                <Button component={Link} to="/admin/gen-update" variant="default">
                  Go to the annual GEN update
                </Button>
              </>
            ) : (
              <>
                <Text>
                  A central organization’s workspace is opened by invitation. Ask {boot.company.name}’s staff, or a
                  manager of your central organization’s workspace, to invite you with the e-mail address you sign in
                  with.
                </Text>
                <Button component={Link} to="/app" variant="default">
                  Go to your home
                </Button>
              </>
            )}
          </Stack>
        </Card>
      )}
      {q.data && q.data.data.length > 1 && (
        <Stack gap="md" maw={720}>
          <Text c="gray.7">You are a user of these central organizations’ workspaces.</Text>
          {q.data.data.map((w) => (
            <Card key={w.id} withBorder padding="lg" component="section" aria-labelledby={`workspace-${w.id}`}>
              <Stack gap="xs" align="flex-start">
                <Title order={2} size="h4" id={`workspace-${w.id}`} style={{ overflowWrap: 'anywhere' }}>
                  {w.label}
                </Title>
                <Group gap="xs" wrap="wrap">
                  {describeGroup(w) && (
                    <Text size="sm" c="gray.7">
                      {describeGroup(w)}
                    </Text>
                  )}
                  <Badge variant="light">{ROLE_LABEL[w.role]}</Badge>
                </Group>
                <Button component={Link} to={`/app/group/${w.id}`} size="sm" aria-describedby={`workspace-${w.id}`}>
                  Open the workspace
                </Button>
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
    </>
  );
}
