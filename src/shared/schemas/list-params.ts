import { z } from 'zod';
import { stripControl } from '../validation.ts';

/**
 * Search and sort of the staff lists (docs/benchmarks.md "Staff lists at scale"): the query
 * parameters `search` (free text, up to 100 characters) and `sort` (a column the list allows, with
 * a leading "-" for descending order, e.g. `sort=-created_at`), checked by each list's zod schema,
 * so an unknown column answers 422 with the list of allowed ones.
 */

/** Longest search text a list accepts. */
export const LIST_SEARCH_MAX = 100;

/**
 * How far past the current page the staff lists count: the rows of this many more pages (the
 * pagination shows 3 either side of the current page) plus one, never every row. A page object's
 * `total` is then at most (page + 4) × per page, and `total_is_capped` says the count stopped
 * there: there are more rows, and the last page shown is not the last one. Counting a million
 * audit rows for a page number is not worth the time; narrow the search or page on instead.
 */
export const LIST_COUNT_LOOKAHEAD_PAGES = 4;

/** The most rows a staff list counts for `page` (1-based) of `perPage` rows. */
export const listCountCap = (page: number, perPage: number) => (page + LIST_COUNT_LOOKAHEAD_PAGES) * perPage;

/** A parsed `sort`: the column and the direction. */
export interface ListSort<C extends string> {
  column: C;
  desc: boolean;
}

/** The optional `search` parameter: trimmed, control characters removed (they never match), empty means none. */
export const listSearch = z.preprocess(
  (v) => (typeof v === 'string' ? stripControl(v).trim() || undefined : v === '' || v === null ? undefined : v),
  z
    .string({ error: 'The search must be text.' })
    .max(LIST_SEARCH_MAX, `The search may not be greater than ${LIST_SEARCH_MAX} characters.`)
    .optional(),
);

/**
 * The `sort` parameter of a list: one of `columns`, optionally prefixed with "-" (descending);
 * empty or absent means `fallback`. Anything else fails with "The sort must be one of: …".
 * @returns a zod schema whose output is ListSort of those columns
 */
export function listSort<const C extends readonly [string, ...string[]]>(
  columns: C,
  fallback: `${C[number]}` | `-${C[number]}`,
) {
  const allowed = columns.flatMap((c) => [c, `-${c}`]);
  const message = `The sort must be one of: ${allowed.join(', ')}.`;
  return z
    .preprocess(
      (v) => (v === undefined || v === null || v === '' ? fallback : v),
      z.string({ error: message }).refine((v) => allowed.includes(v), message),
    )
    .transform((v): ListSort<C[number]> => ({
      column: (v.startsWith('-') ? v.slice(1) : v) as C[number],
      desc: v.startsWith('-'),
    }));
}

/** The `sort` value that gives `s` back (for the page object's links). */
export const sortParam = (s: ListSort<string>) => `${s.desc ? '-' : ''}${s.column}`;

/**
 * The query string of another page of a staff list (the page object's links, docs/staff-lists.md):
 * the filters that are set, in the order given, the sort unless it is the list's default, and the
 * 1-based `page`. No leading "?".
 */
export function listPageQuery(
  filters: Record<string, string | number | null | undefined>,
  sort: string,
  defaultSort: string,
  page: number,
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  if (sort !== defaultSort) params.set('sort', sort);
  params.set('page', String(page));
  return params.toString();
}
