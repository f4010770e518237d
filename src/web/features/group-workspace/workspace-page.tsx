import { Alert, Anchor, Badge, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { groupWorkspaceContracts } from '../../../shared/contracts/group-workspace.ts';
import { BulkCheckPanel } from '../../components/bulk-check-panel.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { hrefOf, HttpFailure, upload } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import { GroupUsersSection } from './group-users-section.tsx';
import { SupervisionSection } from './supervision-section.tsx';
import { describeGroup, ROLE_LABEL } from './workspace-texts.ts';

const c = groupWorkspaceContracts;
const TITLE = 'Central organization’s workspace';

/**
 * The group's checks of a list of EINs (docs/irs-standing.md "Checking a list of EINs"), as every
 * user of the group may run them: the {@link BulkCheckPanel} on the group's own routes.
 */
function ChecksSection({ groupId }: { groupId: string }) {
  const params = { groupId };
  return (
    <Stack gap="sm" component="section" aria-labelledby="workspace-checks-title">
      <div>
        <Title order={2} size="h3" id="workspace-checks-title" mb={4}>
          Check a list of EINs
        </Title>
        <Text c="gray.7">
          Upload a CSV file of your chapters’ EINs and download each one’s standing with the IRS: the return it owes,
          the years it missed and any revocation.
        </Text>
      </div>
      <BulkCheckPanel
        list={queryOf(c.bulkChecks, { params })}
        uploadChecks={(body) => upload(c.uploadBulkCheck, { params }, body)}
        resultHref={(id) => hrefOf(c.bulkCheckResult, { params: { groupId, id: String(id) } })}
        headingOrder={3}
      />
    </Stack>
  );
}

/**
 * /app/group/:groupId, a central organization's workspace (docs/roles.md "Central
 * organizations"): the group's name, GEN and central organization and the caller's role
 * (GET /api/app/groups/{groupId}), then checking a list of its chapters' EINs, the supervision
 * of its member groups (SupervisionSection) and the group's users (GroupUsersSection: managers and staff invite and remove them, viewers read). A group
 * the caller may not open, or that does not exist, reads "This group could not be found."
 */
export default function WorkspacePage() {
  const { groupId = '' } = useParams();
  const valid = /^[1-9]\d{0,9}$/.test(groupId);
  const q = useQuery({
    ...queryOf(c.show, { params: { groupId } }),
    enabled: valid,
    retry: false,
  });

  if (!valid || (q.isError && q.error instanceof HttpFailure && q.error.status === 404)) {
    return (
      <>
        <PageHeader title={TITLE} />
        <Card withBorder padding="xl" maw={640}>
          <Stack gap="sm" align="flex-start">
            <Title order={2} size="h3">
              This group could not be found.
            </Title>
            <Text>
              It may have been removed, or you are not one of its users. A manager of the group can invite you to its
              workspace.
            </Text>
            <Anchor component={Link} to="/app/group">
              See your workspaces
            </Anchor>
          </Stack>
        </Card>
      </>
    );
  }
  if (q.isError)
    return (
      <>
        <PageHeader title={TITLE} />
        <Alert color="red">The workspace could not be loaded. Please reload the page.</Alert>
      </>
    );
  if (q.isPending)
    return (
      <>
        <PageHeader title={TITLE} />
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      </>
    );

  const group = q.data;
  const about = describeGroup(group);
  return (
    <>
      <PageHeader title={group.label}>
        <Group gap="sm" wrap="wrap">
          {about && <Text c="gray.7">{about}</Text>}
          <Badge variant="light" size="lg" style={{ flex: 'none' }}>
            Your role: {ROLE_LABEL[group.role]}
          </Badge>
        </Group>
      </PageHeader>
      <Stack gap="xl">
        <ChecksSection groupId={groupId} />
        <SupervisionSection group={group} />
        <GroupUsersSection group={group} />
      </Stack>
    </>
  );
}
