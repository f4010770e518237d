import { sql, type SQL } from 'drizzle-orm';
import { formatEin } from '../../../shared/rules/formats.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import {
  ACCOUNT_STATUS_LABELS,
  ADMIN_ACCOUNTS_EXPORT_CAP,
  ADMIN_ACCOUNTS_PER_PAGE,
  type AccountStatus,
  type AdminAccountRow,
  type AdminAccountsPage,
  type AdminAccountsQuery,
} from '../../../shared/schemas/admin-accounts.ts';
import { listCountCap, listPageQuery, sortParam } from '../../../shared/schemas/list-params.ts';
import { csvText, type CsvCell } from '../../csv.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { escapeLike } from '../../db/sql-like.ts';
import { markCapped } from '../admin/list-count.ts';
import type { Db } from '../../db/client.ts';

const DAY_MS = 86_400_000;

/**
 * An account's status (AccountStatus) as SQL over the alias `a`, at `now`: suspended from the basic
 * renewal first, then past due when the renewal date has passed, active otherwise.
 */
const statusSql = (now: Date) => sql<AccountStatus>`CASE
  WHEN a.is_suspended_from_basic_renewal THEN 'suspended'
  WHEN a.renewal_due_at < ${now.toISOString()}::timestamptz THEN 'past_due'
  ELSE 'active' END`;

/**
 * What a search matches, as conditions over the alias `a`, each served by its own index: every
 * word in the name and city (accounts_search_trgm) or, for a search of one word, the account's
 * e-mail (accounts_email_trgm; both in one BitmapOr); the EIN, the 9 digits or a prefix of 2 to 8
 * (accounts_ein_unique); for one word, a user's e-mail (users_email_trgm). An account matching
 * several is found by each (customerRows takes their UNION) rather than by one OR over every
 * customer account.
 */
function searchParts(search: string): SQL[] {
  const term = search.toLowerCase();
  const words = [...new Set(term.split(/\s+/).filter(Boolean).slice(0, 8))];
  const named = sql.join(
    words.map((w) => sql`a.search_text LIKE ${`%${escapeLike(w)}%`}`),
    sql` AND `,
  );
  const oneWord = !/\s/.test(term);
  const like = `%${escapeLike(term)}%`;
  const parts: SQL[] = [oneWord ? sql`((${named}) OR lower(a.email) LIKE ${like})` : sql`(${named})`];
  const digits = term.replace(/[\s-]/g, '');
  if (/^\d{9}$/.test(digits)) parts.push(sql`a.ein = ${digits}`);
  else if (/^\d{2,8}$/.test(digits)) parts.push(sql`a.ein LIKE ${`${digits}%`}`);
  if (oneWord)
    parts.push(
      sql`a.id IN (SELECT su.account_id FROM users su WHERE lower(su.email) LIKE ${like} AND su.account_id IS NOT NULL)`,
    );
  return parts;
}

/** The WHERE conditions of the query's search and filters over the alias `a`. */
function conditions(q: AdminAccountsQuery, now: Date): SQL[] {
  const conds: SQL[] = [];
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  if (q.level) conds.push(sql`a.level_id = ${q.level}`);
  if (q.status === 'suspended') conds.push(sql`a.is_suspended_from_basic_renewal`);
  if (q.status === 'past_due') conds.push(sql`NOT a.is_suspended_from_basic_renewal AND a.renewal_due_at < ${nowSql}`);
  if (q.status === 'active')
    conds.push(
      sql`NOT a.is_suspended_from_basic_renewal AND (a.renewal_due_at IS NULL OR a.renewal_due_at >= ${nowSql})`,
    );
  if (q.renewal_due === 'overdue') conds.push(sql`a.renewal_due_at < ${nowSql}`);
  if (q.renewal_due === '30' || q.renewal_due === '90') {
    const until = new Date(now.getTime() + Number(q.renewal_due) * DAY_MS).toISOString();
    conds.push(sql`a.renewal_due_at >= ${nowSql} AND a.renewal_due_at < ${until}::timestamptz`);
  }
  return conds;
}

/** The query string of another page of the same search (for the page object's links). */
function pageUrl(q: AdminAccountsQuery, page: number): string {
  return `/api/admin/accounts?${listPageQuery({ search: q.search, level: q.level, status: q.status, renewal_due: q.renewal_due }, sortParam(q.sort), 'name', page)}`;
}

/** Accounts created by the product (not imported for the public search): the partial indexes accounts_customer_* cover exactly these. */
const OWN_ACCOUNT = sql`a.is_listed = false AND a.source <> 'irs-bmf'`;

/**
 * The customer accounts (`customerIds`) matching the search and `conds`, in `order`, at most
 * `limit`. With a search, the UNION of one LIMITed SELECT per part of `searchParts`, each reading
 * only the accounts its index finds (the caller orders and limits the union). Without one, two ordered, LIMITed halves: the
 * product's own accounts, walked along a partial index in the sort order (accounts_customer_*),
 * and imported IRS accounts that have users (accounts_imported): a page reads at most `limit`
 * rows of each instead of every customer.
 */
