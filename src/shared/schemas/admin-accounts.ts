import { z } from 'zod';
import { parseIsoDate } from '../rules/compliance-calendar.ts';
import { listSearch, listSort } from './list-params.ts';
import type { PageObject } from '../rules/pagination.ts';
import type { StandingView } from './search.ts';

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

/** One row of the accounts list. */
export interface AdminAccountRow {
  id: number;
  name: string;
  ein: string | null;
  city: string;
  state: string;
  level: { id: number; name: string } | null;
  renewal_due_at: string | null;
  status: AccountStatus;
  primary_email: string | null;
  users_count: number;
}

/** GET /api/admin/accounts: the docs/requirements/entities.md page object plus the levels to filter by. */
export type AdminAccountsPage = PageObject<AdminAccountRow> & { levels: { id: number; name: string }[] };

/** GET /api/admin/accounts/:id: the account's summary and its bounded lists, newest first. */
export interface AdminAccountDetail {
  account: {
    id: number;
    name: string;
    ein: string | null;
    email: string | null;
    city: string;
    state: string;
    source: string;
    level: { id: number; name: string } | null;
    renewal_due_at: string | null;
    status: AccountStatus;
    is_suspended_from_basic_renewal: boolean;
    bonus_balance_cents: number;
    group: { id: number; label: string; is_billed_as_group: boolean } | null;
    primary_user_id: number | null;
    created_at: string;
  };
  /** The account's standing with the IRS (docs/irs-standing.md). */
  standing: StandingView;
  users: {
    id: number;
    email: string;
    first_name: string;
    last_name: string;
    is_primary: boolean;
    created_at: string;
  }[];
  applications: { id: number; email: string; level: string; type: string; status: string; updated_at: string }[];
  bylaws: { id: number; hash: string; variant: string; email: string; updated_at: string }[];
  files: {
    id: number;
    file_name: string;
    mime_type: string;
    size_bytes: number;
    purpose: string;
    created_at: string;
  }[];
  invoices: {
    id: number;
    number: string;
    document_at: string;
    value_cents: number;
    balance_cents: number;
    public_notes: string;
  }[];
  payments: {
    id: number;
    method: string;
    status: string;
    amount_cents: number;
    discount_cents: number;
    account_last4: string | null;
    created_at: string;
  }[];
  /** How many of each there are in all (the lists above hold the newest 20). */
  counts: { users: number; applications: number; bylaws: number; files: number; invoices: number; payments: number };
  /** Sum of the balances of the account's invoices, in cents. */
  open_balance_cents: number;
  /** Every group, by label, for the account settings form's select. */
  groups: AdminGroupOption[];
}

/** A group an account may belong to (GET /api/admin/accounts/:id `groups`, for the settings form). */
export interface AdminGroupOption {
  id: number;
  label: string;
  is_billed_as_group: boolean;
}

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
    .refine((v) => isCalendarDate(v), 'The renewal due date must be a date.')
    .optional(),
});
export type AccountSettingsInput = z.infer<typeof accountSettingsSchema>;
