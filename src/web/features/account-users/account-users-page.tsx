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
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { accountUserContracts } from '../../../shared/contracts/account-settings.ts';
import {
  ACCOUNT_USER_TEXT,
  INVITATION_TEXT,
  NEW_USER_FLAGS,
  accountUserStoreSchema,
  accountUserUpdateSchema,
  changesNeedingCurrentPassword,
  withCurrentPasswordRule,
  type AccountUserRow,
  type AccountUserViewer,
} from '../../../shared/schemas/account-users.ts';
import { CheckboxField } from '../../components/form-kit/checkbox-field.tsx';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { PasswordField } from '../../components/form-kit/password-field.tsx';
import { defaultPayload, useServerForm } from '../../components/form-kit/use-server-form.ts';
import { hasNoOrganizationYet, NoOrganizationYet } from '../../components/no-organization-yet.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { confirmAction, toastSuccess } from '../../lib/feedback.tsx';
import { call, HttpFailure } from '../../lib/http.ts';
import { whenOverlays } from '../../lib/overlays-ready.ts';

/**
 * The form's values: a user row without its id, plus the password pair (a user's own record only,
 * sent when set) and the viewer's own current password (asked for only when a change needs it,
 * docs/roles.md). A new user gets no password: they are invited to choose it.
 */
type UserValues = Omit<AccountUserRow, 'id' | 'invited_at'> & {
  password: string;
  password_confirmation: string;
  current_password: string;
};

/** A new user's form: docs/requirements/entities.md defaults (bulk and event e-mails on, SMS off). */
const EMPTY: UserValues = {
  email: '',
  first_name: '',
  last_name: '',
  password: '',
  password_confirmation: '',
  current_password: '',
  phone: '',
  sms_phone: '',
  ...NEW_USER_FLAGS,
};

const valuesOf = (u: AccountUserRow): UserValues => ({
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  password: '',
  password_confirmation: '',
  current_password: '',
  phone: u.phone,
  sms_phone: u.sms_phone,
  is_primary: u.is_primary,
  is_subscribed_bulk_emails: u.is_subscribed_bulk_emails,
  is_subscribed_event_emails: u.is_subscribed_event_emails,
  is_subscribed_sms: u.is_subscribed_sms,
});

const fullName = (u: AccountUserRow) => [u.first_name, u.last_name].filter(Boolean).join(' ');

/** A SweetAlert-like notice of docs/requirements/errors.md (title and text, one OK button). */
function notice(title: string, text: string, color: 'orange' | 'red') {
  const id = `notice-${Date.now()}`;
  whenOverlays(() =>
    modals.open({
      modalId: id,
      title: (
        <Text fw={700} size="lg" c={color}>
          {title}
        </Text>
      ),
      children: (
        <>
          <Text>{text}</Text>
          <Group justify="flex-end" mt="lg">
            <Button onClick={() => modals.close(id)}>OK</Button>
          </Group>
        </>
      ),
      centered: true,
    }),
  );
}

const failed = () => notice(ACCOUNT_USER_TEXT.failureTitle, ACCOUNT_USER_TEXT.failureText, 'red');
/**
 * A refusal (403) or a limit (429, which says when to try again) in its own words; anything else
 * is the generic failure of docs/requirements/errors.md.
 */
const failedWith = (f: HttpFailure) =>
  f.status === 403 || f.status === 429 ? notice(ACCOUNT_USER_TEXT.failureTitle, f.message, 'red') : failed();
const cantDeletePrimary = (text: string = ACCOUNT_USER_TEXT.assignNewPrimary) =>
  notice(ACCOUNT_USER_TEXT.cantDeletePrimary, text, 'orange');

/** The star that marks the primary user (docs/requirements/screens.md), named for assistive technology. */
function PrimaryIcon() {
  return (
    <svg
      role="img"
      aria-label="Primary user"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      style={{ flex: 'none', color: 'var(--mantine-color-yellow-7)' }}
    >
      <title>Primary user</title>
      <path fill="currentColor" d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z" />
    </svg>
  );
}

/**
 * The create/edit form (right-hand side). Create when `user` is null (no password: the new user
 * is mailed an invitation to choose it, docs/roles.md "Invitations"), edit otherwise (the
 * password fields only on the viewer's own record, and only when changed). The primary user's own form cannot clear its flag
 * (docs/requirements/behaviour.md). Under docs/roles.md, the primary-user checkbox shows only to those who manage the
 * account's users, and "Current password" appears when the viewer must confirm a new e-mail
 * address, a new password or a primary transfer. Remounted by the page for each user it shows.
 */
