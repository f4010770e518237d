import { and, asc, desc, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { actionWords, auditDetailWords } from '../../../shared/rules/audit-words.ts';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';
import {
  AUDIT_COUNT_CAP,
  AUDIT_PER_PAGE,
  type AuditQuery,
  type AuditRow,
} from '../../../shared/schemas/admin-audit.ts';
import { listCountCap, listPageQuery, sortParam } from '../../../shared/schemas/list-params.ts';
import { csvText, type CsvCell } from '../../csv.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { accounts, auditLog, users } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-like.ts';
import { accountsNamed, inResolvedIds, markCapped } from './list-count.ts';
import type { Db } from '../../db/client.ts';

/** The action's code in byte order, as the audit_log_action index holds it (a LIKE prefix is then an index range). */
const ACTION_C = sql`(${auditLog.action} COLLATE "C")`;

/** Most accounts or actors an audit search is resolved to before it stays a subquery (see inResolvedIds). */
const AUDIT_RESOLVED_IDS = 500;

/** The page's own query string, so next/prev links keep the filters. */
function urlFor(q: AuditQuery, page: number): string {
  return `?${listPageQuery({ account_id: q.account_id, action: q.action, search: q.search }, sortParam(q.sort), '-created_at', page)}`;
}

/**
 * A page of the audit log, newest first (by id, the primary key index, which follows the time
 * rows were written; `sort=created_at` for oldest first; `actor`, `account`, `action` as
 * orderedAuditIds says), 50 a page, filtered by account (the
 * audit_log_account index), by action prefix ('discount.' matches 'discount.created'; lower case,
 * LIKE wildcards escaped) and by `search`: part of the actor's e-mail (users_email_trgm, then
 * audit_log_actor) or every word of the account's name or city (accounts_search_trgm, then
 * audit_log_account). The action filter is a range of audit_log_action. The matching ids are read a few pages ahead only (listCountCap, at most
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
  const data = await auditRowsOf(db, matched.slice((q.page - 1) * AUDIT_PER_PAGE, q.page * AUDIT_PER_PAGE));
  return markCapped(
    buildPage(data, q.page, AUDIT_PER_PAGE, total, (p) => urlFor(q, p)),
    capped,
  );
}

/**
 * The WHERE conditions of the audit page's filters (`filters`) and the parts of its search, any of
 * which a row may match (`either`: the named accounts, and for a one-word search the actors by
 * e-mail; null without a search). See listAudit for the indexes each uses. Reads users and
 * accounts when a search is resolved to their ids.
 */
async function auditConditions(db: Db, q: AuditQuery): Promise<{ filters: SQL[]; either: SQL[] | null }> {
  const filters: SQL[] = [];
  if (q.account_id) filters.push(eq(auditLog.accountId, q.account_id));
  if (q.action) filters.push(like(ACTION_C, `${escapeLike(q.action.toLowerCase())}%`));
  if (!q.search) return { filters, either: null };
  // The named accounts and the actors by e-mail are looked up side by side. More than
  // AUDIT_RESOLVED_IDS actors are many rows of the log: the walk below then meets a page of them
  // soon, testing each row against the search's hashed result in the same statement.
  const either = await Promise.all([
    inResolvedIds(db, auditLog.accountId, accountsNamed(q.search), AUDIT_RESOLVED_IDS),
    ...(/\s/.test(q.search)
      ? []
      : [
          inResolvedIds(
            db,
            auditLog.actorUserId,
            sql`(SELECT su.id FROM users su WHERE lower(su.email) LIKE ${`%${escapeLike(q.search.toLowerCase())}%`})`,
            AUDIT_RESOLVED_IDS,
          ),
        ]),
  ]);
  return { filters, either };
}

/**
 * The ids of the audit rows a filter matches, in the list's order, at most `limit` of them.
 * - `created_at`: by id (the primary key; ids follow the time rows were written).
 * - `action`: by the action's code (byte order), then id (audit_log_action).
 * - `actor`: by the actor's e-mail, then id: users in e-mail order (users_email_unique), each
 *   actor's rows along audit_log_actor. Rows without an e-mail (the system's, or a removed user's)
 *   follow, by id, in either direction: they are read only when the e-mails do not fill `limit`.
 * - `account`: by the account's name, then account id, then id, the same way (accounts_name for
 *   the name order, audit_log_account for each account's rows); rows of no account follow.
 *   With the account filter every row has the same account, so this is the order by id.
 * With a search, the actor and account orders are the UNION of one ordered, LIMITed SELECT per
 * part of the search (the named accounts' rows along audit_log_account, the actors' along
 * audit_log_actor), so neither walks every name for the few that match.
 * Reads audit_log, accounts and users (docs/staff-lists.md "Audit log sorts").
 */
async function matchingAuditIds(db: Db, q: AuditQuery, limit: number): Promise<number[]> {
  const { filters, either } = await auditConditions(db, q);
  const conds = either ? [...filters, must(or(...either), 'the search condition')] : filters;
  const order = q.sort.desc ? desc : asc;
  const byId = async (extra: SQL[], n: number) =>
    (
      await db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(and(...conds, ...extra))
        .orderBy(order(auditLog.id))
        .limit(n)
    ).map((r) => r.id);
  const column = q.sort.column === 'account' && q.account_id ? 'created_at' : q.sort.column;
  if (column === 'created_at') return byId([], limit);
  if (column === 'action') {
    const rows = await db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(...conds))
      .orderBy(order(ACTION_C), order(auditLog.id))
      .limit(limit);
    return rows.map((r) => r.id);
  }
  const dir = sql.raw(q.sort.desc ? 'DESC' : 'ASC');
  const [join, keys] =
    column === 'actor'
      ? [sql`JOIN users k ON k.id = ${auditLog.actorUserId}`, sql`k.email AS k1, 0 AS k2`]
      : [sql`JOIN accounts k ON k.id = ${auditLog.accountId}`, sql`k.name AS k1, k.id AS k2`];
  const part = (where: SQL[]) => sql`(SELECT ${auditLog.id} AS id, ${keys} FROM ${auditLog} ${join}
    ${where.length ? sql`WHERE ${and(...where)}` : sql``} ORDER BY k1 ${dir}, k2 ${dir}, ${auditLog.id} ${dir} LIMIT ${limit})`;
  const parts = either ? either.map((e) => part([...filters, e])) : [part(filters)];
  const named = await rowsOf<{ id: number | string }>(
    db,
    sql`SELECT n.id FROM (${sql.join(parts, sql` UNION `)}) n
    ORDER BY n.k1 ${dir}, n.k2 ${dir}, n.id ${dir} LIMIT ${limit}`,
  );
  const ids = named.map((r) => Number(r.id));
  if (ids.length >= limit) return ids;
  const nameless =
    column === 'actor'
      ? sql`(${auditLog.actorUserId} IS NULL OR NOT EXISTS (SELECT 1 FROM users nu WHERE nu.id = ${auditLog.actorUserId}))`
      : sql`(${auditLog.accountId} IS NULL OR NOT EXISTS (SELECT 1 FROM accounts na WHERE na.id = ${auditLog.accountId}))`;
  return [...ids, ...(await byId([nameless], limit - ids.length))];
}

