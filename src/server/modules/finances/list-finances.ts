import { and, count, desc, eq, gt, notInArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { accounts, invoices, payments } from '../../db/schema.ts';
import { notFound, ValidationError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import {
  FINANCES_PER_PAGE, UNLISTED_PAYMENT_STATUSES, type FinancesView, type OpenInvoice,
} from '../../../shared/schemas/finances.ts';
import { toFinancePayments } from './payment-view.ts';

/** The message when an admin without an account of their own names no account. */
export const ACCOUNT_ID_REQUIRED = 'The account id field is required.';

/**
 * The account whose finances `user` may read (docs/requirements/platform.md §5.6): an account holder always reads their
 * own account, whatever `requestedAccountId` says (it is ignored, never an error); an admin reads
 * the account named by `requestedAccountId`, or their own when they name none. Reads accounts.
 * @throws ValidationError 422 `{ account_id: ['The account id field is required.'] }` for an admin
 *   who names no account and has none
 * @throws HttpError 404 'The account could not be found.' for a holder without an account and for
 *   an account id that does not exist
 */
export async function resolveFinancesAccount(db: DbOrTx, user: SessionUser, requestedAccountId?: number): Promise<{ id: number; name: string }> {
  const accountId = user.isAdmin ? requestedAccountId ?? user.accountId : user.accountId;
  if (accountId === null || accountId === undefined) {
    if (user.isAdmin) throw ValidationError.field('account_id', ACCOUNT_ID_REQUIRED);
    throw notFound('The account');
  }
  const [row] = await db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!row) throw notFound('The account');
  return row;
}

/**
 * GET /api/finances (docs/requirements/product.md tool 14; docs/requirements/screens.md /app/finances and /admin/payments/latest/{accountId}; docs/requirements/entities.md
 * "Search results page"; docs/requirements/permissions.md): one page of an account's payments, newest first, 20 a page, and the
 * account's unpaid invoices (balance above 0, newest first) for the "Pay now" notice.
 *
 * Lists every payment status but 'awaiting_consent' and 'cancelled' (PayPal sessions that were
 * never completed), so people also see declined and failed attempts. Payments are shaped by
 * `toFinancePayments` (integer cents, ISO 8601 dates). A page past the last one is empty;
 * `next_page_url`/`prev_page_url` are /api/finances addresses carrying the account id.
 *
 * Who may read which account: see `resolveFinancesAccount`. Reading writes nothing (no audit row:
 * only acting on behalf of an account is logged, as for invoices).
 * @param page 1-based
 * @throws ValidationError 422 and HttpError 404 as `resolveFinancesAccount`
 */
export async function listFinances(db: Db, user: SessionUser, query: { account_id?: number; page: number }): Promise<FinancesView> {
  const account = await resolveFinancesAccount(db, user, query.account_id);
  const listed = and(eq(payments.accountId, account.id), notInArray(payments.status, [...UNLISTED_PAYMENT_STATUSES]));
  const [{ total }] = await db.select({ total: count() }).from(payments).where(listed);
  const rows = total === 0 ? [] : await db
    .select()
    .from(payments)
    .where(listed)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(FINANCES_PER_PAGE)
    .offset((query.page - 1) * FINANCES_PER_PAGE);
  const data = await toFinancePayments(db, account.id, rows);

  const open = await db
    .select({ id: invoices.id, number: invoices.number, documentAt: invoices.documentAt, balance_cents: invoices.balanceCents })
    .from(invoices)
    .where(and(eq(invoices.accountId, account.id), gt(invoices.balanceCents, 0)))
    .orderBy(desc(invoices.documentAt), desc(invoices.id));

  return {
    account,
    payments: buildPage(data, query.page, FINANCES_PER_PAGE, total, (p) => `/api/finances?account_id=${account.id}&page=${p}`),
    invoices: {
      open: open.map((r): OpenInvoice => ({ id: r.id, number: r.number, document_at: r.documentAt.toISOString(), balance_cents: r.balance_cents })),
    },
  };
}
