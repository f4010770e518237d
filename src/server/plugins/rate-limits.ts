import { createRequire } from 'node:module';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { batchedHits, type BatchedKey } from '../db/batched-hits.ts';
import { rowsOf } from '../db/rows-of.ts';
import { rateLimits } from '../db/schema.ts';
import type { Db } from '../db/client.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Per-route rate-limit settings for @fastify/rate-limit (docs/requirements/platform.md §5.4): keyed by client address
 * (req.ip: the nearest address TRUST_PROXY does not name), counted per minute. With
 * RATE_LIMIT_STORE=database every server process on the database counts together.
 */
export function perMinute(max: number, keyExtra?: (req: FastifyRequest) => string) {
  return {
    max,
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => (keyExtra ? `${req.ip}|${keyExtra(req)}` : req.ip),
  };
}

/**
 * Like {@link perMinute}, but always counted in this process, even with RATE_LIMIT_STORE=database:
 * for read-only routes whose limit only guards the server's own load (the subordinate search, the
 * routing-number lookup). A shared counter would write on every read, and on PostgreSQL any write
 * makes the search count its totals again (see countMatches). Behind a load balancer with N
 * processes a client may make up to N times `max` such reads a minute.
 */
export function perMinuteInProcess(max: number) {
  return { ...perMinute(max), countedIn: 'process' as const };
}

/** @fastify/rate-limit's own in-memory store (not part of its typed API). */
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => FastifyRateLimitStore;

/** What @fastify/rate-limit passes to a store's child(): the route's merged settings. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
  countedIn?: 'process';
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  cache?: number;
}

/** A key's count after a hit: hits in the current window (this one included), ms until it ends. */
export interface RateLimitCount {
  current: number;
  ttl: number;
}

/**
 * Counts hits of several keys in the rate_limits table with one atomic upsert: a key with no row,
 * or whose window has ended, starts a new window (its hits, reset at now + windowMs); otherwise its
 * hits are added. The database's clock decides, so every process agrees on the window.
 * @param hits distinct keys in key order, each with how many hits (≥ 1) and its window in milliseconds
 * @returns per key: the hits counted in the current window after these, and ms until it ends
 */
async function countRateLimitHits(
  db: Db,
  hits: BatchedKey<{ windowMs: number }>[],
): Promise<Map<string, RateLimitCount>> {
  const batch = JSON.stringify(hits.map((h) => ({ k: h.key, n: h.hits, w: h.params.windowMs })));
  const rows = await rowsOf<{ key: string; hits: number; ttl: number }>(
    db,
    sql`INSERT INTO ${rateLimits} AS r (key, hits, reset_at)
    SELECT t.k, t.n, now() + make_interval(secs => t.w / 1000.0) FROM json_to_recordset(${batch}::json) AS t(k text, n int, w int)
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.reset_at <= now() THEN excluded.hits ELSE r.hits + excluded.hits END,
      reset_at = CASE WHEN r.reset_at <= now() THEN excluded.reset_at ELSE r.reset_at END
    RETURNING key, hits, greatest(0, ceil(extract(epoch FROM r.reset_at - now()) * 1000))::int AS ttl`,
  );
  return new Map(rows.map((row) => [row.key, { current: Number(row.hits), ttl: Number(row.ttl) }]));
}

/**
 * Counts single hits through {@link countRateLimitHits}, batched (db/batched-hits.ts): hits
 * arriving while a statement runs go out together in the next one.
 * @returns count(key, windowMs): the key's count with this hit (several hits of one key in a batch
 *   get consecutive counts); rejects with the database's error
 */
export function rateLimitHitCounter(db: Db): (key: string, windowMs: number) => Promise<RateLimitCount> {
  const hit = batchedHits((batch: BatchedKey<{ windowMs: number }>[]) => countRateLimitHits(db, batch));
  return async (key, windowMs) => {
    const { result, index, hits } = await hit(key, { windowMs });
    // The batch's hits of one key are the last `hits` of its count, in arrival order.
    return { current: result.current - hits + 1 + index, ttl: result.ttl };
  };
}

/**
 * Deletes the counters whose window has ended (rate_limits rows past reset_at). Rows a hit is
 * counting on right now are skipped (left for the next sweep): waiting for them while holding
 * others could deadlock with a batch of hits.
 * @returns how many rows were deleted
 */
export async function sweepRateLimits(db: Db): Promise<number> {
  const result = (await db.execute(sql`DELETE FROM ${rateLimits} WHERE key IN (
    SELECT key FROM ${rateLimits} WHERE reset_at < now() FOR UPDATE SKIP LOCKED)`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  // node-postgres answers rowCount, PGlite affectedRows.
  return result.rowCount ?? result.affectedRows ?? 0;
}

/**
 * A store class for @fastify/rate-limit (its `store` option) counting in the rate_limits table
 * through `db` (batched by {@link rateLimitHitCounter}), keyed by route (`METHOD url`) and the route's key. Routes marked
 * {@link perMinuteInProcess} get the library's in-memory store instead. continueExceeding and
 * exponentialBackoff are not supported (no route uses them).
 */
function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  const count = rateLimitHitCounter(db);
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    constructor(_options?: unknown, prefix = '') {
      this.prefix = prefix;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      count(`${this.prefix}${key}`, timeWindow).then(
        (res) => callback(null, res),
        (err: Error) => callback(err),
      );
    }

    child(route: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // Typed as the route, but in fact the route's merged rate-limit settings with `routeInfo`.
      const routeOptions = route as unknown as ChildOptions;
      if (routeOptions.countedIn === 'process') {
        return new LocalStore(false, false, routeOptions.cache);
      }
      const method = [routeOptions.routeInfo?.method ?? ''].flat().join(',');
      return new DatabaseRateLimitStore(undefined, `${method} ${routeOptions.routeInfo?.url ?? ''}|`);
    }
  }
  return DatabaseRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}

/** How often expired counters are deleted. */
const SWEEP_MS = 60_000;

/**
 * Registers @fastify/rate-limit for the routes that set `config.rateLimit` (docs/requirements/platform.md §5.4): 429 with
 * `{ statusCode, message }` past the limit. Counts in this process, or in the database when
 * `config.rateLimitStore` is 'database' (then also sweeps expired counters once a minute, until
 * the app closes).
 */
export const rateLimitsPlugin = fp(async (app: FastifyInstance) => {
  const shared = app.config.rateLimitStore === 'database';
  await app.register(rateLimit, {
    global: false,
    ...(shared ? { store: databaseRateLimitStore(app.db) } : {}),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      message: `Too many requests. Please wait ${Math.ceil(ctx.ttl / 1000)} seconds and try again.`,
    }),
  });
  if (shared) {
    const sweep = setInterval(() => {
      sweepRateLimits(app.db).catch((err: unknown) => app.log.warn({ err }, 'rate-limit sweep failed'));
    }, SWEEP_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  }
});
