import { and, asc, count, eq } from 'drizzle-orm';
import { buildPage } from '../../../shared/rules/pagination.ts';
import {
  ROSTER_IMPORT_ROWS_PER_PAGE,
  type RosterImportRowsPage,
  type RosterImportRowsQuery,
} from '../../../shared/schemas/roster-imports.ts';
import { accounts, rosterImportRows, rosterImports } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { shownChanges, type ColumnValues } from './roster-columns.ts';
import type { Db } from '../../db/client.ts';

/**
 * GET /api/admin/roster-imports/{id}/rows?action=add|change|remove&page= (docs/irs-data.md
 * "Roster import"): one page of a preview's adds, changes or removals, in the order staged, with
 * each organization's name, EIN, city and state (of the file for adds, of the account otherwise)
 * and, for changes, each IRS column before and after. Reads only.
 * @returns a page object of ROSTER_IMPORT_ROWS_PER_PAGE rows
 * @throws HttpError 404 when there is no such import
 */
export async function listRosterImportRows(
  db: Db,
  importId: number,
  q: RosterImportRowsQuery,
): Promise<RosterImportRowsPage> {
  const [imp] = await db.select({ id: rosterImports.id }).from(rosterImports).where(eq(rosterImports.id, importId));
  if (!imp) throw notFound('The roster import');
  const where = and(eq(rosterImportRows.importId, importId), eq(rosterImportRows.action, q.action));
  const [{ n }] = await db.select({ n: count() }).from(rosterImportRows).where(where);
  const rows =
    n === 0
      ? []
      : await db
          .select({
            row: rosterImportRows,
            account: { name: accounts.name, city: accounts.city, state: accounts.state },
          })
          .from(rosterImportRows)
          .leftJoin(accounts, eq(accounts.id, rosterImportRows.accountId))
          .where(where)
          .orderBy(asc(rosterImportRows.id))
          .limit(ROSTER_IMPORT_ROWS_PER_PAGE)
          .offset((q.page - 1) * ROSTER_IMPORT_ROWS_PER_PAGE);
  const data = rows.map(({ row, account }) => {
    const after = (row.after ?? {}) as ColumnValues;
    const text = (k: 'name' | 'city' | 'state') =>
      String((row.action === 'add' ? after[k] : account?.[k]) ?? after[k] ?? '');
    return {
      id: row.id,
      action: row.action,
      ein: row.ein,
      account_id: row.accountId,
      name: text('name'),
      city: text('city'),
      state: text('state'),
      changes: row.action === 'change' ? shownChanges(row.before as ColumnValues, after) : [],
    };
  });
  return buildPage(
    data,
    q.page,
    ROSTER_IMPORT_ROWS_PER_PAGE,
    n,
    (p) => `/api/admin/roster-imports/${importId}/rows?action=${q.action}&page=${p}`,
  );
}
