import { z } from 'zod';
import { msg, optionalText, requiredEmail, requiredText } from '../validation.ts';
import { PASSWORD_MIN_LENGTH, phone } from './public-forms.ts';

/**
 * Account users (docs/requirements/screens.md "Admin account users", docs/requirements/entities.md "User", docs/requirements/behaviour.md "Account users", docs/requirements/calls.md
 * /app/account/users/*, docs/requirements/errors.md "Account users"). Privilege fields (is_admin, account_id, ...) are not
 * part of these schemas: unknown fields are dropped, never read. Admins name the account with a
 * separate `account_id` the route reads on its own.
 */

/** docs/requirements/errors.md texts, shared by the server's answers and the page. */
export const ACCOUNT_USER_TEXT = {
  cantDeletePrimary: "Can't delete primary user.",
  assignNewPrimary: 'Please assign a new primary user to allow deletion.',
  keepPrimary: 'The primary user stays primary until another user is made primary.',
  emailTaken: 'The email has already been taken.',
  confirmTitle: 'Are you sure?',
  confirmText: "You won't be able to revert this!",
  confirmButton: 'Yes, delete it!',
  failureTitle: 'Oops...',
  failureText: 'Something went wrong!',
  // Roles (docs/roles.md): what a user who is not the account's primary user is told when refused.
  refusedCreate: "Only the account's primary user can add users.",
  refusedDelete: "Only the account's primary user can remove users.",
  refusedOther: "Only the account's primary user can manage other users.",
  refusedPrimary: "Only the account's primary user can make another user primary.",
  currentPasswordRequired: 'Enter your current password to confirm this change.',
  currentPasswordWrong: 'The current password is incorrect.',
  // Invitations (docs/roles.md): nobody types another person's password.
  ownPasswordOnly:
    'Only the user can choose their own password. They can use "Forgot your password?" on the sign-in page.',
} as const;

/** docs/requirements/entities.md "User": new users default to bulk and event e-mails on and SMS off. */
export const NEW_USER_FLAGS = {
  is_primary: false,
  is_subscribed_bulk_emails: true,
  is_subscribed_event_emails: true,
  is_subscribed_sms: false,
} as const;

const isChecked = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on';

/** A checkbox (1/0, true/false, 'on'); absent means `fallback`. */
const flag = (fallback: boolean) =>
  z.preprocess((v) => (v === undefined || v === null ? fallback : isChecked(v)), z.boolean());

/** A checkbox on update; absent means "unchanged" (undefined). */
const optionalFlag = () =>
  z.preprocess((v) => (v === undefined || v === null ? undefined : isChecked(v)), z.boolean().optional());

/** A password on update: empty or absent keeps the current one; otherwise the rules of newPassword (public-forms.ts). */
const changedPassword = (label = 'password') =>
  optionalText({ label, max: 1000, secret: true })
    .refine((s) => s === '' || s.length >= PASSWORD_MIN_LENGTH, msg.min(label, PASSWORD_MIN_LENGTH))
    .refine(
      (s) => s === '' || (/[a-zA-Z]/.test(s) && /\d/.test(s)),
      `The ${label} field must contain at least one letter and one number.`,
    );

const profile = {
  email: requiredEmail(),
  first_name: requiredText({ label: 'first name' }),
  last_name: requiredText({ label: 'last name' }),
  phone: phone('phone', false),
  sms_phone: phone('sms phone', false),
  password_confirmation: optionalText({ label: 'password confirmation', max: 1000, secret: true }),
  /**
   * The acting user's own password (docs/roles.md): required by the service for an e-mail or
   * password change and a primary transfer made by an account user; staff acting on behalf of
   * the account need none. Never stored, logged or echoed.
   */
  current_password: optionalText({ label: 'current password', max: 1000, secret: true }),
};

/** The confirmation must match whenever a password is given (as on the reset form, docs/requirements/entities.md). */
const confirmed = (v: { password: string; password_confirmation: string }, ctx: z.RefinementCtx) => {
  if (v.password !== '' && v.password !== v.password_confirmation) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: msg.confirmed('password') });
  }
};

/**
 * POST /app/account/users/store: a new user. It takes no password (docs/roles.md "Invitations"):
 * nobody types another person's password; the new user is mailed a link to choose their own. A
 * `password` sent anyway is dropped, like every unknown field.
 */
export const accountUserStoreSchema = z.object({
  email: profile.email,
  first_name: profile.first_name,
  last_name: profile.last_name,
  phone: profile.phone,
  sms_phone: profile.sms_phone,
  current_password: profile.current_password,
  is_primary: flag(NEW_USER_FLAGS.is_primary),
  is_subscribed_bulk_emails: flag(NEW_USER_FLAGS.is_subscribed_bulk_emails),
  is_subscribed_event_emails: flag(NEW_USER_FLAGS.is_subscribed_event_emails),
  is_subscribed_sms: flag(NEW_USER_FLAGS.is_subscribed_sms),
});
export type AccountUserStoreInput = z.infer<typeof accountUserStoreSchema>;

