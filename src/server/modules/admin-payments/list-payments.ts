import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import {
  ADMIN_PAYMENT_STATUSES,
  ADMIN_PAYMENTS_EXPORT_CAP,
  ADMIN_PAYMENTS_PER_PAGE,
  type AdminPaymentRow,
  type AdminPaymentsPage,
  type AdminPaymentsQuery,
} from '../../../shared/schemas/admin-payments.ts';
import { paymentMethodLabel, paymentStatusLabel } from '../../../shared/schemas/finances.ts';
import { listCountCap, listPageQuery, sortParam } from '../../../shared/schemas/list-params.ts';
import { csvText, type CsvCell } from '../../csv.ts';
import { accounts, payments } from '../../db/schema.ts';
import { accountsNamed, cappedCount, inResolvedIds, markCapped } from '../admin/list-count.ts';
import { toAdminPaymentRows } from './list-attention.ts';
import type { Db } from '../../db/client.ts';

/** The query string of another page of the same filters (for the page object's links). */
function pageUrl(q: AdminPaymentsQuery, page: number): string {
  return `/api/admin/payments?${listPageQuery({ status: q.status, method: q.method, search: q.search }, sortParam(q.sort), '-created_at', page)}`;
}

/**
 * GET /api/admin/payments (docs/requirements/entities.md "Search results page"): one page of every account's
 * payments, newest first (then by id), 25 a page, each shaped as the finances page shows it
 * (`toAdminPaymentRows`: integer cents, ISO dates, the invoices of its own account) with its
 * account's id and name and the actions staff may take. The whole-site totals are their own route
 * (`GET /api/admin/money-totals`, `getMoneyTotals`), so paging or searching does not sum them again.
 *
 * Lists the statuses of ADMIN_PAYMENT_STATUSES only, named by value (`status IN (…)` or `= …`), so
 * PayPal sessions never completed ('awaiting_consent', 'cancelled') are left out; the
 * `payments_status_created` index serves one status, `payments_created`, `payments_amount`,
 * `payments_method_id` and `payments_status_id` the orders over all; `method` narrows the rows read. `search` matches every word of the account's
 * name or city (accounts_search_trgm, then payments_account_created), or 4 digits the last four of
 * the card or bank account, or a number the gateway's transaction id; `sort` is ADMIN_PAYMENT_SORTS
 * (ties by id). The total is counted a few pages ahead only (listCountCap, `total_is_capped`).
 * Reads payments, accounts, payment_invoices, invoices; writes nothing (reading is not audited).
 * Requirement: docs/benchmarks.md "Staff lists at scale".
 */
export async function listAdminPayments(db: Db, q: AdminPaymentsQuery): Promise<AdminPaymentsPage> {
  const where = await paymentsWhere(db, q);
  const { total, capped } = await cappedCount(
    db,
    sql`SELECT 1 FROM ${payments} WHERE ${where}`,
    listCountCap(q.page, ADMIN_PAYMENTS_PER_PAGE),
  );
  const rows =
    total === 0
      ? []
      : await orderedPayments(db, q, where, ADMIN_PAYMENTS_PER_PAGE, (q.page - 1) * ADMIN_PAYMENTS_PER_PAGE);
  const data: AdminPaymentRow[] = await toAdminPaymentRows(db, rows);
  return markCapped(
    buildPage(data, q.page, ADMIN_PAYMENTS_PER_PAGE, total, (p) => pageUrl(q, p)),
    capped,
  );
}

/** The WHERE of the query's status, method and search (see listAdminPayments). */
async function paymentsWhere(db: Db, q: AdminPaymentsQuery): Promise<SQL | undefined> {
  const conds: SQL[] = [
    q.status ? eq(payments.status, q.status) : inArray(payments.status, [...ADMIN_PAYMENT_STATUSES]),
  ];
  if (q.method) conds.push(eq(payments.method, q.method));
  if (q.search) {
    const either: SQL[] = [await inResolvedIds(db, payments.accountId, accountsNamed(q.search))];
    if (/^\d{4}$/.test(q.search)) either.push(sql`${payments.accountLast4} = ${`XXXX${q.search}`}`);
    if (/^\d{5,20}$/.test(q.search)) either.push(eq(payments.gatewayTransId, q.search));
    conds.push(must(or(...either), 'the search condition'));
  }
  return and(...conds);
}

/** The column each of ADMIN_PAYMENT_SORTS orders by (each has a payments_* index ending in id). */
const SORT_COLUMNS = {
  created_at: payments.createdAt,
  amount_cents: payments.amountCents,
  method: payments.method,
  status: payments.status,
} as const;

/** The payments matching `where` with their accounts, in the query's order (ties by id), `limit` from `offset`. */
function orderedPayments(db: Db, q: AdminPaymentsQuery, where: SQL | undefined, limit: number, offset: number) {
  const dir = q.sort.desc ? desc : asc;
  return db
    .select({ payment: payments, account: { id: accounts.id, name: accounts.name } })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.accountId))
    .where(where)
    .orderBy(dir(SORT_COLUMNS[q.sort.column]), dir(payments.id))
    .limit(limit)
    .offset(offset);
}

/** Payments read per statement while exporting. */
const EXPORT_BATCH = 1_000;

/**
 * GET /api/admin/payments/export.csv (docs/staff-lists.md "Export"): every payment the list's
 * status, method and search match (the page is ignored), in the list's order, at most
 * ADMIN_PAYMENTS_EXPORT_CAP, as CSV: Date (UTC), Account, Account id, Method (in words, with the
 * last four digits), Status, Amount, Discount, Refunded (dollars with cents, "$1,234.50", as the
 * page and the audit export write money), Invoices (numbers), Gateway transaction id, Gateway code
 * and Gateway message (the gateway's own answer, e.g. "2" and "This transaction has been
 * declined.": staff keep the reason a payer is never told, docs/payments.md "Card testing"),
 * Payment id.
 * Staff only (the route's access 'staff'). Reads payments, accounts, payment_invoices, invoices;
 * writes nothing.
 */
export async function exportAdminPaymentsCsv(db: Db, q: AdminPaymentsQuery): Promise<string> {
  const where = await paymentsWhere(db, q);
  const lines: CsvCell[][] = [];
  for (let offset = 0; offset < ADMIN_PAYMENTS_EXPORT_CAP; offset += EXPORT_BATCH) {
    const rows = await orderedPayments(
      db,
      q,
      where,
      Math.min(EXPORT_BATCH, ADMIN_PAYMENTS_EXPORT_CAP - offset),
      offset,
    );
    for (const p of await toAdminPaymentRows(db, rows)) {
      lines.push([
        `${p.created_at.slice(0, 19).replace('T', ' ')} UTC`,
        p.account.name,
        p.account.id,
        paymentMethodLabel(p),
        paymentStatusLabel(p.status),
        formatCurrency(p.amount_cents),
        formatCurrency(p.discount_cents),
        formatCurrency(p.refunded_cents),
        p.invoices.map((i) => i.number).join(' '),
        p.gateway_trans_id ?? '',
        p.gateway_code ?? '',
        p.gateway_message ?? '',
        p.id,
      ]);
    }
    if (rows.length < EXPORT_BATCH) break;
  }
  return csvText(
    [
      'Date',
      'Account',
      'Account id',
      'Method',
      'Status',
      'Amount',
      'Discount',
      'Refunded',
      'Invoices',
      'Gateway transaction id',
      'Gateway code',
      'Gateway message',
      'Payment id',
    ],
    lines,
  );
}
