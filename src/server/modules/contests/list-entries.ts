import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { ADMIN_PER_PAGE } from '../../../shared/schemas/admin.ts';
import {
  CONTEST_ENTRIES_EXPORT_CAP,
  ENTRANT_TYPE_LABELS,
  type Contest,
  type ContestEntriesQuery,
  type EntrantType,
} from '../../../shared/schemas/contests.ts';
import { listPageQuery, sortParam } from '../../../shared/schemas/list-params.ts';
import { csvText } from '../../csv.ts';
import { contestEntries, files } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { wordPatterns } from '../admin/list-count.ts';
import type { Db } from '../../db/client.ts';
import type { FileRow } from '../files/stored-files.ts';

/** Address admins read an entry's file from (inline for raster images, else an attachment). */
const entryFileUrl = (fileId: number) => `/admin/contests/files/${fileId}`;

/** The query string of another page of the same filters (for the page object's links). */
function pageUrl(contest: Contest, q: ContestEntriesQuery, page: number): string {
  return `?${listPageQuery({ contest, counted: q.counted, search: q.search }, sortParam(q.sort), '-created_at', page)}`;
}

/** The WHERE of one contest's entries narrowed by `counted` and `search` (every word in organization or e-mail). */
function entriesWhere(contest: Contest, q: ContestEntriesQuery): SQL | undefined {
  const words = wordPatterns(q.search ?? '').map(
    (p) => sql`lower(${contestEntries.organization} || ' ' || ${contestEntries.email}) LIKE ${p}`,
  );
  return and(
    eq(contestEntries.contest, contest),
    q.counted ? eq(contestEntries.counts, q.counted === 'yes') : undefined,
    ...words,
  );
}

/**
 * The column each of CONTEST_ENTRY_SORTS orders by, then id; the contest_entries_contest_* indexes
 * serve each within one contest (organization case-insensitively, as the quota counts it).
 */
const SORT_COLUMNS = {
  created_at: contestEntries.createdAt,
  organization: sql`lower(${contestEntries.organization})`,
  type: contestEntries.type,
  counts: contestEntries.counts,
} as const;

/** The entries matching `where` with their files, in the query's order, `limit` from `offset`. */
async function entryRows(db: Db, q: ContestEntriesQuery, where: SQL | undefined, limit: number, offset: number) {
  const dir = q.sort.desc ? desc : asc;
  const rows = await db
    .select({
      id: contestEntries.id,
      organization: contestEntries.organization,
      email: contestEntries.email,
      type: contestEntries.type,
      message: contestEntries.message,
      is_member: contestEntries.isMember,
      counts: contestEntries.counts,
      created_at: contestEntries.createdAt,
      file_id: files.id,
      file_name: files.fileName,
      mime_type: files.mimeType,
      size_bytes: files.sizeBytes,
    })
    .from(contestEntries)
    .leftJoin(files, eq(files.id, contestEntries.fileId))
    .where(where)
    .orderBy(dir(SORT_COLUMNS[q.sort.column]), dir(contestEntries.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...r, file_url: r.file_id ? entryFileUrl(r.file_id) : null }));
}

/**
 * A page of one contest's entries for admins, newest first by default (`sort`: created_at,
 * organization, type, counts; "-" for descending; ties by id), optionally only the counted ones or
 * only the extras, narrowed by `search` (docs/requirements/product.md tool 4: "Admins browse entries per contest with
 * previews, counted or not"; docs/staff-lists.md). Reads contest_entries, files; writes nothing.
 */
export async function listContestEntries(db: Db, contest: Contest, q: ContestEntriesQuery) {
  const where = entriesWhere(contest, q);
  const [{ total }] = await db.select({ total: count() }).from(contestEntries).where(where);
  const data = total === 0 ? [] : await entryRows(db, q, where, ADMIN_PER_PAGE, (q.page - 1) * ADMIN_PER_PAGE);
  return buildPage(data, q.page, ADMIN_PER_PAGE, total, (p) => pageUrl(contest, q, p));
}

/**
 * GET /api/admin/contests/:contest/entries/export.csv (docs/staff-lists.md "Export"): every entry of
 * the contest the list's filters match (the page is ignored), in the list's order, at most
 * CONTEST_ENTRIES_EXPORT_CAP, as CSV: Received (UTC), Organization, E-mail, Type (in words), Member,
 * Message, File, Counts, Entry id. Staff only (the route's access 'staff'). Reads contest_entries,
 * files; writes nothing.
 */
export async function exportContestEntriesCsv(db: Db, contest: Contest, q: ContestEntriesQuery): Promise<string> {
  const rows = await entryRows(db, q, entriesWhere(contest, q), CONTEST_ENTRIES_EXPORT_CAP, 0);
  return csvText(
    ['Received', 'Organization', 'E-mail', 'Type', 'Member', 'Message', 'File', 'Counts', 'Entry id'],
    rows.map((r) => [
      `${r.created_at.toISOString().slice(0, 19).replace('T', ' ')} UTC`,
      r.organization,
      r.email,
      ENTRANT_TYPE_LABELS[r.type as EntrantType] ?? r.type,
      r.is_member ? 'Yes' : 'No',
      r.message,
      r.file_name ?? '',
      r.counts ? 'Yes' : 'No',
      r.id,
    ]),
  );
}

/** The file of a contest entry, for admins. @throws HttpError 404 */
export async function findEntryFile(db: Db, fileId: number): Promise<FileRow> {
  const [row] = await db
    .select({ file: files })
    .from(files)
    .innerJoin(contestEntries, eq(contestEntries.fileId, files.id))
    .where(eq(files.id, fileId));
  if (!row) throw notFound('The file');
  return row.file;
}
