import { z } from 'zod';
import { pageObjectSchema } from '../contracts/page-object.ts';
import { parseIsoDate } from '../rules/compliance-calendar.ts';
import { hasRefusedControl, msg } from '../validation.ts';
import { listSearch, listSort } from './list-params.ts';
import { standingViewSchema } from './search.ts';

/** A real calendar date written 'YYYY-MM-DD', between the years 2000 and 2999. */
function isCalendarDate(value: string): boolean {
  try {
    const { year } = parseIsoDate(value);
    return year >= 2000 && year <= 2999;
  } catch {
    return false;
  }
}

/**
 * The admin's accounts (docs/requirements/screens.md /admin/accounts/show/{id}, docs/requirements/entities.md "Account", docs/requirements/permissions.md): a list of
 * customer accounts with search and filters, and one account with what belongs to it. Money is in
 * integer cents under `*_cents` names, dates are ISO 8601, like the other read-only views.
 */

/** Rows per page of GET /api/admin/accounts. */
export const ADMIN_ACCOUNTS_PER_PAGE = 20;
/** Rows per list of GET /api/admin/accounts/:id (newest first; `counts` gives the totals). */
export const ADMIN_ACCOUNT_LIST_LIMIT = 20;

/**
 * What an account's status means: 'suspended' when it is suspended from the basic renewal (it can
 * only renew with the upgrade); otherwise 'past_due' when its renewal date has passed; 'active'
 * otherwise (also when it has no renewal date yet).
 */
export const ACCOUNT_STATUSES = ['active', 'past_due', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const ACCOUNT_STATUS_LABELS: Record<AccountStatus, string> = {
  active: 'Active',
  past_due: 'Past due',
  suspended: 'Suspended',
};

/** Renewal-due filter: due within 30 or 90 days from now (not yet passed), or already passed. */
export const RENEWAL_DUE_FILTERS = ['30', '90', 'overdue'] as const;
export type RenewalDueFilter = (typeof RENEWAL_DUE_FILTERS)[number];

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * Columns the accounts list sorts by (`sort`, "-" for descending); by name by default. `level` is
 * the level's id (the levels in the order they were made); each has an accounts_customer_* index.
 */
export const ADMIN_ACCOUNT_SORTS = ['name', 'ein', 'level', 'created_at', 'renewal_due_at'] as const;
/** The most rows GET /api/admin/accounts/export.csv writes (narrow the filters beyond that). */
export const ADMIN_ACCOUNTS_EXPORT_CAP = 10_000;

/** Query of GET /api/admin/accounts; empty values mean "any"; `sort` is ADMIN_ACCOUNT_SORTS. */
export const adminAccountsQuery = z.object({
  // Control characters (NUL above all) never match and PostgreSQL refuses them in a pattern.
  search: listSearch,
  level: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'The selected level is invalid.' })
      .int('The selected level is invalid.')
      .positive('The selected level is invalid.')
      .max(2_147_483_647, 'The selected level is invalid.')
      .optional(),
  ),
  status: z.preprocess(
    emptyToUndefined,
    z.enum(ACCOUNT_STATUSES, { error: 'The selected status is invalid.' }).optional(),
  ),
  renewal_due: z.preprocess(
    emptyToUndefined,
    z.enum(RENEWAL_DUE_FILTERS, { error: 'The selected renewal due is invalid.' }).optional(),
  ),
  sort: listSort(ADMIN_ACCOUNT_SORTS, 'name'),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type AdminAccountsQuery = z.infer<typeof adminAccountsQuery>;

const levelRefSchema = z.object({ id: z.number().int(), name: z.string() });
const groupSchema = z.object({ id: z.number().int(), label: z.string(), is_billed_as_group: z.boolean() });

/** One row of the accounts list; `renewal_due_at` ISO 8601. */
const adminAccountRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ein: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  level: levelRefSchema.nullable(),
  renewal_due_at: z.string().nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  primary_email: z.string().nullable(),
  users_count: z.number().int(),
});
export type AdminAccountRow = z.output<typeof adminAccountRowSchema>;

/** GET /api/admin/accounts: the docs/requirements/entities.md page object plus the levels to filter by. */
export const adminAccountsPageSchema = pageObjectSchema(adminAccountRowSchema).extend({
  levels: z.array(levelRefSchema),
});
export type AdminAccountsPage = z.output<typeof adminAccountsPageSchema>;

