import { and, count, desc, eq, gt, notInArray } from 'drizzle-orm';
import { buildPage } from '../../../shared/rules/pagination.ts';
import {
  FINANCES_PER_PAGE,
  UNLISTED_PAYMENT_STATUSES,
  type FinancesView,
  type OpenInvoice,
} from '../../../shared/schemas/finances.ts';
import { accounts, invoices, payments } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { toFinancePayments } from './payment-view.ts';
import type { Db } from '../../db/client.ts';

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
 * Who may read which account is the route's (config.access 'account-user', plugins/access.ts): an
 * account holder always reads their own account, staff the one they name. Reading writes nothing
 * (no audit row: only acting on behalf of an account is logged, as for invoices).
 * @param accountId the acting account (it exists)
 * @param page 1-based
 * @throws HttpError 404 'The account could not be found.' when the account was deleted meanwhile
 */
export async function listFinances(db: Db, accountId: number, page: number): Promise<FinancesView> {
  const [account] = await db
    .select({ id: accounts.id, name: accounts.name })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!account) throw notFound('The account');
  const listed = and(eq(payments.accountId, account.id), notInArray(payments.status, [...UNLISTED_PAYMENT_STATUSES]));
  const [{ total }] = await db.select({ total: count() }).from(payments).where(listed);
  const rows =
    total === 0
      ? []
      : await db
          .select()
          .from(payments)
          .where(listed)
          .orderBy(desc(payments.createdAt), desc(payments.id))
          .limit(FINANCES_PER_PAGE)
          .offset((page - 1) * FINANCES_PER_PAGE);
  const data = await toFinancePayments(db, account.id, rows);

  const open = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      documentAt: invoices.documentAt,
      balance_cents: invoices.balanceCents,
    })
    .from(invoices)
    .where(and(eq(invoices.accountId, account.id), gt(invoices.balanceCents, 0)))
    .orderBy(desc(invoices.documentAt), desc(invoices.id));

  return {
    account,
    payments: buildPage(
      data,
      page,
      FINANCES_PER_PAGE,
      total,
      (p) => `/api/finances?account_id=${account.id}&page=${p}`,
    ),
    invoices: {
      open: open.map((r): OpenInvoice => ({
        id: r.id,
        number: r.number,
        document_at: r.documentAt.toISOString(),
        balance_cents: r.balance_cents,
      })),
    },
  };
}