function customerRows(columns: SQL, search: string | undefined, conds: SQL[], order: SQL | null, limit: number): SQL {
  const extra = conds.length ? sql` AND ${sql.join(conds, sql` AND `)}` : sql``;
  const orderBy = order ? sql` ORDER BY ${order}` : sql``;
  const hasUsers = sql`EXISTS (SELECT 1 FROM users u0 WHERE u0.account_id = a.id)`;
  if (search) {
    // Each part reads the rows its index finds once, with the columns wanted, instead of
    // collecting ids first and reading those accounts a second time by primary key.
    const parts = searchParts(search).map(
      (part) =>
        sql`(SELECT ${columns} FROM accounts a WHERE ${part} AND (${OWN_ACCOUNT} OR ${hasUsers})${extra}${orderBy} LIMIT ${limit})`,
    );
    return sql.join(parts, sql` UNION `);
  }
  return sql`(SELECT ${columns} FROM accounts a WHERE ${OWN_ACCOUNT}${extra}${orderBy} LIMIT ${limit})
    UNION ALL
    (SELECT ${columns} FROM accounts a WHERE NOT (${OWN_ACCOUNT}) AND ${hasUsers}${extra}${orderBy} LIMIT ${limit})`;
}

/**
 * GET /api/admin/accounts (docs/requirements/entities.md "Search results page", docs/requirements/permissions.md): one page of customer
 * accounts (see `customerIds`; never the imported IRS subordinates), by name then id by default
 * (`sort`: name, ein, level (by the level's name), created_at, renewal_due_at, "-" for descending; ties by id), 20 a page, with the
 * levels to filter by. `search` matches every word in the name and city, or the EIN (9 digits
 * exactly, fewer as a prefix; a dash is ignored), or part of the account's or a user's e-mail;
 * `level`, `status` and `renewal_due` narrow it (docs/requirements/entities.md "Account"; statuses as ACCOUNT_STATUSES
 * explains; renewal_due '30'/'90': due within that many days, 'overdue': passed). The total is
 * counted a few pages ahead only (listCountCap, `total_is_capped`; docs/benchmarks.md "Staff lists at scale").
 * Reads accounts, users, levels; writes nothing (reading is not audited).
 * @param now the moment statuses and due dates are judged at (tests pass one)
 */
export async function listAdminAccounts(db: Db, q: AdminAccountsQuery, now = new Date()): Promise<AdminAccountsPage> {
  const cap = listCountCap(q.page, ADMIN_ACCOUNTS_PER_PAGE);
  const offset = (q.page - 1) * ADMIN_ACCOUNTS_PER_PAGE;
  // One pass finds the matching ids in order, up to the count cap: they give both the (capped)
  // total and this page's ids, so the search runs once per request, not once for the count and
  // again for the page.
  const ordered = await orderedIds(db, q, now, cap + 1);
  const capped = ordered.length > cap;
  const count = Math.min(ordered.length, cap);
  const data = await accountRows(db, ordered.slice(offset, offset + ADMIN_ACCOUNTS_PER_PAGE), now);
  const levels = await rowsOf<{ id: number; name: string }>(
    db,
    sql`SELECT id, name FROM levels ORDER BY sort_order, id`,
  );
  return {
    ...markCapped(
      buildPage(data, q.page, ADMIN_ACCOUNTS_PER_PAGE, count, (p) => pageUrl(q, p)),
      capped,
    ),
    levels,
  };
}

/** The column each sort of ADMIN_ACCOUNT_SORTS but `level` orders by (each has an accounts_customer_* index). */
const SORT_COLUMNS: Record<Exclude<AdminAccountsQuery['sort']['column'], 'level'>, string> = {
  name: 'name',
  created_at: 'created_at',
  renewal_due_at: 'renewal_due_at',
  ein: 'ein',
};

