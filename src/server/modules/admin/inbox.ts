import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { INQUIRY_KIND_LABELS, type InquiryKind } from '../../../shared/lists/subjects.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { ADMIN_PER_PAGE, INBOX_EXPORT_CAP, type InboxQuery } from '../../../shared/schemas/admin.ts';
import { listCountCap, listPageQuery, sortParam } from '../../../shared/schemas/list-params.ts';
import { csvText } from '../../csv.ts';
import { inquiries, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { cappedCount, markCapped, wordPatterns } from './list-count.ts';
import type { Db } from '../../db/client.ts';

/** What the inbox search reads: sender's name, e-mail and organization, lower case (pg_trgm GIN index inquiries_search_trgm). */
const inquirySearchText = sql`lower(${inquiries.name} || ' ' || ${inquiries.email} || ' ' || ${inquiries.organization})`;

/** The query string of another page of the same search (for the page object's links). */
function pageUrl(q: InboxQuery, page: number): string {
  return `?${listPageQuery({ kind: q.kind, status: q.status, search: q.search }, sortParam(q.sort), '-created_at', page)}`;
}

/**
 * GET /api/admin/inquiries (the admin inbox): a page of inquiries, 25 a page, newest first by
 * default (`sort`: created_at, name, kind, organization or state, "-" for descending; ties by id), filtered by kind and
 * handled state and by `search` (every word in the sender's name, e-mail or organization). The
 * total is counted a few pages ahead only (listCountCap, `total_is_capped`). Reads inquiries; writes nothing.
 * Requirement: docs/benchmarks.md "Staff lists at scale".
 */
export async function listInquiries(db: Db, q: InboxQuery) {
  const where = inboxWhere(q);
  const { total, capped } = await cappedCount(
    db,
    sql`SELECT 1 FROM ${inquiries}${where ? sql` WHERE ${where}` : sql``}`,
    listCountCap(q.page, ADMIN_PER_PAGE),
  );
  const rows = total === 0 ? [] : await inboxRows(db, q, where, ADMIN_PER_PAGE, (q.page - 1) * ADMIN_PER_PAGE);
  return markCapped(
    buildPage(rows, q.page, ADMIN_PER_PAGE, total, (p) => pageUrl(q, p)),
    capped,
  );
}

/** The WHERE of the query's search (every word in name, e-mail, organization), kind and state. */
function inboxWhere(q: InboxQuery): SQL | undefined {
  const conds: SQL[] = wordPatterns(q.search ?? '').map((p) => sql`${inquirySearchText} LIKE ${p}`);
  if (q.kind) conds.push(eq(inquiries.kind, q.kind));
  if (q.status) conds.push(eq(inquiries.isHandled, q.status === 'handled'));
  return conds.length ? and(...conds) : undefined;
}

/** The column each of INBOX_SORTS orders by, then id (each has an inquiries_* index). */
const SORT_COLUMNS = {
  created_at: inquiries.createdAt,
  name: inquiries.name,
  kind: inquiries.kind,
  organization: inquiries.organization,
  state: inquiries.isHandled,
} as const;

/** The inquiries matching `where`, in the query's order, `limit` from `offset`. */
function inboxRows(db: Db, q: InboxQuery, where: SQL | undefined, limit: number, offset: number) {
  const dir = q.sort.desc ? desc : asc;
  return db
    .select({
      id: inquiries.id,
      kind: inquiries.kind,
      name: inquiries.name,
      email: inquiries.email,
      organization: inquiries.organization,
      is_handled: inquiries.isHandled,
      created_at: inquiries.createdAt,
    })
    .from(inquiries)
    .where(where)
    .orderBy(dir(SORT_COLUMNS[q.sort.column]), dir(inquiries.id))
    .limit(limit)
    .offset(offset);
}

/**
 * GET /api/admin/inquiries/export.csv (docs/staff-lists.md "Export"): every inquiry the inbox's
 * search, kind and state match (the page is ignored), in the inbox's order, at most
 * INBOX_EXPORT_CAP, as CSV: Received (UTC), Kind (in words), Name, E-mail, Organization, State
 * (New/Handled), Inquiry id. Staff only (the route's access 'staff'). Reads inquiries; writes nothing.
 */
export async function exportInquiriesCsv(db: Db, q: InboxQuery): Promise<string> {
  const rows = await inboxRows(db, q, inboxWhere(q), INBOX_EXPORT_CAP, 0);
  return csvText(
    ['Received', 'Kind', 'Name', 'E-mail', 'Organization', 'State', 'Inquiry id'],
    rows.map((r) => [
      `${r.created_at.toISOString().slice(0, 19).replace('T', ' ')} UTC`,
      INQUIRY_KIND_LABELS[r.kind as InquiryKind] ?? r.kind,
      r.name,
      r.email,
      r.organization,
      r.is_handled ? 'Handled' : 'New',
      r.id,
    ]),
  );
}

/** One inquiry with all its fields. @throws HttpError 404 */
export async function getInquiry(db: Db, id: number) {
  const [row] = await db
    .select({
      id: inquiries.id,
      kind: inquiries.kind,
      name: inquiries.name,
      email: inquiries.email,
      phone: inquiries.phone,
      organization: inquiries.organization,
      details: inquiries.details,
      is_handled: inquiries.isHandled,
      handled_at: inquiries.handledAt,
      handled_by: users.email,
      created_at: inquiries.createdAt,
      ip: inquiries.ip,
    })
    .from(inquiries)
    .leftJoin(users, eq(users.id, inquiries.handledBy))
    .where(eq(inquiries.id, id));
  if (!row) throw notFound('The inquiry');
  return row;
}

/**
 * Marks an inquiry handled (or new again) by `adminId`.
 * Writes: inquiries.is_handled/handled_at/handled_by and one audit_log row.
 * @throws HttpError 404
 */
export async function setInquiryHandled(db: Db, id: number, isHandled: boolean, adminId: number, ip: string) {
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(inquiries)
      .set({ isHandled, handledAt: isHandled ? new Date() : null, handledBy: isHandled ? adminId : null })
      .where(eq(inquiries.id, id))
      .returning({ id: inquiries.id });
    if (!updated.length) throw notFound('The inquiry');
    await recordAudit(tx, {
      actorUserId: adminId,
      action: isHandled ? 'inquiry.handled' : 'inquiry.reopened',
      details: { inquiryId: id },
      ip,
    });
  });
  return getInquiry(db, id);
}
