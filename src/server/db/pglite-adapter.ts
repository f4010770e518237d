import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';

/** The calls Drizzle's PGlite session makes on its client (query, exec, transaction). */
export interface PgliteQueryClient {
  query: PGlite['query'];
  exec: PGlite['exec'];
  transaction<T>(fn: (tx: PgliteQueryClient) => Promise<T>): Promise<T>;
}

/**
 * Wraps a ready PGlite instance for Drizzle so that queries stop paying for Drizzle's per-query
 * type parsers (DESIGN §6, PGlite throughput).
 *
 * Drizzle passes the same small `parsers` option with every query (timestamps, dates, intervals
 * and their arrays kept as text, which Drizzle's columns then map). PGlite merges a per-query
 * `parsers` option into a copy of its whole parser table (about 350 types with the array types)
 * for every result: measured at half the CPU time of a `SELECT 1` and a quarter of a form
 * submit's insert. Here the first such option is installed into the client's own table once and
 * later queries carrying the same set of type ids are sent without it, so every result is parsed
 * exactly as before. A query with any other parsers is passed through untouched.
 *
 * Call after `PGlite.create` has resolved: PGlite fills its array-type parsers during start-up
 * and would overwrite the installed ones otherwise.
 */
export function pgliteForDrizzle(client: PGlite): PgliteQueryClient {
  let installed: Set<string> | undefined;
  const shared = (options: QueryOptions | undefined): QueryOptions | undefined => {
    if (!options?.parsers) return options;
    const keys = Object.keys(options.parsers);
    if (!installed) {
      Object.assign(client.parsers, options.parsers);
      installed = new Set(keys);
    }
    if (keys.length !== installed.size || !keys.every((k) => installed!.has(k))) return options;
    const { parsers: _parsers, ...rest } = options;
    return rest;
  };
  const wrap = (target: Pick<PGlite | Transaction, 'query' | 'exec'>) => ({
    query: ((text: string, params?: unknown[], options?: QueryOptions) => target.query(text, params, shared(options))) as PGlite['query'],
    exec: ((text: string, options?: QueryOptions) => target.exec(text, shared(options))) as PGlite['exec'],
  });
  return {
    ...wrap(client),
    transaction: (fn) => client.transaction((tx) => fn({ ...wrap(tx), transaction: () => Promise.reject(new Error('nested PGlite transactions are savepoints in Drizzle')) })),
  };
}