/** How long an invitation's set-password link works (docs/roles.md "Invitations"). */
export const INVITATION_DAYS = 7;

/** What the page and the server say about invitations. */
export const INVITATION_TEXT = {
  created: 'The user was added. We e-mailed them a link to choose their password.',
  newUserNote: `We will e-mail the new user a link to choose their own password. The link works once, for ${INVITATION_DAYS} days; until they use it, they cannot sign in.`,
  pending: 'Invited',
  resend: 'Resend invitation',
  resent: 'We e-mailed a new invitation link. Earlier links no longer work.',
  alreadyAccepted:
    'This user has already chosen a password. They can use "Forgot your password?" on the sign-in page if they need a new one.',
} as const;

/**
 * POST /invitation/not-me: "This was not me" (docs/roles.md "Invitations"), the token of the
 * invitation's links, from the page's address.
 */
export const invitationNotMeSchema = z.object({ token: requiredText({ label: 'token', max: 200 }) });

/**
 * PUT /app/account/users/update/{id}: the password changes only when given (with its
 * confirmation); an absent checkbox leaves its flag unchanged.
 */
export const accountUserUpdateSchema = z
  .object({
    ...profile,
    password: changedPassword(),
    is_primary: optionalFlag(),
    is_subscribed_bulk_emails: optionalFlag(),
    is_subscribed_event_emails: optionalFlag(),
    is_subscribed_sms: optionalFlag(),
  })
  .superRefine(confirmed);
export type AccountUserUpdateInput = z.infer<typeof accountUserUpdateSchema>;

/** A change that needs the acting user's current password (docs/roles.md). */
export type ConfirmedChange = 'email' | 'password' | 'is_primary';

/**
 * Which parts of a store (`before` null) or update payload need the acting user's
 * `current_password` when an account user (not staff acting on behalf) sends it (docs/roles.md):
 * a new e-mail address, a new password, making a user primary who is not. A new user's own
 * e-mail and password do not count. Used by the service and by the page to show the field.
 * @param before the user as stored (e-mail lower case), or null for a new user
 * @param input the e-mail (compared trimmed, lower case), password ('' = unchanged), is_primary
 */
export function changesNeedingCurrentPassword(
  before: { email: string; is_primary: boolean } | null,
  input: { email: string; password?: string; is_primary?: boolean },
): ConfirmedChange[] {
  const changes: ConfirmedChange[] = [];
  if (before && input.email.trim().toLowerCase() !== before.email) changes.push('email');
  if (before && input.password) changes.push('password');
  if (input.is_primary === true && !before?.is_primary) changes.push('is_primary');
  return changes;
}

/**
 * The page's check before sending (docs/roles.md): `schema` plus "current password required"
 * when the viewer must confirm (`viewerConfirms`) and the payload makes a change that needs it.
 * The service applies the same rule with the stored row, and also checks the password itself.
 */
export function withCurrentPasswordRule(
  schema: z.ZodType<{ email: string; password?: string; is_primary?: boolean; current_password: string }>,
  before: { email: string; is_primary: boolean } | null,
  viewerConfirms: boolean,
): z.ZodType {
  return schema.superRefine((v, ctx) => {
    if (viewerConfirms && v.current_password === '' && changesNeedingCurrentPassword(before, v).length) {
      ctx.addIssue({ code: 'custom', path: ['current_password'], message: ACCOUNT_USER_TEXT.currentPasswordRequired });
    }
  });
}

/**
 * One row of GET /app/account/users/json (never the password hash). `invited_at`: when the user
 * was last invited, ISO 8601, while they have not chosen a password yet (they cannot sign in until
 * they do); null once they have (docs/roles.md "Invitations").
 */
export const accountUserRowSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  sms_phone: z.string(),
  is_primary: z.boolean(),
  is_subscribed_bulk_emails: z.boolean(),
  is_subscribed_event_emails: z.boolean(),
  is_subscribed_sms: z.boolean(),
  invited_at: z.string().nullable(),
});
export type AccountUserRow = z.infer<typeof accountUserRowSchema>;

/**
 * What the signed-in viewer may do on the page (docs/roles.md): `can_manage` for the account's
 * primary user and staff (add, edit anyone, delete, make primary); otherwise only their own row.
 * `must_confirm`: e-mail and password changes and primary transfers take the viewer's
 * `current_password` (false for staff acting on behalf of the account).
 */
const accountUserViewerSchema = z.object({
  id: z.number().int(),
  can_manage: z.boolean(),
  must_confirm: z.boolean(),
});
export type AccountUserViewer = z.infer<typeof accountUserViewerSchema>;

/** GET /app/account/users/json */
export const accountUserListSchema = z.object({
  account: z.object({ id: z.number().int(), name: z.string() }),
  users: z.array(accountUserRowSchema),
  viewer: accountUserViewerSchema,
});
export type AccountUserList = z.infer<typeof accountUserListSchema>;