function UserForm({
  user,
  accountId,
  viewer,
  viewerIsPrimary,
  onSaved,
  onNew,
}: {
  user: AccountUserRow | null;
  accountId: number | null;
  viewer: AccountUserViewer;
  viewerIsPrimary: boolean;
  onSaved: (saved: AccountUserRow) => void;
  /** Back to an empty "New user" form; absent for viewers who cannot add users. */
  onNew?: () => void;
}) {
  const editing = user !== null;
  const before = user ? { email: user.email, is_primary: user.is_primary } : null;
  const kit = useServerForm<UserValues, typeof accountUserContracts.store | typeof accountUserContracts.update>({
    route: editing ? accountUserContracts.update : accountUserContracts.store,
    params: editing ? { id: user.id } : undefined,
    defaultValues: user ? valuesOf(user) : EMPTY,
    schema: withCurrentPasswordRule(
      editing ? accountUserUpdateSchema : accountUserStoreSchema,
      before,
      viewer.must_confirm,
    ),
    isClearing: !editing,
    toPayload: (v) => {
      const payload: Record<string, unknown> = {
        ...defaultPayload(v),
        ...(accountId ? { account_id: accountId } : {}),
      };
      // Only those who manage the account's users may touch the primary flag.
      if (!viewer.can_manage) delete payload.is_primary;
      return payload;
    },
    onSuccess: (res) => {
      toastSuccess(editing ? 'The user was saved.' : INVITATION_TEXT.created);
      onSaved(res.user);
    },
    onFailure: (f) => {
      // A 429 is shown by the form itself, with when to try again.
      if (f.status !== 422 && f.status !== 429) failedWith(f);
    },
  });
  const [email, password, isPrimary] = kit.form.watch(['email', 'password', 'is_primary']);
  const confirming =
    viewer.must_confirm &&
    changesNeedingCurrentPassword(before, {
      email: String(email ?? ''),
      password: String(password ?? ''),
      is_primary: !!isPrimary,
    }).length > 0;
  const self = editing && user.id === viewer.id;
  const lockedPrimary = editing && user.is_primary;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="user-form-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="user-form-title">
          {!editing ? 'New user' : self ? 'Your details' : `Edit ${fullName(user) || user.email}`}
        </Title>
        {editing && onNew && (
          <Button variant="subtle" size="xs" onClick={onNew}>
            New user
          </Button>
        )}
      </Group>
      <KitForm kit={kit} label={editing ? 'Edit user' : 'New user'}>
        <TextField name="email" label="E-mail" type="email" required autoComplete="off" maxLength={255} />
        <Group grow align="flex-start">
          <TextField name="first_name" label="First name" required autoComplete="off" maxLength={255} />
          <TextField name="last_name" label="Last name" required autoComplete="off" maxLength={255} />
        </Group>
        {self ? (
          <>
            <PasswordField
              name="password"
              label="New password"
              withMeter
              description="Leave blank to keep your current password."
            />
            <PasswordField name="password_confirmation" label="Confirm new password" />
          </>
        ) : !editing ? (
          <Alert color="blue" variant="light" p="xs">
            <Text size="sm">{INVITATION_TEXT.newUserNote}</Text>
          </Alert>
        ) : user.invited_at ? (
          <Text
            size="sm"
            c="gray.7"
          >{`${user.first_name || user.email} has not chosen a password yet. “${INVITATION_TEXT.resend}” in the list e-mails them a new link.`}</Text>
        ) : (
          <Text size="sm" c="gray.7">
            Only this user can change their password. If they forgot it, they can use “Forgot your password?” on the
            sign-in page.
          </Text>
        )}
        <Group grow align="flex-start">
          <TextField name="phone" label="Phone" type="tel" inputMode="tel" autoComplete="off" maxLength={40} />
          <TextField name="sms_phone" label="SMS phone" type="tel" inputMode="tel" autoComplete="off" maxLength={40} />
        </Group>
        {lockedPrimary ? (
          <Alert color="yellow" variant="light" p="xs">
            <Group gap="xs" wrap="nowrap">
              <PrimaryIcon />
              <Text size="sm">This is the primary user. To change it, make another user primary.</Text>
            </Group>
          </Alert>
        ) : (
          viewer.can_manage && (
            <CheckboxField
              name="is_primary"
              label="Make this the primary user"
              description={
                viewerIsPrimary
                  ? 'The primary user manages the account’s users and cannot be deleted. You will no longer be the primary user.'
                  : 'The primary user cannot be deleted; the current primary user loses the mark.'
              }
            />
          )
        )}
        <Text size="sm" fw={500} mb={-8}>
          Subscriptions
        </Text>
        <CheckboxField name="is_subscribed_bulk_emails" label="Bulk e-mails" />
        <CheckboxField name="is_subscribed_event_emails" label="Event e-mails" />
        <CheckboxField name="is_subscribed_sms" label="SMS messages" />
        {confirming && (
          <PasswordField
            name="current_password"
            label="Current password"
            required
            autoComplete="current-password"
            description={self ? 'To confirm this change.' : 'Your own password, to confirm this change.'}
          />
        )}
        <SubmitButton
          extra={
            editing && onNew ? (
              <Button variant="default" onClick={onNew}>
                Cancel
              </Button>
            ) : undefined
          }
        >
          {editing ? 'Save user' : 'Add user and send invitation'}
        </SubmitButton>
      </KitForm>
    </Card>
  );
}

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
  const queryKey = ['account-users', accountId];
  const q = useQuery({
    queryKey,
    queryFn: () => call(accountUserContracts.list, { query: accountId ? { account_id: accountId } : {} }),
    retry: false,
  });
  const [editing, setEditing] = useState<AccountUserRow | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [inviting, setInviting] = useState<number | null>(null);

  const show = (u: AccountUserRow | null) => {
    setEditing(u);
    setFormKey((k) => k + 1);
  };
  const refresh = () => client.invalidateQueries({ queryKey });

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
