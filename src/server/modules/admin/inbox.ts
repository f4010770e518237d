import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { inquiries, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { ADMIN_PER_PAGE, type InboxQuery } from '../../../shared/schemas/admin.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { recordAudit } from '../audit/record-audit.ts';

/** A page of inquiries, newest first, filtered by kind and handled state (admin inbox). */
export async function listInquiries(db: Db, q: InboxQuery) {
  const conds: SQL[] = [];
  if (q.kind) conds.push(eq(inquiries.kind, q.kind));
  if (q.status) conds.push(eq(inquiries.isHandled, q.status === 'handled'));
  const where = conds.length ? and(...conds) : undefined;
  const [{ total }] = await db.select({ total: count() }).from(inquiries).where(where);
  const rows = await db
    .select({
      id: inquiries.id, kind: inquiries.kind, name: inquiries.name, email: inquiries.email,
      organization: inquiries.organization, is_handled: inquiries.isHandled, created_at: inquiries.createdAt,
    })
    .from(inquiries)
    .where(where)
    .orderBy(desc(inquiries.createdAt), desc(inquiries.id))
    .limit(ADMIN_PER_PAGE)
    .offset((q.page - 1) * ADMIN_PER_PAGE);
  return buildPage(rows, q.page, ADMIN_PER_PAGE, total, (p) => `?page=${p}`);
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
