import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import {
  ADMIN_PAYMENTS_PER_PAGE,
  OPEN_INVOICES_EXPORT_CAP,
  type AdminOpenInvoiceRow,
  type AdminOpenInvoicesPage,
  type AdminOpenInvoicesQuery,
} from '../../../shared/schemas/admin-payments.ts';
import { listCountCap, listPageQuery, sortParam } from '../../../shared/schemas/list-params.ts';
import { csvText } from '../../csv.ts';
import { accounts, invoices } from '../../db/schema.ts';
import { accountsNamed, cappedCount, inResolvedIds, markCapped } from '../admin/list-count.ts';
import type { Db } from '../../db/client.ts';

const DAY_MS = 86_400_000;

/** The query string of another page of the same filter (for the page object's links). */
function pageUrl(q: AdminOpenInvoicesQuery, page: number): string {
  return `/api/admin/invoices/open?${listPageQuery({ overdue: q.overdue, search: q.search }, sortParam(q.sort), 'document_at', page)}`;
}

/**
 * GET /api/admin/invoices/open (docs/requirements/entities.md "Search results page"): one page of every
 * account's invoices with a balance above 0, oldest first (document date, then id), 25 a page,
 * each with its account's id and name (the whole-site totals: `GET /api/admin/money-totals`).
 * `overdue` '30' keeps invoices dated more than 30 days before `now`.
 *
 * `search` matches the invoice number ('GS-000123', or its digits) or every word of the account's
 * name or city (accounts_search_trgm, then invoices_account); `sort` is OPEN_INVOICE_SORTS (ties by
 * id). Open invoices are read through the partial indexes on balance_cents > 0 (`invoices_open`
 * by date, `invoices_open_balance` by balance); each page is LIMITed and its accounts are found by
 * primary key. The total is counted a few pages ahead only (listCountCap, `total_is_capped`).
 * Reads invoices, accounts; writes nothing. Requirement: docs/benchmarks.md "Staff lists at scale".
 * @param now the moment "overdue" is judged at (tests pass one)
 */
export async function listOpenInvoices(
  db: Db,
  q: AdminOpenInvoicesQuery,
  now = new Date(),
): Promise<AdminOpenInvoicesPage> {
  const where = await openWhere(db, q, now);
  const { total, capped } = await cappedCount(
    db,
    sql`SELECT 1 FROM ${invoices} WHERE ${where}`,
    listCountCap(q.page, ADMIN_PAYMENTS_PER_PAGE),
  );
  const data =
    total === 0 ? [] : await openRows(db, q, where, ADMIN_PAYMENTS_PER_PAGE, (q.page - 1) * ADMIN_PAYMENTS_PER_PAGE);
  return markCapped(
    buildPage(data, q.page, ADMIN_PAYMENTS_PER_PAGE, total, (p) => pageUrl(q, p)),
    capped,
  );
}

/** The WHERE of open invoices narrowed by `overdue` (judged at `now`) and `search`. */
async function openWhere(db: Db, q: AdminOpenInvoicesQuery, now: Date): Promise<SQL | undefined> {
  const conds: SQL[] = [gt(invoices.balanceCents, 0)];
  if (q.overdue) conds.push(lt(invoices.documentAt, new Date(now.getTime() - Number(q.overdue) * DAY_MS)));
  if (q.search) {
    const either: SQL[] = [await inResolvedIds(db, invoices.accountId, accountsNamed(q.search))];
    const digits = /^(?:gs-?)?(\d{1,10})$/i.exec(q.search)?.[1];
    if (digits) either.push(eq(invoices.number, `GS-${digits.padStart(6, '0')}`));
    conds.push(must(or(...either), 'the search condition'));
  }
  return and(...conds);
}

/** The open invoices matching `where` with their accounts, in the query's order (ties by id), `limit` from `offset`. */
async function openRows(
  db: Db,
  q: AdminOpenInvoicesQuery,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<AdminOpenInvoiceRow[]> {
  const dir = q.sort.desc ? desc : asc;
  const sortColumn =
    q.sort.column === 'balance_cents'
      ? invoices.balanceCents
      : q.sort.column === 'number'
        ? invoices.number
        : invoices.documentAt;
  const rows = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      documentAt: invoices.documentAt,
      value_cents: invoices.valueCents,
      balance_cents: invoices.balanceCents,
      account: { id: accounts.id, name: accounts.name },
    })
    .from(invoices)
    .innerJoin(accounts, eq(accounts.id, invoices.accountId))
    .where(where)
    .orderBy(dir(sortColumn), dir(invoices.id))
    .limit(limit)
    .offset(offset);
  return rows.map(({ documentAt, ...r }): AdminOpenInvoiceRow => ({ ...r, document_at: documentAt.toISOString() }));
}

/**
 * GET /api/admin/invoices/open/export.csv (docs/staff-lists.md "Export"): every open invoice the
 * list's overdue filter and search match (the page is ignored), in the list's order, at most
 * OPEN_INVOICES_EXPORT_CAP, as CSV: Invoice, Account, Account id, Date (YYYY-MM-DD, UTC), Value,
 * Balance (dollars with cents, "$1,234.50"), Invoice id. Staff only (the route's access 'staff').
 * Reads invoices, accounts; writes nothing.
 * @param now the moment "overdue" is judged at (tests pass one)
 */
export async function exportOpenInvoicesCsv(db: Db, q: AdminOpenInvoicesQuery, now = new Date()): Promise<string> {
  const rows = await openRows(db, q, await openWhere(db, q, now), OPEN_INVOICES_EXPORT_CAP, 0);
  return csvText(
    ['Invoice', 'Account', 'Account id', 'Date', 'Value', 'Balance', 'Invoice id'],
    rows.map((r) => [
      r.number,
      r.account.name,
      r.account.id,
      r.document_at.slice(0, 10),
      formatCurrency(r.value_cents),
      formatCurrency(r.balance_cents),
      r.id,
    ]),
  );
}