/** The ids of the customer accounts the query's search and filters match, in its order, at most `limit`. */
async function orderedIds(db: Db, q: AdminAccountsQuery, now: Date, limit: number): Promise<number[]> {
  if (q.sort.column === 'level') return idsByLevelName(db, q, now, limit);
  const column = sql.raw(SORT_COLUMNS[q.sort.column]);
  const dir = sql.raw(q.sort.desc ? 'DESC' : 'ASC');
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`
    SELECT c.id FROM (${customerRows(sql`a.id, a.${column} AS k`, q.search, conditions(q, now), sql`a.${column} ${dir}, a.id ${dir}`, limit)}) c
    ORDER BY c.k ${dir}, c.id ${dir} LIMIT ${limit}`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * The ids of the customer accounts the query matches by their level's name, then level id, then
 * account id (`sort=level`; accounts without a level last, first when descending), at most `limit`.
 * With a search, the few accounts it finds are sorted by the name looked up. Without one, each
 * level (a handful of rows) walks its own accounts along accounts_customer_level in id order, at
 * most `limit` of them, and only those candidates are sorted (docs/staff-lists.md): never every
 * customer account. Reads accounts, users, levels.
 */
async function idsByLevelName(db: Db, q: AdminAccountsQuery, now: Date, limit: number): Promise<number[]> {
  const dir = sql.raw(q.sort.desc ? 'DESC' : 'ASC');
  const conds = conditions(q, now);
  if (q.search) {
    const rows = await rowsOf<{ id: number }>(
      db,
      sql`
      SELECT c.id FROM (${customerRows(
        sql`a.id, a.level_id AS lid, (SELECT lv.name FROM levels lv WHERE lv.id = a.level_id) AS k`,
        q.search,
        conds,
        sql`k ${dir}, a.level_id ${dir}, a.id ${dir}`,
        limit,
      )}) c
      ORDER BY c.k ${dir}, c.lid ${dir}, c.id ${dir} LIMIT ${limit}`,
    );
    return rows.map((r) => Number(r.id));
  }
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`
    SELECT c.id FROM (
      SELECT lv.name AS k, lv.id AS lid, x.id FROM levels lv
        CROSS JOIN LATERAL (${customerRows(sql`a.id`, undefined, [...conds, sql`a.level_id = lv.id`], sql`a.id ${dir}`, limit)}) x
      UNION ALL
      SELECT NULL, NULL, y.id FROM (${customerRows(sql`a.id`, undefined, [...conds, sql`a.level_id IS NULL`], sql`a.id ${dir}`, limit)}) y
    ) c
    ORDER BY c.k ${dir}, c.lid ${dir}, c.id ${dir} LIMIT ${limit}`,
  );
  return rows.map((r) => Number(r.id));
}

/** The list rows of the accounts `ids`, in that order, with their status at `now`. */
async function accountRows(db: Db, ids: number[], now: Date): Promise<AdminAccountRow[]> {
  if (ids.length === 0) return [];
  const found = await rowsOf<{
    id: number;
    name: string;
    ein: string | null;
    city: string;
    state: string;
    level_id: number | null;
    level_name: string | null;
    renewal_due_at: Date | string | null;
    status: AccountStatus;
    primary_email: string | null;
    users_count: number | string;
  }>(
    db,
    sql`
    SELECT a.id, a.name, a.ein, a.city, a.state, a.level_id, l.name AS level_name, a.renewal_due_at,
      ${statusSql(now)} AS status,
      (SELECT pu.email FROM users pu WHERE pu.id = a.primary_user_id) AS primary_email,
      (SELECT count(*)::int FROM users cu WHERE cu.account_id = a.id) AS users_count
    FROM accounts a LEFT JOIN levels l ON l.id = a.level_id
    WHERE a.id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  const byId = new Map(found.map((r) => [Number(r.id), r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r) => r !== undefined)
    .map((r) => ({
      id: Number(r.id),
      name: r.name,
      ein: r.ein,
      city: r.city,
      state: r.state,
      level: r.level_id === null ? null : { id: r.level_id, name: r.level_name ?? '' },
      renewal_due_at: toIso(r.renewal_due_at),
      status: r.status,
      primary_email: r.primary_email,
      users_count: Number(r.users_count),
    }));
}

/** Accounts read per statement while exporting. */
const EXPORT_BATCH = 1_000;

/**
 * GET /api/admin/accounts/export.csv (docs/staff-lists.md "Export"): every customer account the
 * list's search and filters match (the page is ignored), in the list's order, at most
 * ADMIN_ACCOUNTS_EXPORT_CAP, as CSV: Name, EIN (12-3456789), City, State, Level, Renewal due
 * (YYYY-MM-DD, UTC), Status (in words), Primary user, Users, Account id. Staff only (the route's
 * access 'staff'). Reads accounts, users, levels; writes nothing.
 * @param now the moment statuses and due dates are judged at (tests pass one)
 */
export async function exportAdminAccountsCsv(db: Db, q: AdminAccountsQuery, now = new Date()): Promise<string> {
  const ids = await orderedIds(db, q, now, ADMIN_ACCOUNTS_EXPORT_CAP);
  const lines: CsvCell[][] = [];
  for (let i = 0; i < ids.length; i += EXPORT_BATCH) {
    for (const r of await accountRows(db, ids.slice(i, i + EXPORT_BATCH), now)) {
      lines.push([
        r.name,
        formatEin(r.ein),
        r.city,
        r.state,
        r.level?.name ?? '',
        r.renewal_due_at?.slice(0, 10) ?? '',
        ACCOUNT_STATUS_LABELS[r.status],
        r.primary_email ?? '',
        r.users_count,
        r.id,
      ]);
    }
  }
  return csvText(
    ['Name', 'EIN', 'City', 'State', 'Level', 'Renewal due', 'Status', 'Primary user', 'Users', 'Account id'],
    lines,
  );
}

/** A timestamp from a raw row (Date from node-postgres, string or Date from PGlite) as ISO 8601. */
function toIso(v: Date | string | null): string | null {
  if (v === null) return null;
  return (v instanceof Date ? v : new Date(v)).toISOString();
}
