import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema.ts';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';
import { SEARCH_PER_PAGE, type SubordinateRow } from '../../../shared/schemas/search.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Keyword search over the listed subordinates (SPEC tool 16): every word of `keyword` must occur
 * in the name, legal name or secondary name (case-insensitive, served by the pg_trgm index).
 * Ordered by name. An empty keyword lists everything.
 * @param page 1-based; a page past the end returns an empty `data` with the right totals
 * @param urlFor builds next/prev page addresses
 * @returns the SPEC §3 page object
 */
export async function searchSubordinates(
  db: Db,
  keyword: string,
  page: number,
  urlFor: (page: number) => string,
): Promise<PageObject<SubordinateRow>> {
  const words = keyword.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  const conditions: SQL[] = [eq(accounts.isListed, true)];
  for (const w of words) conditions.push(sql`${accounts.searchText} LIKE ${`%${escapeLike(w)}%`}`);
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(accounts).where(where);
  const rows = total === 0 ? [] : await db
    .select({ id: accounts.id, name: accounts.name, city: accounts.city, state: accounts.state })
    .from(accounts)
    .where(where)
    .orderBy(asc(accounts.name), asc(accounts.id))
    .limit(SEARCH_PER_PAGE)
    .offset((page - 1) * SEARCH_PER_PAGE);
  return buildPage(rows, page, SEARCH_PER_PAGE, total, urlFor);
}
