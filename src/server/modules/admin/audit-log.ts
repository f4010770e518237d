import { and, count, desc, eq, like, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, auditLog, users } from '../../db/schema.ts';
import { AUDIT_COUNT_CAP, AUDIT_PER_PAGE, type AuditQuery, type AuditRow } from '../../../shared/schemas/admin-audit.ts';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';

/** The page's own query string, so next/prev links keep the filters. */
function urlFor(q: AuditQuery, page: number): string {
  const qs = new URLSearchParams();
  if (q.account_id) qs.set('account_id', String(q.account_id));
  if (q.action) qs.set('action', q.action);
  qs.set('page', String(page));
  return `?${qs.toString()}`;
}

/**
 * A page of the audit log, newest first (by id, the primary key index), 50 a page, filtered by
 * account (the audit_log_account index) and by action prefix ('discount.' matches
 * 'discount.created'; lower case, LIKE wildcards escaped). The total is counted up to
 * AUDIT_COUNT_CAP rows only, and pages stop there, so no request walks an unbounded part of the table.
 */
export async function listAudit(db: Db, q: AuditQuery): Promise<PageObject<AuditRow>> {
  const conds: SQL[] = [];
  if (q.account_id) conds.push(eq(auditLog.accountId, q.account_id));
  if (q.action) conds.push(like(auditLog.action, `${q.action.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`));
  const where = conds.length ? and(...conds) : undefined;
  const capped = db.select({ one: sql<number>`1`.as('one') }).from(auditLog).where(where).limit(AUDIT_COUNT_CAP).as('capped');
  const [{ total }] = await db.select({ total: count() }).from(capped);
  const rows = await db
    .select({
      id: auditLog.id, created_at: auditLog.createdAt, action: auditLog.action,
      actor_user_id: auditLog.actorUserId, actor_email: users.email,
      account_id: auditLog.accountId, account_name: accounts.name,
      details: auditLog.details, ip: auditLog.ip,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .leftJoin(accounts, eq(accounts.id, auditLog.accountId))
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PER_PAGE)
    .offset((q.page - 1) * AUDIT_PER_PAGE);
  const data = rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
  return buildPage(data, q.page, AUDIT_PER_PAGE, total, (p) => urlFor(q, p));
}
