import { getTableName, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';
import { SEARCH_PER_PAGE, type SubordinateRow } from '../../../shared/schemas/search.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { accounts } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-like.ts';
import type { Db } from '../../db/client.ts';

/** Keyword words as matched: lower-case, the first 8, without repeats or words inside another word. */
function searchWords(keyword: string): string[] {
  const words = [...new Set(keyword.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8))];
  // "a" inside "club" adds nothing to an AND of substring tests.
  return words.filter((w, i) => !words.some((other, j) => j !== i && other.includes(w)));
}

const listed = sql`${accounts.isListed} = true`;

/** Every word as `search_text LIKE '%word%'`: the form the pg_trgm GIN index serves. */
const likeWhere = (words: string[]) =>
  sql.join([listed, ...words.map((w) => sql`${accounts.searchText} LIKE ${`%${escapeLike(w)}%`}`)], sql` AND `);

/** pg_trgm extracts trigrams only from 3 alphanumerics in a row; shorter words need a full scan. */
const hasTrigram = (words: string[]) => words.some((w) => /[\p{L}\p{N}]{3}/u.test(w));

interface CountEntry {
  snapshot: string;
  total: number;
}
const COUNT_CACHE_SIZE = 500;
const countCaches = new WeakMap<Db, Map<string, CountEntry>>();

/**
 * Exact number of listed accounts matching every word. Counting a very common word reads most of
 * the table (~100 ms on PGlite), so a total is kept with the snapshot it was counted in
 * (pg_current_snapshot(): xmin, xmax and in-progress ids) and reused only while the database still
 * answers that same snapshot, i.e. while no transaction has written anything since: the total
 * is always the one a fresh count would give. One statement either way.
 */
