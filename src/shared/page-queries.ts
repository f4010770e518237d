/**
 * Data a public page asks the API for and the server also loads for its own render of the page
 * (src/server/modules/pages/page-queries.ts), under the same query key, so the server's HTML shows
 * the data and the browser's first render matches it.
 */
export const PAGE_QUERY = {
  /** GET /api/pricing → `{ levels }` (docs/requirements/product.md pricing). */
  pricing: { queryKey: ['pricing'], url: '/api/pricing' },
  /** GET /api/state-requirements → `{ states }`. */
  stateRequirements: { queryKey: ['state-requirements'], url: '/api/state-requirements' },
} as const;
