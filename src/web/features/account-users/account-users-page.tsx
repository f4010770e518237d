import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Flex,
  Grid,
  Group,
  Loader,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { accountUserContracts } from '../../../shared/contracts/account-settings.ts';
import { ACCOUNT_USER_TEXT, INVITATION_TEXT, type AccountUserRow } from '../../../shared/schemas/account-users.ts';
import { hasNoOrganizationYet, NoOrganizationYet } from '../../components/no-organization-yet.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { confirmAction, toastSuccess } from '../../lib/feedback.tsx';
import { call, HttpFailure } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import { fullName, notice, failed, failedWith, PrimaryIcon, UserForm } from './user-form.tsx';

const cantDeletePrimary = (text: string = ACCOUNT_USER_TEXT.assignNewPrimary) =>
  notice(ACCOUNT_USER_TEXT.cantDeletePrimary, text, 'orange');

/**
 * /app/account/users (docs/requirements/screens.md "Admin account users", docs/requirements/behaviour.md, docs/requirements/calls.md, docs/requirements/errors.md): the account's users on the
 * left with the primary user marked by an icon, the create/edit form on the right. Account
 * holders see their own account; admins add `?account_id=`. Under docs/roles.md the primary user
 * and staff see every control; any other user sees the list and a form for their own record
 * only (no New user, no Delete, no primary checkbox).
 */
export default function AccountUsersPage() {
  if (hasNoOrganizationYet()) {
    return (
      <>
        <PageHeader title="Users" />
        <NoOrganizationYet title="No organization yet." />
      </>
    );
  }
  return <AccountUsersScreen />;
}

