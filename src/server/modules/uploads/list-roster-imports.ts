import { and, asc, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { listPageQuery, sortParam } from '../../../shared/schemas/list-params.ts';
import {
  ROSTER_IMPORTS_EXPORT_CAP,
  ROSTER_IMPORTS_PER_PAGE,
  type RosterImportsPage,
  type RosterImportsQuery,
} from '../../../shared/schemas/roster-imports.ts';
import { csvText } from '../../csv.ts';
import { rosterImports } from '../../db/schema.ts';
import { wordPatterns } from '../admin/list-count.ts';
import { summarizeImports } from './roster-import-state.ts';
import type { Db } from '../../db/client.ts';

/** The query string of another page of the same filters (for the page object's links). */
function pageUrl(q: RosterImportsQuery, page: number): string {
  return `/api/admin/roster-imports?${listPageQuery({ search: q.search, status: q.status }, sortParam(q.sort), '-created_at', page)}`;
}

/** The WHERE of the query's search (the GEN, or every word of the file name) and status. */
function importsWhere(q: RosterImportsQuery): SQL | undefined {
  const conds: SQL[] = [];
  if (q.search) {
    const words = wordPatterns(q.search).map((p) => sql`lower(${rosterImports.fileName}) LIKE ${p}`);
    conds.push(must(or(eq(rosterImports.gen, q.search), and(...words)), 'the search condition'));
  }
  if (q.status) conds.push(eq(rosterImports.status, q.status));
  return conds.length ? and(...conds) : undefined;
}

/** The column each of ROSTER_IMPORT_SORTS orders by, then id (roster_imports_* indexes). */
const SORT_COLUMNS = {
  created_at: rosterImports.createdAt,
  id: rosterImports.id,
  gen: rosterImports.gen,
  file_name: rosterImports.fileName,
  status: rosterImports.status,
} as const;

/** The imports matching `where`, in the query's order, `limit` from `offset`. */
function importRows(db: Db, q: RosterImportsQuery, where: SQL | undefined, limit: number, offset: number) {
  const dir = q.sort.desc ? desc : asc;
  return db
    .select()
    .from(rosterImports)
    .where(where)
    .orderBy(dir(SORT_COLUMNS[q.sort.column]), dir(rosterImports.id))
    .limit(limit)
    .offset(offset);
}

/**
 * GET /api/admin/roster-imports (docs/irs-data.md "Roster import", docs/staff-lists.md): the past
 * roster imports of every GEN, newest first by default (`sort`: created_at, id, gen, file_name,
 * status; "-" for descending; ties by id), narrowed by `search` and `status`,
 * ROSTER_IMPORTS_PER_PAGE a page, each with its status, counts, who staged, confirmed or undid it
 * and when. Reads only.
 * @returns a page object (docs/requirements/entities.md)
 */
export async function listRosterImports(db: Db, q: RosterImportsQuery): Promise<RosterImportsPage> {
  const where = importsWhere(q);
  const [{ n }] = await db.select({ n: count() }).from(rosterImports).where(where);
  const rows =
    n === 0 ? [] : await importRows(db, q, where, ROSTER_IMPORTS_PER_PAGE, (q.page - 1) * ROSTER_IMPORTS_PER_PAGE);
  return buildPage(await summarizeImports(db, rows), q.page, ROSTER_IMPORTS_PER_PAGE, n, (p) => pageUrl(q, p));
}

/** Statuses in words, as the list shows them. */
const STATUS_WORDS: Record<string, string> = {
  preview: 'Preview',
  confirmed: 'Confirmed',
  discarded: 'Discarded',
  undone: 'Undone',
};
const utc = (iso: string | null) => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : '');

/**
 * GET /api/admin/roster-imports/export.csv (docs/staff-lists.md "Export"): every import the list's
 * search and status match (the page is ignored), in the list's order, at most
 * ROSTER_IMPORTS_EXPORT_CAP, as CSV: Import id, GEN, File, Status, Adds, Changes, Removals,
 * Uploaded (UTC), Uploaded by, Confirmed (UTC), Confirmed by, Undone (UTC), Undone by. Staff only
 * (the route's access 'staff'). Reads roster_imports, users, groups; writes nothing.
 */
export async function exportRosterImportsCsv(db: Db, q: RosterImportsQuery): Promise<string> {
  const rows = await summarizeImports(db, await importRows(db, q, importsWhere(q), ROSTER_IMPORTS_EXPORT_CAP, 0));
  return csvText(
    [
      'Import id',
      'GEN',
      'File',
      'Status',
      'Adds',
      'Changes',
      'Removals',
      'Uploaded',
      'Uploaded by',
      'Confirmed',
      'Confirmed by',
      'Undone',
      'Undone by',
    ],
    rows.map((r) => [
      r.id,
      r.gen,
      r.file_name,
      STATUS_WORDS[r.status] ?? r.status,
      r.counts.adds,
      r.counts.changes,
      r.counts.removals,
      utc(r.created_at),
      r.created_by ?? '',
      utc(r.confirmed_at),
      r.confirmed_by ?? '',
      utc(r.undone_at),
      r.undone_by ?? '',
    ]),
  );
}
