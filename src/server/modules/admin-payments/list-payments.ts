import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, payments } from '../../db/schema.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import {
  ADMIN_PAYMENT_STATUSES, ADMIN_PAYMENTS_PER_PAGE, type AdminPaymentRow, type AdminPaymentsPage, type AdminPaymentsQuery,
} from '../../../shared/schemas/admin-payments.ts';
import { toAdminPaymentRows } from './list-attention.ts';
import { getMoneyTotals } from './money-totals.ts';

/** The query string of another page of the same filters (for the page object's links). */
function pageUrl(q: AdminPaymentsQuery, page: number): string {
  const params = new URLSearchParams();
  if (q.status) params.set('status', q.status);
  if (q.method) params.set('method', q.method);
  params.set('page', String(page));
  return `/api/admin/payments?${params}`;
}

/**
 * GET /api/admin/payments (issue 7; SPEC §3 "Search results page"): one page of every account's
 * payments, newest first (then by id), 25 a page, each shaped as the finances page shows it
 * (`toAdminPaymentRows`: integer cents, ISO dates, the invoices of its own account) with its
 * account's id and name and the actions staff may take, plus the whole-site totals (`getMoneyTotals`).
 *
 * Lists the statuses of ADMIN_PAYMENT_STATUSES only, named by value (`status IN (…)` or `= …`), so
 * PayPal sessions never completed ('awaiting_consent', 'cancelled') are left out and the
 * `payments_status_created` index serves the filter and order; `method` narrows the rows read.
 * Reads payments, accounts, payment_invoices, invoices; writes nothing (reading is not audited).
 */
export async function listAdminPayments(db: Db, q: AdminPaymentsQuery): Promise<AdminPaymentsPage> {
  const conds: SQL[] = [q.status ? eq(payments.status, q.status) : inArray(payments.status, [...ADMIN_PAYMENT_STATUSES])];
  if (q.method) conds.push(eq(payments.method, q.method));
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(payments).where(where);
  const rows = total === 0 ? [] : await db
    .select({ payment: payments, account: { id: accounts.id, name: accounts.name } })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.accountId))
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(ADMIN_PAYMENTS_PER_PAGE)
    .offset((q.page - 1) * ADMIN_PAYMENTS_PER_PAGE);
  const data: AdminPaymentRow[] = await toAdminPaymentRows(db, rows);
  return { ...buildPage(data, q.page, ADMIN_PAYMENTS_PER_PAGE, total, (p) => pageUrl(q, p)), totals: await getMoneyTotals(db) };
}