function AccountUsersScreen() {
  const [params] = useSearchParams();
  const requested = Number(params.get('account_id'));
  const accountId = boot.user?.isAdmin && Number.isInteger(requested) && requested > 0 ? requested : null;
  const client = useQueryClient();
  const read = queryOf(accountUserContracts.list, { query: accountId ? { account_id: accountId } : {} });
  const q = useQuery({ ...read, retry: false });
  const [editing, setEditing] = useState<AccountUserRow | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [inviting, setInviting] = useState<number | null>(null);

  const show = (u: AccountUserRow | null) => {
    setEditing(u);
    setFormKey((k) => k + 1);
  };
  const refresh = () => client.invalidateQueries({ queryKey: read.queryKey });

  const remove = async (u: AccountUserRow) => {
    if (u.is_primary) {
      cantDeletePrimary();
      return;
    }
    const ok = await confirmAction({
      title: ACCOUNT_USER_TEXT.confirmTitle,
      message: ACCOUNT_USER_TEXT.confirmText,
      confirm: ACCOUNT_USER_TEXT.confirmButton,
    });
    if (!ok) return;
    setDeleting(u.id);
    try {
      await call(accountUserContracts.remove, {
        params: { id: String(u.id) },
        body: accountId ? { account_id: accountId } : {},
      });
    } catch (err) {
      setDeleting(null);
      if (err instanceof HttpFailure && err.status === 422 && err.message === ACCOUNT_USER_TEXT.cantDeletePrimary) {
        cantDeletePrimary(Object.values(err.errors)[0]?.[0]);
      } else if (err instanceof HttpFailure) {
        failedWith(err);
      } else {
        failed();
      }
      await refresh();
      return;
    }
    if (u.id === boot.user?.id) {
      // Deleting yourself ends your sign-in (the sessions go with the user).
      window.location.assign('/login');
      return;
    }
    setDeleting(null);
    toastSuccess('The user was deleted.');
    if (editing?.id === u.id) show(null);
    await refresh();
  };

  const resend = async (u: AccountUserRow) => {
    setInviting(u.id);
    try {
      const res = await call(accountUserContracts.invitation, {
        params: { id: String(u.id) },
        body: accountId ? { account_id: accountId } : {},
      });
      toastSuccess(res.message);
    } catch (err) {
      if (err instanceof HttpFailure && (err.status === 403 || err.status === 409))
        notice(ACCOUNT_USER_TEXT.failureTitle, err.message, 'red');
      else failed();
    } finally {
      setInviting(null);
      await refresh();
    }
  };

  const account = q.data?.account;
  const viewer = q.data?.viewer;
  const canManage = viewer?.can_manage ?? false;
  const own = q.data?.users.find((u) => u.id === viewer?.id) ?? null;
  const primaryUser = q.data?.users.find((u) => u.is_primary);
  // Who cannot manage the account's users edits their own record, always.
  const shown = canManage ? editing : editing?.id === own?.id ? editing : own;
  return (
    <>
      <PageHeader title="Users" lead={account ? `People who can sign in for ${account.name}.` : undefined}>
        {accountId === null && (
          <Anchor component={Link} to="/account" size="sm">
            ← Back to your account
          </Anchor>
        )}
      </PageHeader>
      {q.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      )}
      {q.isError && (
        <Alert color="red">
          {q.error instanceof HttpFailure && q.error.status === 404
            ? 'This sign-in is not linked to an organization yet.'
            : q.error instanceof HttpFailure && q.error.status === 422
              ? 'Choose an account first: open this page with ?account_id= and the account’s id.'
              : 'The users could not be loaded. Please reload the page.'}
        </Alert>
      )}
      {q.data && viewer && !canManage && (
        <Alert color="blue" variant="light" mb="md">
          {primaryUser
            ? `Only the primary user, ${fullName(primaryUser) || primaryUser.email}, can add or remove users or choose the primary user. You can edit your own details.`
            : 'Only the account’s primary user can add or remove users. You can edit your own details.'}
        </Alert>
      )}
      {q.data && viewer && (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Card withBorder padding="md" component="section" aria-labelledby="user-list-title">
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4" id="user-list-title">
                  Users
                </Title>
                {canManage && (
                  <Button size="xs" onClick={() => show(null)}>
                    New user
                  </Button>
                )}
              </Group>
              {/* A fixed layout keeps the buttons inside the card on a phone: long names and e-mails are cut short instead. */}
              <Table aria-label="Users" verticalSpacing="sm" layout="fixed">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th w={{ base: 92, sm: canManage ? 164 : 92 }}>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {q.data.users.map((u) => (
                    <Table.Tr
                      key={u.id}
                      bg={shown?.id === u.id ? 'var(--mantine-color-blue-light)' : undefined}
                      aria-current={shown?.id === u.id || undefined}
                    >
                      <Table.Td>
                        {/* Names and addresses wrap on a phone instead of being cut off. */}
                        <Group gap={6} wrap="wrap">
                          {u.is_primary && <PrimaryIcon />}
                          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                            {fullName(u) || u.email}
                          </Text>
                          {u.id === viewer.id && (
                            <Badge size="xs" variant="light" style={{ flex: 'none' }}>
                              You
                            </Badge>
                          )}
                          {u.invited_at && (
                            <Badge size="xs" variant="light" color="orange" style={{ flex: 'none' }}>
                              {INVITATION_TEXT.pending}
                            </Badge>
                          )}
                        </Group>
                        <Text size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                          {u.email}
                        </Text>
                        {u.invited_at && canManage && (
                          <Button
                            size="compact-xs"
                            variant="default"
                            mt={4}
                            loading={inviting === u.id}
                            onClick={() => void resend(u)}
                            aria-label={`${INVITATION_TEXT.resend} to ${u.email}`}
                          >
                            {INVITATION_TEXT.resend}
                          </Button>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {/* Side by side from the sm breakpoint, one above the other on a phone. */}
                        <Flex gap="xs" direction={{ base: 'column', sm: 'row' }} justify="flex-end">
                          {(canManage || u.id === viewer.id) && (
                            <Button size="xs" variant="default" onClick={() => show(u)} aria-label={`Edit ${u.email}`}>
                              Edit
                            </Button>
                          )}
                          {canManage && (
                            <Button
                              size="xs"
                              color="red"
                              variant="light"
                              loading={deleting === u.id}
                              onClick={() => void remove(u)}
                              aria-label={`Delete ${u.email}`}
                            >
                              Delete
                            </Button>
                          )}
                        </Flex>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            {(canManage || shown) && (
              <UserForm
                key={`${shown?.id ?? 'new'}-${formKey}-${canManage ? 'manage' : 'self'}`}
                user={shown}
                accountId={accountId}
                viewer={viewer}
                viewerIsPrimary={own?.is_primary ?? false}
                onNew={canManage ? () => show(null) : undefined}
                onSaved={(saved) => {
                  // After an edit the form stays on the user (with the saved values); after a create it is empty again.
                  if (shown) show(saved);
                  void refresh();
                }}
              />
            )}
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
