import { and, asc, desc, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, auditLog, users } from '../../db/schema.ts';
import { AUDIT_COUNT_CAP, AUDIT_PER_PAGE, type AuditQuery, type AuditRow } from '../../../shared/schemas/admin-audit.ts';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';
import { listCountCap, sortParam } from '../../../shared/schemas/list-params.ts';
import { accountsNamed, inResolvedIds, markCapped } from './list-count.ts';
import { escapeLike } from '../../db/sql-like.ts';
import { csvText, type CsvCell } from '../../csv.ts';
import { actionWords, auditDetailWords } from '../../../shared/rules/audit-words.ts';

/** Most accounts or actors an audit search is resolved to before it stays a subquery (see inResolvedIds). */
const AUDIT_RESOLVED_IDS = 500;

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
 * audit_log_account). The matching ids are read a few pages ahead only (listCountCap, at most
 * AUDIT_COUNT_CAP; `total_is_capped`) and give both the total and the page, and pages stop at
 * AUDIT_COUNT_CAP, so no request walks an unbounded part of the table.
 */
export async function listAudit(db: Db, q: AuditQuery): Promise<PageObject<AuditRow>> {
  const cap = Math.min(AUDIT_COUNT_CAP, listCountCap(q.page, AUDIT_PER_PAGE));
  // One walk of the matching ids, in page order, up to the cap: its length is the (capped) total
  // and its slice is the page, so the count and the page do not each search the log again.
  const matched = await matchingAuditIds(db, q, cap + 1);
  const capped = matched.length > cap;
  const total = Math.min(matched.length, cap);
  const data = await auditRowsOf(db, matched.slice((q.page - 1) * AUDIT_PER_PAGE, q.page * AUDIT_PER_PAGE), q.sort.desc);
  return markCapped(buildPage(data, q.page, AUDIT_PER_PAGE, total, (p) => urlFor(q, p)), capped);
}

/**
 * The ids of the audit rows a filter matches, in the list's order, at most `limit` of them (see
 * listAudit for the indexes each filter uses). Reads audit_log, accounts and users.
 */
async function matchingAuditIds(db: Db, q: AuditQuery, limit: number): Promise<number[]> {
  const conds: SQL[] = [];
  if (q.account_id) conds.push(eq(auditLog.accountId, q.account_id));
  if (q.action) conds.push(like(auditLog.action, `${escapeLike(q.action.toLowerCase())}%`));
  if (q.search) {
    // The named accounts and the actors by e-mail are looked up side by side. More than
    // AUDIT_RESOLVED_IDS actors are many rows of the log: the walk below then meets a page of them
    // soon, testing each row against the search's hashed result in the same statement.
    const either = await Promise.all([
      inResolvedIds(db, auditLog.accountId, accountsNamed(q.search), AUDIT_RESOLVED_IDS),
      ...(/\s/.test(q.search) ? [] : [
        inResolvedIds(db, auditLog.actorUserId, sql`(SELECT su.id FROM users su WHERE lower(su.email) LIKE ${`%${escapeLike(q.search.toLowerCase())}%`})`, AUDIT_RESOLVED_IDS),
      ]),
    ]);
    conds.push(or(...either)!);
  }
  const where = conds.length ? and(...conds) : undefined;
  const order = q.sort.desc ? desc : asc;
  const rows = await db.select({ id: auditLog.id }).from(auditLog).where(where).orderBy(order(auditLog.id)).limit(limit);
  return rows.map((r) => r.id);
}

/** The audit rows of `ids` with their actor's e-mail and account's name, in id order. */
async function auditRowsOf(db: Db, ids: number[], descending: boolean): Promise<AuditRow[]> {
  if (ids.length === 0) return [];
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
    .where(inArray(auditLog.id, ids))
    .orderBy((descending ? desc : asc)(auditLog.id));
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

/** Audit rows read per statement while exporting. */
const EXPORT_BATCH = 1_000;

/**
 * GET /api/admin/audit/export.csv: the rows the audit page's filters match (account, action,
 * search, sort; the page is ignored), at most AUDIT_COUNT_CAP of them, as CSV in words: time (UTC),
 * actor, account, what (actionWords), the action's code, changes and details (auditDetailWords),
 * IP address. Staff only (the route's access 'staff'). Reads audit_log, accounts and users; writes
 * nothing. Requirement: docs/audit.md "Export".
 */
export async function exportAuditCsv(db: Db, q: AuditQuery): Promise<string> {
  const ids = await matchingAuditIds(db, q, AUDIT_COUNT_CAP);
  const lines: CsvCell[][] = [];
  for (let i = 0; i < ids.length; i += EXPORT_BATCH) {
    for (const r of await auditRowsOf(db, ids.slice(i, i + EXPORT_BATCH), q.sort.desc)) {
      const words = auditDetailWords(r.details);
      lines.push([
        `${r.created_at.slice(0, 19).replace('T', ' ')} UTC`,
        r.actor_email ?? (r.actor_user_id ? `User ${r.actor_user_id}` : 'System'),
        r.account_id === null ? '' : r.account_name ?? `Account ${r.account_id}`,
        actionWords(r.action),
        r.action,
        words.changes.join('\n'),
        words.facts.join('\n'),
        r.ip,
      ]);
    }
  }
  return csvText(['Time', 'Actor', 'Account', 'What', 'Action', 'Changes', 'Details', 'IP address'], lines);
}