/**
 * The audit rows of `ids` with their actor's e-mail and account's name, in the order of `ids`. The
 * two names are looked up per row by primary key: a join would hash every account for an export's
 * batch of 1,000 rows (docs/staff-lists.md "Audit log sorts").
 */
async function auditRowsOf(db: Db, ids: number[]): Promise<AuditRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: auditLog.id,
      created_at: auditLog.createdAt,
      action: auditLog.action,
      actor_user_id: auditLog.actorUserId,
      actor_email: sql<
        string | null
      >`(SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${auditLog.actorUserId})`,
      account_id: auditLog.accountId,
      account_name: sql<
        string | null
      >`(SELECT ${accounts.name} FROM ${accounts} WHERE ${accounts.id} = ${auditLog.accountId})`,
      details: auditLog.details,
      ip: auditLog.ip,
    })
    .from(auditLog)
    .where(inArray(auditLog.id, ids));
  const byId = new Map(rows.map((r) => [Number(r.id), { ...r, created_at: r.created_at.toISOString() }]));
  return ids.flatMap((id) => byId.get(Number(id)) ?? []);
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
    for (const r of await auditRowsOf(db, ids.slice(i, i + EXPORT_BATCH))) {
      const words = auditDetailWords(r.details);
      lines.push([
        `${r.created_at.slice(0, 19).replace('T', ' ')} UTC`,
        r.actor_email ?? (r.actor_user_id ? `User ${r.actor_user_id}` : 'System'),
        r.account_id === null ? '' : (r.account_name ?? `Account ${r.account_id}`),
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
