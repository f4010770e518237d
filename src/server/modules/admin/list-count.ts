import { sql, type Column, type SQL } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { escapeLike } from '../../db/sql-like.ts';
import type { PageObject } from '../../../shared/rules/pagination.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Counts the rows of `rows` (a SELECT of the list's rows, any columns) up to `cap` (listCountCap of
 * the page), so a page of a list over a million rows never counts them all (docs/benchmarks.md
 * "Staff lists at scale").
 * @returns total (at most `cap`) and whether there are more rows than that
 */
export async function cappedCount(db: DbOrTx, rows: SQL, cap: number): Promise<{ total: number; capped: boolean }> {
  const [row] = await rowsOf<{ n: number | string }>(
    db,
    sql`SELECT count(*)::int AS n FROM (${rows} LIMIT ${cap + 1}) counted`,
  );
  const n = Number(must(row, 'the count').n);
  return n > cap ? { total: cap, capped: true } : { total: n, capped: false };
}

/** `page` with `total_is_capped: true` when the count stopped at the cap (unchanged otherwise). */
export function markCapped<P extends PageObject<unknown>>(page: P, capped: boolean): P {
  return capped ? { ...page, total_is_capped: true } : page;
}

/** Up to 8 distinct lower-case words of a search, each as a LIKE pattern '%word%'. */
export function wordPatterns(search: string): string[] {
  return [...new Set(search.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8))].map((w) => `%${escapeLike(w)}%`);
}

/**
 * Ids of accounts whose name or city (accounts.search_text, pg_trgm GIN index accounts_search_trgm)
 * contains every word of `search`, as a subquery for `account_id IN (…)`.
 */
export function accountsNamed(search: string): SQL {
  const conds = wordPatterns(search).map((p) => sql`sa.search_text LIKE ${p}`);
  return sql`(SELECT sa.id FROM accounts sa WHERE ${sql.join(conds, sql` AND `)})`;
}

/** Most ids a search is resolved to before a list keeps it as a subquery (see {@link inResolvedIds}). */
const MAX_RESOLVED_IDS = 5_000;

/**
 * `column IN ids` for a list whose count and page both filter by a search's matches (accounts
 * named, users by e-mail): `ids` (a parenthesised SELECT of one integer column, as accountsNamed
 * gives) runs once here, and the count and the page then test the ids found instead of searching
 * the trigram indexes again each. With the ids as a constant the planner also knows how many rows
 * match. A search matching more than `max` (default MAX_RESOLVED_IDS) keeps the subquery (an array
 * that large would cost more to send and plan than the search). Requirement: docs/benchmarks.md
 * "Staff lists at scale". Reads what `ids` reads; writes nothing.
 * @returns `column = ANY('{…}'::int[])`, `false` when nothing matched, or `column IN ids`
 */
export async function inResolvedIds(db: DbOrTx, column: SQL | Column, ids: SQL, max = MAX_RESOLVED_IDS): Promise<SQL> {
  return (await resolvedIds(db, column, ids, max)).condition;
}

/**
 * {@link inResolvedIds}, also saying whether the search stayed a subquery (`many`: more than `max`
 * matched), for a list that then filters the matches another way.
 * @returns `{ condition, many }`
 */
export async function resolvedIds(
  db: DbOrTx,
  column: SQL | Column,
  ids: SQL,
  max = MAX_RESOLVED_IDS,
): Promise<{ condition: SQL; many: boolean }> {
  const found = await rowsOf<{ id: number | string }>(db, sql`SELECT m.id FROM ${ids} AS m(id) LIMIT ${max + 1}`);
  if (found.length > max) return { condition: sql`${column} IN ${ids}`, many: true };
  if (!found.length) return { condition: sql`false`, many: false };
  return { condition: sql`${column} = ANY(${`{${found.map((r) => Number(r.id)).join(',')}}`}::int[])`, many: false };
}
