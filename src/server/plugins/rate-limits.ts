import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';

/**
 * Per-route rate-limit settings for @fastify/rate-limit (DESIGN §5.4): keyed by client address
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
  continueExceeding: boolean, exponentialBackoff: boolean, cache?: number,
) => FastifyRateLimitStore;

/** What @fastify/rate-limit passes to a store's child(): the route's merged settings. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
  countedIn?: 'process';
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  cache?: number;
}

/**
 * Counts one hit of `key` in the rate_limits table: one atomic upsert that starts a new window
 * (hits 1, reset at now + windowMs) when there is no row or its window has ended, and adds one
 * otherwise. The database's clock decides, so every process agrees on the window.
 * @param windowMs the window's length in milliseconds
 * @returns the hits counted in the current window, and milliseconds until it ends
 */
export async function countRateLimitHit(db: Db, key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
  const result = await db.execute(sql`INSERT INTO ${rateLimits} AS r (key, hits, reset_at)
    VALUES (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
      reset_at = CASE WHEN r.reset_at <= now() THEN excluded.reset_at ELSE r.reset_at END
    RETURNING hits, greatest(0, ceil(extract(epoch FROM r.reset_at - now()) * 1000))::int AS ttl`);
  const [row] = (result as unknown as { rows: { hits: number; ttl: number }[] }).rows;
  return { current: Number(row.hits), ttl: Number(row.ttl) };
}

/**
 * Deletes the counters whose window has ended (rate_limits rows past reset_at).
 * @returns how many rows were deleted
 */
export async function sweepRateLimits(db: Db): Promise<number> {
  const result = (await db.execute(sql`DELETE FROM ${rateLimits} WHERE reset_at < now()`)) as unknown as { rowCount?: number | null; affectedRows?: number };
  // node-postgres answers rowCount, PGlite affectedRows.
  return result.rowCount ?? result.affectedRows ?? 0;
}

/**
 * A store class for @fastify/rate-limit (its `store` option) counting in the rate_limits table
 * through `db`, keyed by route (`METHOD url`) and the route's key. Routes marked
 * {@link perMinuteInProcess} get the library's in-memory store instead. continueExceeding and
 * exponentialBackoff are not supported (no route uses them).
 */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(_options?: unknown, private readonly prefix = '') {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      countRateLimitHit(db, `${this.prefix}${key}`, timeWindow).then((res) => callback(null, res), (err: Error) => callback(err));
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
 * Registers @fastify/rate-limit for the routes that set `config.rateLimit` (DESIGN §5.4): 429 with
 * `{ statusCode, message }` past the limit. Counts in this process, or in the database when
 * `config.rateLimitStore` is 'database' (then also sweeps expired counters once a minute, until
 * the app closes).
 */
export const rateLimitsPlugin = fp(async (app: FastifyInstance) => {
  const shared = app.config.rateLimitStore === 'database';
  await app.register(rateLimit, {
    global: false,
    ...(shared ? { store: databaseRateLimitStore(app.db) } : {}),
    errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, message: `Too many requests. Please wait ${Math.ceil(ctx.ttl / 1000)} seconds and try again.` }),
  });
  if (shared) {
    const sweep = setInterval(() => {
      sweepRateLimits(app.db).catch((err: unknown) => app.log.warn({ err }, 'rate-limit sweep failed'));
    }, SWEEP_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  }
});
