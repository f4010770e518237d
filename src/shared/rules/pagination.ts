/** Page object of docs/requirements/entities.md "Search results page". */
export interface PageObject<T> {
  current_page: number;
  data: T[];
  from: number | null;
  to: number | null;
  last_page: number;
  per_page: number;
  total: number;
  next_page_url: string | null;
  prev_page_url: string | null;
  /**
   * Present and true when `total` is where the list stopped counting (the staff lists count a few
   * pages ahead only: listCountCap, shared/schemas/list-params.ts): there are more rows than that.
   */
  total_is_capped?: boolean;
}

/** Pages shown either side of the current one (docs/requirements/constants.md). */
export const PAGINATION_SIBLINGS = 3;
/** Page size assumed when a page object carries none (docs/requirements/constants.md). */
export const FALLBACK_PER_PAGE = 2;

/** Pagination is shown only when the total exceeds the page size (docs/requirements/constants.md). */
export function isPaginationShown(page: Pick<PageObject<unknown>, 'total' | 'per_page'>): boolean {
  return page.total > (page.per_page || FALLBACK_PER_PAGE);
}

/**
 * Page numbers to show: the first, the last, and 3 either side of the current page; gaps are
 * 'dots'. Pages are 1-based. Example: (10, 20) -> [1,'dots',7,8,9,10,11,12,13,'dots',20].
 */
export function pageWindow(current: number, lastPage: number): (number | 'dots')[] {
  const pages = new Set<number>([1, lastPage]);
  for (let p = current - PAGINATION_SIBLINGS; p <= current + PAGINATION_SIBLINGS; p++) {
    if (p >= 1 && p <= lastPage) pages.add(p);
  }
  const sorted = [...pages].filter((p) => p >= 1).sort((a, b) => a - b);
  const out: (number | 'dots')[] = [];
  for (const p of sorted) {
    const prev = out[out.length - 1];
    if (typeof prev === 'number' && p - prev > 1) out.push('dots');
    out.push(p);
  }
  return out;
}

/**
 * Builds the page object for `rows` of page `page` (1-based) of `perPage` items out of `total`.
 * `urlFor(page)` gives the address of another page.
 */
export function buildPage<T>(
  rows: T[],
  page: number,
  perPage: number,
  total: number,
  urlFor: (page: number) => string,
): PageObject<T> {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const from = rows.length ? (page - 1) * perPage + 1 : null;
  return {
    current_page: page,
    data: rows,
    from,
    to: from === null ? null : from + rows.length - 1,
    last_page: lastPage,
    per_page: perPage,
    total,
    next_page_url: page < lastPage ? urlFor(page + 1) : null,
    prev_page_url: page > 1 ? urlFor(Math.min(page - 1, lastPage)) : null,
  };
}
