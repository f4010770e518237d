import { Alert, Button, Card, Grid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { groupWorkspaceContracts } from '../../../shared/contracts/group-workspace.ts';
import {
  GROUP_ROLE_LABELS,
  GROUP_ROLES,
  groupUserInviteSchema,
  type GroupUser,
  type WorkspaceSummary,
} from '../../../shared/schemas/group-workspace.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { SelectField } from '../../components/form-kit/select-field.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { boot } from '../../lib/boot.ts';
import { confirmAction, toastFailure, toastSuccess } from '../../lib/feedback.tsx';
import { call, HttpFailure } from '../../lib/http.ts';
import { showDate } from '../../lib/locale.ts';
import { queryOf, keyOf } from '../../lib/queries.ts';
import classes from './group-users-section.module.css';

const c = groupWorkspaceContracts;

/** The invitation form's values: who, and in which role. */
interface InviteValues {
  email: string;
  first_name: string;
  last_name: string;
  role: string;
}

/** A new invitation: a viewer unless the manager chooses otherwise. */
const EMPTY: InviteValues = { email: '', first_name: '', last_name: '', role: 'viewer' };

const ROLE_OPTIONS = GROUP_ROLES.map((r) => [r, GROUP_ROLE_LABELS[r]] as const);

const fullName = (u: GroupUser) => [u.first_name, u.last_name].filter(Boolean).join(' ');

/**
 * "Invitation sent May 4, 2026" while the user has not chosen a password yet, else "Active". The
 * date is kept on one line: in a narrow column it goes under "Invitation sent" whole.
 */
function statusOf(u: GroupUser): ReactNode {
  if (!u.invited_at) return 'Active';
  return (
    <>
      Invitation sent <span style={{ whiteSpace: 'nowrap' }}>{showDate(u.invited_at, 'MMM D, YYYY')}</span>
    </>
  );
}

/**
 * The invitation of a new user of the group (POST /api/app/groups/{groupId}/users), for managers
 * and staff: e-mail, first and last name and role, each refusal under its field (422), a limit's
 * message above the button (429), and the server's message once the user is invited or added.
 */
function InviteForm({ groupId, onInvited }: { groupId: string; onInvited: () => void }) {
  const [done, setDone] = useState<string | null>(null);
  const kit = useServerForm<InviteValues, typeof c.invite>({
    route: c.invite,
    params: { groupId },
    defaultValues: EMPTY,
    schema: groupUserInviteSchema,
    onSuccess: (res) => {
      setDone(res.message);
      onInvited();
    },
    onFailure: (f) => {
      setDone(null);
      // Field errors (422) and a limit (429) are shown by the form itself.
      if (f.status !== 422 && f.status !== 429) toastFailure(f.status === 403 ? f.message : undefined);
    },
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="group-invite-title">
      <Title order={3} size="h4" id="group-invite-title" mb={4}>
        Invite a user
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        We e-mail them a link to choose their password, or, if they already sign in here, that they can now open this
        workspace. A manager invites and removes users; a viewer reads.
      </Text>
      <KitForm
        kit={kit}
        label="Invite a user"
        footer={
          done && (
            <Alert color="green" role="status">
              {done}
            </Alert>
          )
        }
      >
        <TextField name="email" label="E-mail" type="email" required autoComplete="off" maxLength={255} />
        <TextField name="first_name" label="First name" required autoComplete="off" maxLength={255} />
        <TextField name="last_name" label="Last name" required autoComplete="off" maxLength={255} />
        <SelectField name="role" label="Role" required options={ROLE_OPTIONS} />
        <SubmitButton>Send the invitation</SubmitButton>
      </KitForm>
    </Card>
  );
}

/**
 * The group's users (docs/roles.md "Central organizations"), GET /api/app/groups/{groupId}/users:
 * name and e-mail, role, and "Invitation sent …" until they have chosen a password. Managers and
 * staff also get the invitation form and a "Remove" button per user, which asks before it takes
 * the user off the group and shows the server's refusal (the group keeps a manager, 409) above
 * the list. Viewers read the list only.
 */
export function GroupUsersSection({ group }: { group: WorkspaceSummary }) {
  const groupId = String(group.id);
  const canManage = group.role === 'manager' || group.role === 'staff';
  const client = useQueryClient();
  const navigate = useNavigate();
  const read = queryOf(c.users, { params: { groupId } });
  const q = useQuery(read);
  const [removing, setRemoving] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: read.queryKey });

  const remove = async (u: GroupUser) => {
    setRefusal(null);
    const ok = await confirmAction({
      title: 'Remove this user?',
      message: `${fullName(u) || u.email} (${u.email}) will no longer be able to open the workspace of ${group.label}.`,
      confirm: 'Remove',
    });
    if (!ok) return;
    setRemoving(u.user_id);
    try {
      const res = await call(c.remove, { params: { groupId, userId: String(u.user_id) } });
      toastSuccess(res.message);
      if (u.user_id === boot.user?.id) {
        // Their own removal: the workspace is no longer theirs to open.
        await client.invalidateQueries({ queryKey: keyOf(c.list) });
        await navigate('/app/group', { replace: true });
        return;
      }
    } catch (err) {
      if (err instanceof HttpFailure && err.status >= 400 && err.status < 500) setRefusal(err.message);
      else toastFailure();
    } finally {
      setRemoving(null);
    }
    await refresh();
  };

  const table = (
    <Card withBorder padding="md">
      {q.isError && <Alert color="red">The users could not be loaded. Please reload the page.</Alert>}
      {q.isPending && (
        <Text size="sm" c="gray.7">
          Loading the users…
        </Text>
      )}
      {q.data && (
        <Table aria-label="Users of the group" verticalSpacing="sm" className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th w={100}>Role</Table.Th>
              <Table.Th w={canManage ? 150 : 210}>Status</Table.Th>
              {canManage && (
                <Table.Th w={96}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {q.data.data.map((u) => (
              <Table.Tr key={u.user_id}>
                <Table.Td>
                  <Text fw={600} style={{ overflowWrap: 'break-word' }}>
                    {fullName(u) || u.email}
                  </Text>
                  <Text size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                    {u.email}
                  </Text>
                </Table.Td>
                <Table.Td>{GROUP_ROLE_LABELS[u.role]}</Table.Td>
                <Table.Td>
                  <Text size="sm" c={u.invited_at ? 'orange' : undefined}>
                    {statusOf(u)}
                  </Text>
                </Table.Td>
                {canManage && (
                  <Table.Td className={classes.actions}>
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      loading={removing === u.user_id}
                      onClick={() => void remove(u)}
                      aria-label={`Remove ${u.email}`}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
  return (
    <Stack gap="sm" component="section" aria-labelledby="group-users-title">
      <div>
        <Title order={2} size="h3" id="group-users-title" mb={4}>
          Users
        </Title>
        <Text c="gray.7">
          {canManage
            ? 'Who can open this workspace. Managers invite and remove users; viewers read.'
            : 'Who can open this workspace. Only a manager of the group can invite or remove users.'}
        </Text>
      </div>
      {refusal && (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          closeButtonLabel="Close message"
          onClose={() => setRefusal(null)}
        >
          {refusal}
        </Alert>
      )}
      {canManage ? (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>{table}</Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <InviteForm groupId={groupId} onInvited={() => void refresh()} />
          </Grid.Col>
        </Grid>
      ) : (
        table
      )}
    </Stack>
  );
}
