/*
 * The product's abuse limits (docs/security.md "Limits on mail and payments"): what each counts,
 * per what, over which window, its setting, default and description, and what the refused person
 * reads. The settings are declared from this one list in settings.ts (and so read by config.ts and
 * written into docs/configuration.md by npm run docs:settings), and docs/security.md's table is
 * checked against it by tests/integration/abuse-limits.test.ts.
 */

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Who a limit counts for: an account, a central organization's group, a client IP address, or an e-mail address. */
type LimitSubjectKind = 'account' | 'group' | 'ip' | 'email';

/** One limit. */
export interface LimitRule {
  /** The environment variable that sets `max` (docs/configuration.md). */
  readonly setting: string;
  /** What the setting does: its row in docs/configuration.md's settings table (markdown, written from here). */
  readonly about: string;
  /** How many hits the window allows when the setting is not given. */
  readonly defaultMax: number;
  /** The window in seconds; it starts with the first hit of a subject. */
  readonly windowSeconds: number;
  readonly per: LimitSubjectKind;
  /** What is counted, in the words of docs/security.md's table. */
  readonly counts: string;
  /** The first sentence of the 429 answer; the time to try again follows it. */
  readonly refusal: string;
  /** Set for the payment limits: passing one raises a staff alert (docs/payments.md "Card testing"). */
  readonly paymentAlert?: true;
}

const PAYMENTS_PAUSED = 'For your security, payments are paused after too many attempts.';
const DECLINES_PAUSED = 'For your security, payments are paused after too many declined attempts.';

/**
 * Every limit by name (the name is the counter's key prefix and the audit row's `rule`). Defaults
 * are generous for a real group's use (a treasurer retrying a card, a primary user adding the
 * year's officers) and far below what a relay or a card-testing script needs.
 */
