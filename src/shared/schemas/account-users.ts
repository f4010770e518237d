import { z } from 'zod';
import { msg, optionalText, requiredEmail, requiredText } from '../validation.ts';
import { newPassword, PASSWORD_MIN_LENGTH, phone } from './public-forms.ts';

/**
 * Account users (SPEC §2 "Admin account users", §3 "User", §4 "Account users", §7
 * /app/account/users/*, §8 "Account users"). Privilege fields (is_admin, account_id, ...) are not
 * part of these schemas: unknown fields are dropped, never read. Admins name the account with a
 * separate `account_id` the route reads on its own.
 */

/** SPEC §8 texts, shared by the server's answers and the page. */
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
} as const;

/** SPEC §3 "User": new users default to bulk and event e-mails on and SMS off. */
export const NEW_USER_FLAGS = {
  is_primary: false,
  is_subscribed_bulk_emails: true,
  is_subscribed_event_emails: true,
  is_subscribed_sms: false,
} as const;

const isChecked = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on';

/** A checkbox (1/0, true/false, 'on'); absent means `fallback`. */
const flag = (fallback: boolean) => z.preprocess((v) => (v === undefined || v === null ? fallback : isChecked(v)), z.boolean());

/** A checkbox on update; absent means "unchanged" (undefined). */
const optionalFlag = () => z.preprocess((v) => (v === undefined || v === null ? undefined : isChecked(v)), z.boolean().optional());

/** A password on update: empty or absent keeps the current one; otherwise the rules of {@link newPassword}. */
const changedPassword = (label = 'password') =>
  optionalText({ label, max: 1000 })
    .refine((s) => s === '' || s.length >= PASSWORD_MIN_LENGTH, msg.min(label, PASSWORD_MIN_LENGTH))
    .refine((s) => s === '' || (/[a-zA-Z]/.test(s) && /\d/.test(s)), `The ${label} field must contain at least one letter and one number.`);

const profile = {
  email: requiredEmail(),
  first_name: requiredText({ label: 'first name' }),
  last_name: requiredText({ label: 'last name' }),
  phone: phone('phone', false),
  sms_phone: phone('sms phone', false),
  password_confirmation: optionalText({ label: 'password confirmation', max: 1000 }),
};

/** The confirmation must match whenever a password is given (as on the reset form, SPEC §3). */
const confirmed = (v: { password: string; password_confirmation: string }, ctx: z.RefinementCtx) => {
  if (v.password !== '' && v.password !== v.password_confirmation) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: msg.confirmed('password') });
  }
};

/** POST /app/account/users/store: a new user; the password is required. */
export const accountUserStoreSchema = z
  .object({
    ...profile,
    password: newPassword(),
    is_primary: flag(NEW_USER_FLAGS.is_primary),
    is_subscribed_bulk_emails: flag(NEW_USER_FLAGS.is_subscribed_bulk_emails),
    is_subscribed_event_emails: flag(NEW_USER_FLAGS.is_subscribed_event_emails),
    is_subscribed_sms: flag(NEW_USER_FLAGS.is_subscribed_sms),
  })
  .superRefine(confirmed);
export type AccountUserStoreInput = z.infer<typeof accountUserStoreSchema>;

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


/** One row of GET /app/account/users/json (never the password hash). */
export interface AccountUserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  sms_phone: string;
  is_primary: boolean;
  is_subscribed_bulk_emails: boolean;
  is_subscribed_event_emails: boolean;
  is_subscribed_sms: boolean;
}

/** GET /app/account/users/json */
export interface AccountUserList {
  account: { id: number; name: string };
  users: AccountUserRow[];
}
