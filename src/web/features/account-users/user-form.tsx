import { Alert, Button, Card, Group, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
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
import { toastSuccess } from '../../lib/feedback.tsx';
import { HttpFailure } from '../../lib/http.ts';
import { whenOverlays } from '../../lib/overlays-ready.ts';

/**
 * The form's values: a user row without its id, plus the password pair (a user's own record only,
 * sent when set) and the viewer's own current password (asked for only when a change needs it,
 * docs/roles.md). A new user gets no password: they are invited to choose it.
 */
export type UserValues = Omit<AccountUserRow, 'id' | 'invited_at'> & {
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

export const fullName = (u: AccountUserRow) => [u.first_name, u.last_name].filter(Boolean).join(' ');

/** A SweetAlert-like notice of docs/requirements/errors.md (title and text, one OK button). */
export function notice(title: string, text: string, color: 'orange' | 'red') {
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

export const failed = () => notice(ACCOUNT_USER_TEXT.failureTitle, ACCOUNT_USER_TEXT.failureText, 'red');
/**
 * A refusal (403) or a limit (429, which says when to try again) in its own words; anything else
 * is the generic failure of docs/requirements/errors.md.
 */
export const failedWith = (f: HttpFailure) =>
  f.status === 403 || f.status === 429 ? notice(ACCOUNT_USER_TEXT.failureTitle, f.message, 'red') : failed();
/** The star that marks the primary user (docs/requirements/screens.md), named for assistive technology. */
export function PrimaryIcon() {
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
export function UserForm({
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
