import { routeAt } from './contracts/contract.ts';
import type { siteContracts } from './contracts/site.ts';

/**
 * Data a public page asks the API for and the server also loads for its own render of the page,
 * under the same query key (contract.ts `queryKeyOf`, the route's URL with no input), so the server's HTML shows the data and the browser's first render
 * matches it. A route of the router names the queries its page shows in its `handle`
 * ({@link PageHandle}, src/web/router.tsx); the server loads those (src/server/modules/pages/server-render.ts).
 */
export const PAGE_QUERY = {
  /** GET /api/pricing → `{ levels }` (docs/requirements/product.md pricing). */
  pricing: { route: routeAt<typeof siteContracts.pricing>('GET', '/api/pricing') },
  /** GET /api/state-requirements → `{ states }`. */
  stateRequirements: { route: routeAt<typeof siteContracts.stateRequirements>('GET', '/api/state-requirements') },
} as const;

/** The name of a page query. */
export type PageQueryName = keyof typeof PAGE_QUERY;

/** The `handle` of a route of src/web/router.tsx: the page queries its page shows. */
export interface PageHandle {
  pageQueries?: readonly PageQueryName[];
}