export const LIMIT_RULES = {
  users_added_per_account: {
    setting: 'LIMIT_USERS_ADDED_PER_ACCOUNT_PER_DAY',
    about:
      'Users one account may add a day (each is mailed an invitation); 429 past it. This and every `LIMIT_*` below are counted in the database by every server together, whatever `RATE_LIMIT_STORE` says (docs/security.md "Limits on mail and payments")',
    defaultMax: 20,
    windowSeconds: DAY,
    per: 'account',
    counts: 'users added to one account (each mails an invitation)',
    refusal: 'This account has added as many users as it may in one day.',
  },
  users_added_per_group: {
    setting: 'LIMIT_USERS_ADDED_PER_GROUP_PER_DAY',
    about:
      "Users one central organization's managers (and staff for it) may add to its group a day (each is mailed); 429 past it",
    defaultMax: 50,
    windowSeconds: DAY,
    per: 'group',
    counts: "users added to one central organization's group (each is mailed)",
    refusal: 'This group has added as many users as it may in one day.',
  },
  bulk_checks_per_group: {
    setting: 'LIMIT_BULK_CHECKS_PER_GROUP_PER_DAY',
    about:
      "Lists of EINs one central organization's users may check a day (staff's own checks are not counted); 429 past it",
    defaultMax: 20,
    windowSeconds: DAY,
    per: 'group',
    counts: "lists of EINs checked for one central organization's group",
    refusal: 'This group has checked as many lists of EINs as it may in one day.',
  },
  invitations_resent_per_account: {
    setting: 'LIMIT_INVITATIONS_RESENT_PER_ACCOUNT_PER_DAY',
    about: 'Invitations one account may send again a day',
    defaultMax: 20,
    windowSeconds: DAY,
    per: 'account',
    counts: 'invitations resent by one account',
    refusal: 'This account has resent as many invitations as it may in one day.',
  },
  invitations_per_address: {
    setting: 'LIMIT_INVITATIONS_PER_ADDRESS_PER_DAY',
    about: 'Invitations one e-mail address may receive a day, added or resent, from any account',
    defaultMax: 3,
    windowSeconds: DAY,
    per: 'email',
    counts: 'invitations mailed to one e-mail address (added or resent, by any account)',
    refusal: 'This e-mail address has been sent as many invitations as it may receive in one day.',
  },
  email_changes_per_account: {
    setting: 'LIMIT_EMAIL_CHANGES_PER_ACCOUNT_PER_DAY',
    about: "Changes of a user's sign-in address one account may make a day (each mails both addresses)",
    defaultMax: 10,
    windowSeconds: DAY,
    per: 'account',
    counts: "changes of a user's sign-in e-mail address in one account (each mails both addresses)",
    refusal: 'This account has changed as many sign-in e-mail addresses as it may in one day.',
  },
  public_forms_per_ip: {
    setting: 'LIMIT_PUBLIC_FORMS_PER_IP_PER_HOUR',
    about:
      'Public forms that mail the address typed (contact, compliance check, multi-chapter, campus report, password reset) from one client address an hour',
    defaultMax: 20,
    windowSeconds: HOUR,
    per: 'ip',
    counts:
      'public forms that mail the address typed (contact, compliance check, multi-chapter, campus report, password reset) sent from one client address',
    refusal: 'Too many forms were sent from your network.',
  },
  password_resets_per_address: {
    setting: 'LIMIT_PASSWORD_RESETS_PER_ADDRESS_PER_HOUR',
    about: 'Reset links one e-mail address may be sent an hour (counted whether or not it has an account)',
    defaultMax: 5,
    windowSeconds: HOUR,
    per: 'email',
    counts: 'password reset links asked for one e-mail address (counted whether or not it has an account)',
    refusal: 'Too many reset links were sent to this address.',
  },
  address_checks_per_ip: {
    setting: 'LIMIT_ADDRESS_CHECKS_PER_IP_PER_HOUR',
    about:
      'Failed sign-ins, application starts, users added and sign-in addresses changed from one client address an hour: the answers that tell a known address from an unknown one (docs/security.md "Sign-in and address probing")',
    defaultMax: 30,
    windowSeconds: HOUR,
    per: 'ip',
    counts:
      'answers that tell a known e-mail address from an unknown one, from one client address: failed sign-ins, application starts, users added, sign-in addresses changed',
    refusal: 'Too many sign-in attempts or new accounts from your network.',
  },
  sign_in_failures_per_account: {
    setting: 'LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR',
    about:
      'Failed sign-ins to one address an hour from browsers that have not signed in with it before; a browser that has still signs in',
    defaultMax: 10,
    windowSeconds: HOUR,
    per: 'email',
    counts:
      'failed sign-ins to one e-mail address, from browsers that have not signed in to it before (a browser that has keeps signing in)',
    refusal: 'Too many failed sign-ins to this account from new devices.',
  },
  payment_attempts_per_account: {
    setting: 'LIMIT_PAYMENT_ATTEMPTS_PER_ACCOUNT_PER_HOUR',
    about: 'Card, bank and PayPal payment attempts of one account an hour (docs/payments.md "Card testing")',
    defaultMax: 10,
    windowSeconds: HOUR,
    per: 'account',
    counts: 'card, bank and PayPal payment attempts for one account',
    refusal: PAYMENTS_PAUSED,
    paymentAlert: true,
  },
  payment_attempts_per_ip: {
    setting: 'LIMIT_PAYMENT_ATTEMPTS_PER_IP_PER_HOUR',
    about: "Payment attempts from one client address an hour (staff paying on an account's behalf are not counted)",
    defaultMax: 20,
    windowSeconds: HOUR,
    per: 'ip',
    counts: 'card, bank and PayPal payment attempts from one client address (staff paying on behalf are not counted)',
    refusal: PAYMENTS_PAUSED,
    paymentAlert: true,
  },
  payment_declines_per_account: {
    setting: 'LIMIT_PAYMENT_DECLINES_PER_ACCOUNT_PER_DAY',
    about:
      'Declined or failed payments of one account a day; past it, attempts are refused for the rest of the day and staff are alerted',
    defaultMax: 5,
    windowSeconds: DAY,
    per: 'account',
    counts: 'declined or failed card, bank and PayPal payments of one account',
    refusal: DECLINES_PAUSED,
    paymentAlert: true,
  },
  payment_declines_per_ip: {
    setting: 'LIMIT_PAYMENT_DECLINES_PER_IP_PER_DAY',
    about: 'Declined or failed payments from one client address a day (staff not counted)',
    defaultMax: 5,
    windowSeconds: DAY,
    per: 'ip',
    counts:
      'declined or failed card, bank and PayPal payments from one client address (staff paying on behalf are not counted)',
    refusal: DECLINES_PAUSED,
    paymentAlert: true,
  },
} as const satisfies Record<string, LimitRule>;

/** A limit's name. */
export type LimitName = keyof typeof LIMIT_RULES;

/** Every limit's name, in the order of {@link LIMIT_RULES}. */
export const LIMIT_NAMES = Object.keys(LIMIT_RULES) as LimitName[];

/** The configured maximum of every limit (config.limits). */
export type LimitSettings = Record<LimitName, number>;

/**
 * Every LIMIT_* setting at `max`, as environment variables: for the servers that tests, scans and
 * benchmarks start, which must not meet a limit they are not about.
 */
export function limitSettingsAt(max: number): Record<string, string> {
  return Object.fromEntries(LIMIT_NAMES.map((name) => [LIMIT_RULES[name].setting, String(max)]));
}
