import { and, asc, desc, eq, like, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, auditLog, users } from '../../db/schema.ts';
import { AUDIT_COUNT_CAP, AUDIT_PER_PAGE, type AuditQuery, type AuditRow } from '../../../shared/schemas/admin-audit.ts';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';
import { listCountCap, sortParam } from '../../../shared/schemas/list-params.ts';
import { accountsNamed, cappedCount, inResolvedIds, markCapped } from './list-count.ts';
import { escapeLike } from '../../db/sql-like.ts';

/** The page's own query string, so next/prev links keep the filters. */
function urlFor(q: AuditQuery, page: number): string {
  const qs = new URLSearchParams();
  if (q.account_id) qs.set('account_id', String(q.account_id));
  if (q.action) qs.set('action', q.action);
  if (q.search) qs.set('search', q.search);
  if (sortParam(q.sort) !== '-created_at') qs.set('sort', sortParam(q.sort));
  qs.set('page', String(page));
  return `?${qs.toString()}`;
}

/**
 * A page of the audit log, newest first (by id, the primary key index, which follows the time
 * rows were written; `sort=created_at` for oldest first), 50 a page, filtered by account (the
 * audit_log_account index), by action prefix ('discount.' matches 'discount.created'; lower case,
 * LIKE wildcards escaped) and by `search`: part of the actor's e-mail (users_email_trgm, then
 * audit_log_actor) or every word of the account's name or city (accounts_search_trgm, then
 * audit_log_account). The total is counted a few pages ahead only (listCountCap, at most
 * AUDIT_COUNT_CAP; `total_is_capped`), and pages stop at AUDIT_COUNT_CAP, so no request walks an
 * unbounded part of the table.
 */
export async function listAudit(db: Db, q: AuditQuery): Promise<PageObject<AuditRow>> {
  const conds: SQL[] = [];
  if (q.account_id) conds.push(eq(auditLog.accountId, q.account_id));
  if (q.action) conds.push(like(auditLog.action, `${escapeLike(q.action.toLowerCase())}%`));
  if (q.search) {
    // The named accounts and the actors by e-mail are looked up side by side.
    const either = await Promise.all([
      inResolvedIds(db, auditLog.accountId, accountsNamed(q.search)),
      ...(/\s/.test(q.search) ? [] : [
        inResolvedIds(db, auditLog.actorUserId, sql`(SELECT su.id FROM users su WHERE lower(su.email) LIKE ${`%${escapeLike(q.search.toLowerCase())}%`})`),
      ]),
    ]);
    conds.push(or(...either)!);
  }
  const where = conds.length ? and(...conds) : undefined;
  const cap = Math.min(AUDIT_COUNT_CAP, listCountCap(q.page, AUDIT_PER_PAGE));
  const { total, capped } = await cappedCount(db, sql`SELECT 1 FROM ${auditLog}${where ? sql` WHERE ${where}` : sql``}`, cap);
  const order = q.sort.desc ? desc : asc;
  // The page's rows first, then their actors and accounts: joined before the OFFSET, every row of
  // the pages before would be looked up too (200 rows for page 4 instead of 50).
  const pageRows = db
    .select({
      id: auditLog.id, created_at: auditLog.createdAt, action: auditLog.action,
      actor_user_id: auditLog.actorUserId, account_id: auditLog.accountId, details: auditLog.details, ip: auditLog.ip,
    })
    .from(auditLog)
    .where(where)
    .orderBy(order(auditLog.id))
    .limit(AUDIT_PER_PAGE)
    .offset((q.page - 1) * AUDIT_PER_PAGE)
    .as('page_rows');
  const rows = await db
    .select({
      id: pageRows.id, created_at: pageRows.created_at, action: pageRows.action,
      actor_user_id: pageRows.actor_user_id, actor_email: users.email,
      account_id: pageRows.account_id, account_name: accounts.name,
      details: pageRows.details, ip: pageRows.ip,
    })
    .from(pageRows)
    .leftJoin(users, eq(users.id, pageRows.actor_user_id))
    .leftJoin(accounts, eq(accounts.id, pageRows.account_id))
    .orderBy(order(pageRows.id));
  const data = rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
  return markCapped(buildPage(data, q.page, AUDIT_PER_PAGE, total, (p) => urlFor(q, p)), capped);
}
