import { and, asc, count, eq, gt, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, invoices } from '../../db/schema.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import {
  ADMIN_PAYMENTS_PER_PAGE, type AdminOpenInvoiceRow, type AdminOpenInvoicesPage, type AdminOpenInvoicesQuery,
} from '../../../shared/schemas/admin-payments.ts';
import { getMoneyTotals } from './money-totals.ts';

const DAY_MS = 86_400_000;

/** The query string of another page of the same filter (for the page object's links). */
function pageUrl(q: AdminOpenInvoicesQuery, page: number): string {
  const params = new URLSearchParams();
  if (q.overdue) params.set('overdue', q.overdue);
  params.set('page', String(page));
  return `/api/admin/invoices/open?${params}`;
}

/**
 * GET /api/admin/invoices/open (issue 7; SPEC §3 "Search results page"): one page of every
 * account's invoices with a balance above 0, oldest first (document date, then id), 25 a page,
 * each with its account's id and name, plus the whole-site totals (`getMoneyTotals`).
 * `overdue` '30' keeps invoices dated more than 30 days before `now`.
 *
 * Invoices have no index on the balance or date (only `invoices_account`), so this reads the
 * invoices table, which holds customers' bills only (never the imported IRS records); each page
 * is LIMITed and its accounts are found by primary key. Reads invoices, accounts; writes nothing.
 * @param now the moment "overdue" is judged at (tests pass one)
 */
export async function listOpenInvoices(db: Db, q: AdminOpenInvoicesQuery, now = new Date()): Promise<AdminOpenInvoicesPage> {
  const conds: SQL[] = [gt(invoices.balanceCents, 0)];
  if (q.overdue) conds.push(lt(invoices.documentAt, new Date(now.getTime() - Number(q.overdue) * DAY_MS)));
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(invoices).where(where);
  const rows = total === 0 ? [] : await db
    .select({
      id: invoices.id, number: invoices.number, documentAt: invoices.documentAt, value_cents: invoices.valueCents,
      balance_cents: invoices.balanceCents, account: { id: accounts.id, name: accounts.name },
    })
    .from(invoices)
    .innerJoin(accounts, eq(accounts.id, invoices.accountId))
    .where(where)
    .orderBy(asc(invoices.documentAt), asc(invoices.id))
    .limit(ADMIN_PAYMENTS_PER_PAGE)
    .offset((q.page - 1) * ADMIN_PAYMENTS_PER_PAGE);
  const data = rows.map(({ documentAt, ...r }): AdminOpenInvoiceRow => ({ ...r, document_at: documentAt.toISOString() }));
  return { ...buildPage(data, q.page, ADMIN_PAYMENTS_PER_PAGE, total, (p) => pageUrl(q, p)), totals: await getMoneyTotals(db) };
}
