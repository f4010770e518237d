import { useSearchParams } from 'react-router';

/**
 * A staff list's filters, search and order as the page's address keeps them (docs/staff-lists.md),
 * so a filtered list can be reloaded, bookmarked or sent to a colleague.
 * @param keys the query parameters the list takes besides `page`, e.g. ['search', 'status', 'sort']
 * @returns `current` (each key's value, '' when unset), the 1-based `page`, `query` (the set values,
 *   for the API call and the CSV export link), `filtered` (a filter or search other than the order is
 *   set) and `go(change)`, which writes new values over the address as it is now (`addressParams`);
 *   anything but a page change starts again at page 1.
 */
export function useListFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const current = valuesOf(params, keys);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = setValues(current);
  const go = (change: Partial<Record<K, string>> & { page?: number }) => {
    const { page: nextPage, ...values } = change;
    const out = setValues({ ...valuesOf(addressParams(), keys), ...values } as Record<K, string>);
    if (nextPage && nextPage > 1) out.page = String(nextPage);
    setParams(out);
  };
  const filtered = keys.some((k) => k !== 'sort' && current[k]);
  return { current, page, query, filtered, go };
}

/**
 * The query of the address as it is now, for a change to build on. React Router draws a new address
 * as a transition, so under load the list on screen, and the values its render holds, can be a step
 * behind the address: a filter picked right after a search, before the list has redrawn, would
 * otherwise drop the search (docs/staff-lists.md). Call it from event handlers only.
 */
export function addressParams(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}

/** Each key's value in `params`, '' when unset. */
function valuesOf<K extends string>(params: URLSearchParams, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
}

/** The values that are set, trimmed, as query parameters. */
function setValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .map(([k, v]) => [k, (v ?? '').trim()])
      .filter(([, v]) => v),
  );
}