async function countMatches(db: Db, words: string[]): Promise<number> {
  let cache = countCaches.get(db);
  if (!cache) countCaches.set(db, (cache = new Map()));
  const key = [...words].sort().join('\u0000');
  const hit = cache.get(key);
  const counted = sql`(SELECT count(*)::int FROM ${accounts} WHERE ${likeWhere(words)})`;
  const [row] = await rowsOf<{ snapshot: string; total: number | string }>(
    db,
    hit
      ? sql`SELECT pg_current_snapshot()::text AS snapshot,
        CASE WHEN pg_current_snapshot()::text = ${hit.snapshot} THEN ${hit.total}::int ELSE ${counted} END AS total`
      : sql`SELECT pg_current_snapshot()::text AS snapshot, ${counted} AS total`,
  );
  const total = Number(row.total);
  cache.delete(key);
  cache.set(key, { snapshot: row.snapshot, total });
  if (cache.size > COUNT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return total;
}

interface PlanningFacts {
  /** Listed accounts. */
  listed: number;
  /** Most pages are all-visible (VACUUM has run), so a walk of the name index is index-only. */
  isIndexOnly: boolean;
}
const planningFacts = new WeakMap<Db, { value: Promise<PlanningFacts>; expires: number }>();

/**
 * What the plan choice needs to know, kept for 5 minutes whatever is written meanwhile (a plan
 * chosen on slightly old facts is still right enough): the exact listed count, and whether
 * VACUUM has marked the table's pages all-visible (PGlite has no autovacuum, so after an import
 * it has not until someone runs VACUUM).
 */
function factsForPlanning(db: Db): Promise<PlanningFacts> {
  const hit = planningFacts.get(db);
  if (hit && hit.expires > Date.now()) return hit.value;
  const value = (async () => {
    const listed = await countMatches(db, []);
    const [rel] = await rowsOf<{ pages: number; visible: number }>(
      db,
      sql`SELECT relpages AS pages, relallvisible AS visible FROM pg_class WHERE oid = to_regclass(${getTableName(accounts)})`,
    );
    return { listed, isIndexOnly: !!rel && rel.pages > 0 && rel.visible >= 0.8 * rel.pages };
  })();
  planningFacts.set(db, { value, expires: Date.now() + 5 * 60_000 });
  value.catch(() => planningFacts.delete(db));
  return value;
}

type Row = SubordinateRow;

/**
 * Walks the accounts_listed_name index in name order from whichever end is nearer, testing each
 * row, until the page is full: cheap when matches are dense. With `budget`, gives up (null) after
 * that many index entries. Sort, bitmap and full-scan plans are switched off for this statement:
 * PGlite has no autovacuum, so the planner often has no statistics and would sort the whole table.
 */
async function pageByNameWalk(
  db: Db,
  words: string[],
  offset: number,
  limit: number,
  total: number,
  budget?: number,
): Promise<Row[] | null> {
  const backward = total - offset < offset + limit;
  const skip = backward ? total - offset - limit : offset;
  const dir = backward ? sql.raw('DESC') : sql.raw('ASC');
  const walked = sql`SELECT id, name, city, state, search_text FROM ${accounts}
    WHERE is_listed = true ORDER BY name ${dir}, id ${dir}${budget === undefined ? sql`` : sql` LIMIT ${budget}`}`;
  const tests = words.map((w) => sql` AND strpos(w.search_text, ${w}) > 0`);
  const rows = await db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`,
    );
    return rowsOf<Row>(
      tx,
      sql`SELECT w.id, w.name, w.city, w.state FROM (${walked}) w WHERE true${sql.join(tests, sql``)}
      ORDER BY w.name ${dir}, w.id ${dir} LIMIT ${limit} OFFSET ${skip}`,
    );
  });
  if (budget !== undefined && rows.length < limit) return null;
  return backward ? rows.reverse() : rows;
}

/** Collects every match (trigram index, or one scan for short words), then sorts: cheap when matches are few. */
function pageBySortedMatches(db: Db, words: string[], offset: number, limit: number): Promise<Row[]> {
  return rowsOf<Row>(
    db,
    sql`WITH m AS MATERIALIZED (SELECT id, name, city, state FROM ${accounts} WHERE ${likeWhere(words)})
    SELECT id, name, city, state FROM m ORDER BY name, id LIMIT ${limit} OFFSET ${offset}`,
  );
}

/**
 * Walks that ran out of budget, by keyword and direction: the position (matches from that end)
 * that failed. A page at least as deep in the same direction goes straight to the sort for 5
 * minutes: the matches of "lutheran" bunch up far from the start of the alphabet, whatever the
 * spread of the whole list suggests. Only the plan is remembered, never rows.
 */
const FAILED_WALKS_SIZE = 500;
const failedWalkCaches = new WeakMap<Db, Map<string, { position: number; expires: number }>>();
const walkKey = (words: string[], forward: boolean) => `${forward ? '>' : '<'}${[...words].sort().join('\u0000')}`;
function failedWalks(db: Db) {
  let cache = failedWalkCaches.get(db);
  if (!cache) failedWalkCaches.set(db, (cache = new Map()));
  return cache;
}
function rememberFailedWalk(db: Db, key: string, position: number) {
  const cache = failedWalks(db);
  const old = cache.get(key);
  cache.delete(key);
  cache.set(key, {
    position: old && old.expires > Date.now() ? Math.min(old.position, position) : position,
    expires: Date.now() + 5 * 60_000,
  });
  if (cache.size > FAILED_WALKS_SIZE) cache.delete(cache.keys().next().value as string);
}

/**
 * One page of matches in (name, id) order. Many matches: walk the name index (the first page of
 * "inc" reads ~30 index entries). Few matches: collect them through the trigram index and sort
 * them. In between, a walk is tried with a budget worth what collecting costs (an index-only
 * entry costs ~0.3 collected rows, an entry that visits the table ~2), so a keyword whose matches
 * bunch up at one end of the alphabet costs at most twice the sort.
 */
async function pageOfMatches(db: Db, words: string[], offset: number, limit: number, total: number): Promise<Row[]> {
  if (!words.length)
    return must(await pageByNameWalk(db, words, offset, limit, total), 'a page of the name walk without keywords');
  const trigram = hasTrigram(words);
  if (trigram && total <= 1000) return pageBySortedMatches(db, words, offset, limit);
  const facts = await factsForPlanning(db);
  const listedRows = Math.max(facts.listed, total);
  const entryCost = facts.isIndexOnly ? 0.3 : 2;
  // Matches counted from the nearer end; index entries a walk visits if matches are spread
  // evenly; rows the sort-all plan reads.
  const position = Math.min(offset + limit, total - offset);
  const expected = (position * listedRows) / total;
  const collected = trigram ? total : listedRows;
  const key = walkKey(words, offset + limit <= total - offset);
  const failed = failedWalks(db).get(key);
  if (expected * entryCost <= collected && !(failed && failed.expires > Date.now() && position >= failed.position)) {
    const rows = await pageByNameWalk(db, words, offset, limit, total, Math.ceil(collected / entryCost));
    if (rows) return rows;
    rememberFailedWalk(db, key, position);
  }
  return pageBySortedMatches(db, words, offset, limit);
}

/**
 * Keyword search over the listed subordinates (docs/requirements/product.md tool 16): every word of `keyword` must occur
 * in the name, secondary name or city (case-insensitive, served by the pg_trgm index).
 * Ordered by name. An empty keyword lists everything.
 * Reads: an exact count (reused while nothing was written, see countMatches), then one page,
 * either by walking the name index (many matches) or by sorting the matches (few matches).
 * @param page 1-based; a page past the end returns an empty `data` with the right totals
 * @param urlFor builds next/prev page addresses
 * @returns the docs/requirements/entities.md page object
 */
export async function searchSubordinates(
  db: Db,
  keyword: string,
  page: number,
  urlFor: (page: number) => string,
): Promise<PageObject<SubordinateRow>> {
  const words = searchWords(keyword);
  const total = await countMatches(db, words);
  const offset = (page - 1) * SEARCH_PER_PAGE;
  const rows =
    offset < total ? await pageOfMatches(db, words, offset, Math.min(SEARCH_PER_PAGE, total - offset), total) : [];
  return buildPage(
    rows.map((r) => ({ id: r.id, name: r.name, city: r.city, state: r.state })),
    page,
    SEARCH_PER_PAGE,
    total,
    urlFor,
  );
}
