import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { inquiries, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { ADMIN_PER_PAGE, type InboxQuery } from '../../../shared/schemas/admin.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { listCountCap, sortParam } from '../../../shared/schemas/list-params.ts';
import { cappedCount, markCapped, wordPatterns } from './list-count.ts';

/** What the inbox search reads: sender's name, e-mail and organization, lower case (pg_trgm GIN index inquiries_search_trgm). */
export const inquirySearchText = sql`lower(${inquiries.name} || ' ' || ${inquiries.email} || ' ' || ${inquiries.organization})`;

/** The query string of another page of the same search (for the page object's links). */
function pageUrl(q: InboxQuery, page: number): string {
  const params = new URLSearchParams();
  if (q.kind) params.set('kind', q.kind);
  if (q.status) params.set('status', q.status);
  if (q.search) params.set('search', q.search);
  if (sortParam(q.sort) !== '-created_at') params.set('sort', sortParam(q.sort));
  params.set('page', String(page));
  return `?${params}`;
}

/**
 * GET /api/admin/inquiries (the admin inbox): a page of inquiries, 25 a page, newest first by
 * default (`sort`: created_at or name, "-" for descending; ties by id), filtered by kind and
 * handled state and by `search` (every word in the sender's name, e-mail or organization). The
 * total is counted a few pages ahead only (listCountCap, `total_is_capped`). Reads inquiries; writes nothing.
 * Requirement: docs/benchmarks.md "Staff lists at scale".
 */
export async function listInquiries(db: Db, q: InboxQuery) {
  const conds: SQL[] = wordPatterns(q.search ?? '').map((p) => sql`${inquirySearchText} LIKE ${p}`);
  if (q.kind) conds.push(eq(inquiries.kind, q.kind));
  if (q.status) conds.push(eq(inquiries.isHandled, q.status === 'handled'));
  const where = conds.length ? and(...conds) : undefined;
  const { total, capped } = await cappedCount(db, sql`SELECT 1 FROM ${inquiries}${where ? sql` WHERE ${where}` : sql``}`, listCountCap(q.page, ADMIN_PER_PAGE));
  const dir = q.sort.desc ? desc : asc;
  const rows = total === 0 ? [] : await db
    .select({
      id: inquiries.id, kind: inquiries.kind, name: inquiries.name, email: inquiries.email,
      organization: inquiries.organization, is_handled: inquiries.isHandled, created_at: inquiries.createdAt,
    })
    .from(inquiries)
    .where(where)
    .orderBy(q.sort.column === 'name' ? dir(inquiries.name) : dir(inquiries.createdAt), dir(inquiries.id))
    .limit(ADMIN_PER_PAGE)
    .offset((q.page - 1) * ADMIN_PER_PAGE);
  return markCapped(buildPage(rows, q.page, ADMIN_PER_PAGE, total, (p) => pageUrl(q, p)), capped);
}

/** One inquiry with all its fields. @throws HttpError 404 */
export async function getInquiry(db: Db, id: number) {
  const [row] = await db
    .select({
      id: inquiries.id, kind: inquiries.kind, name: inquiries.name, email: inquiries.email, phone: inquiries.phone,
      organization: inquiries.organization, details: inquiries.details, is_handled: inquiries.isHandled,
      handled_at: inquiries.handledAt, handled_by: users.email, created_at: inquiries.createdAt, ip: inquiries.ip,
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
    await recordAudit(tx, { actorUserId: adminId, action: isHandled ? 'inquiry.handled' : 'inquiry.reopened', details: { inquiryId: id }, ip });
  });
  return getInquiry(db, id);
}