/** GET /api/admin/accounts/:id: the account's summary and its bounded lists, newest first; times ISO 8601. */
export const adminAccountDetailSchema = z.object({
  account: z.object({
    id: z.number().int(),
    name: z.string(),
    ein: z.string().nullable(),
    email: z.string().nullable(),
    city: z.string(),
    state: z.string(),
    source: z.string(),
    level: levelRefSchema.nullable(),
    renewal_due_at: z.string().nullable(),
    status: z.enum(ACCOUNT_STATUSES),
    is_suspended_from_basic_renewal: z.boolean(),
    bonus_balance_cents: z.number().int(),
    group: groupSchema.nullable(),
    primary_user_id: z.number().int().nullable(),
    created_at: z.string(),
  }),
  /** The account's standing with the IRS (docs/irs-standing.md). */
  standing: standingViewSchema,
  users: z.array(
    z.object({
      id: z.number().int(),
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      is_primary: z.boolean(),
      created_at: z.string(),
    }),
  ),
  applications: z.array(
    z.object({
      id: z.number().int(),
      email: z.string(),
      level: z.string(),
      type: z.string(),
      status: z.string(),
      updated_at: z.string(),
    }),
  ),
  bylaws: z.array(
    z.object({
      id: z.number().int(),
      hash: z.string(),
      variant: z.string(),
      email: z.string(),
      updated_at: z.string(),
    }),
  ),
  files: z.array(
    z.object({
      id: z.number().int(),
      file_name: z.string(),
      mime_type: z.string(),
      size_bytes: z.number().int(),
      purpose: z.string(),
      created_at: z.string(),
    }),
  ),
  invoices: z.array(
    z.object({
      id: z.number().int(),
      number: z.string(),
      document_at: z.string(),
      value_cents: z.number().int(),
      balance_cents: z.number().int(),
      public_notes: z.string(),
    }),
  ),
  payments: z.array(
    z.object({
      id: z.number().int(),
      method: z.string(),
      status: z.string(),
      amount_cents: z.number().int(),
      discount_cents: z.number().int(),
      account_last4: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  /** How many of each there are in all (the lists above hold the newest 20). */
  counts: z.object({
    users: z.number().int(),
    applications: z.number().int(),
    bylaws: z.number().int(),
    files: z.number().int(),
    invoices: z.number().int(),
    payments: z.number().int(),
  }),
  /** Sum of the balances of the account's invoices, in cents. */
  open_balance_cents: z.number().int(),
  /** Every group, by label, for the account settings form's select. */
  groups: z.array(groupSchema),
});
export type AdminAccountDetail = z.output<typeof adminAccountDetailSchema>;

/** A group an account may belong to (GET /api/admin/accounts/:id `groups`, for the settings form). */
export type AdminGroupOption = z.output<typeof groupSchema>;

/** What PUT /api/admin/accounts/:id/settings answers: the saved flags. */
export const accountSettingsAnswerSchema = z.object({
  is_suspended_from_basic_renewal: z.boolean(),
  group: groupSchema.nullable(),
});
export type AccountSettings = z.output<typeof accountSettingsAnswerSchema>;

/**
 * PUT /api/admin/accounts/:id/settings: the account's renewal flags (docs/requirements/behaviour.md "Renewal", docs/requirements/errors.md):
 * whether it is suspended from the basic renewal (it renews with the upgrade only), its group
 * (null: none) and whether that group is billed as a group — a flag of the group, so it applies
 * to every account of the group; ignored when group_id is null; and the renewal due date.
 */
export const accountSettingsSchema = z.object({
  is_suspended_from_basic_renewal: z.boolean({ error: 'The suspended field must be true or false.' }),
  group_id: z
    .number({ error: 'The selected group is invalid.' })
    .int('The selected group is invalid.')
    .positive('The selected group is invalid.')
    .max(2_147_483_647, 'The selected group is invalid.')
    .nullable(),
  is_billed_as_group: z.boolean({ error: 'The billed as a group field must be true or false.' }),
  /**
   * The renewal due date, 'YYYY-MM-DD' (kept as that day at 00:00 UTC), for staff correcting it;
   * absent: unchanged. Renewal opens 60 days before it (docs/renewals.md).
   */
  renewal_due_on: z
    .string({ error: 'The renewal due date must be a date.' })
    .refine((v) => !hasRefusedControl(v), { message: msg.singleLine('renewal due date'), abort: true })
    .refine((v) => isCalendarDate(v), 'The renewal due date must be a date.')
    .optional(),
});
export type AccountSettingsInput = z.infer<typeof accountSettingsSchema>;
