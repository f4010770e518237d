import { z } from 'zod';
import { stripControl } from '../validation.ts';
import { listSearch, listSort } from './list-params.ts';

/**
 * Columns the audit log sorts by (`sort`, "-" for descending); newest first by default. `actor` is
 * the actor's e-mail and `account` the account's name (rows with neither come last either way),
 * `action` the action's code (docs/audit.md "Reading it"); ties by time.
 */
export const AUDIT_SORTS = ['created_at', 'actor', 'account', 'action'] as const;

/** Audit log rows per page (docs/requirements/product.md "Staff console"). */
export const AUDIT_PER_PAGE = 50;
/**
 * The most rows a filter counts: the page object's total stops here (last_page 200 at 50 a page),
 * so a count never walks an unbounded part of the table. Narrow by account or action beyond it.
 */
export const AUDIT_COUNT_CAP = 10_000;

export const AUDIT_MESSAGES = {
  accountId: 'The account id must be a whole number.',
  action: 'The action may contain only letters, digits, ".", "_" and "-" (up to 100).',
} as const;

/**
 * GET /api/admin/audit?account_id=&action=&search=&sort=&page=: optional account id, optional
 * action prefix ('discount.' or 'discount.created'), `search` (part of the actor's e-mail, or every
 * word of the account's name or city), `sort` (AUDIT_SORTS), 1-based page (bounded by the count cap).
 */
export const auditQuery = z.object({
  account_id: z.preprocess(
    (v) => {
      const s = typeof v === 'string' ? stripControl(v).trim() : v;
      if (s === '' || s === null || s === undefined) return undefined;
      return typeof s === 'string' ? (/^[1-9]\d{0,9}$/.test(s) ? Number(s) : NaN) : s;
    },
    z
      .number({ error: AUDIT_MESSAGES.accountId })
      .int(AUDIT_MESSAGES.accountId)
      .min(1, AUDIT_MESSAGES.accountId)
      .max(2_147_483_647, AUDIT_MESSAGES.accountId)
      .optional(),
  ),
  action: z.preprocess(
    (v) => (typeof v === 'string' ? stripControl(v).trim() || undefined : v),
    z
      .string({ error: AUDIT_MESSAGES.action })
      .regex(/^[A-Za-z0-9._-]{1,100}$/, AUDIT_MESSAGES.action)
      .optional(),
  ),
  search: listSearch,
  sort: listSort(AUDIT_SORTS, '-created_at'),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .catch(1)
    .transform((p) => Math.min(p, AUDIT_COUNT_CAP / AUDIT_PER_PAGE)),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/** One audit row as the admin sees it; `created_at` ISO 8601. */
export const auditRowSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  action: z.string(),
  actor_user_id: z.number().int().nullable(),
  /** The actor's e-mail, or null for the system or a removed user. */
  actor_email: z.string().nullable(),
  account_id: z.number().int().nullable(),
  account_name: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string(),
});
export type AuditRow = z.output<typeof auditRowSchema>;
