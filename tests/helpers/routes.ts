import { randomBytes } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { SIMULATOR_PREFIX } from '../../src/server/config.ts';
import { sessions } from '../../src/server/db/schema.ts';
import { type Access, accessOf } from '../../src/server/plugins/access.ts';
import { hashId, sessionCookieName } from '../../src/server/plugins/session.ts';
import { PAGES } from '../../src/shared/routes.ts';
import { createGatewayTestApp, type GatewayTestApp } from './gateway.ts';
import { Agent, type TestApp, type TestConfig } from './test-app.ts';
import type { Db } from '../../src/server/db/client.ts';
import type { PublicAnswer } from '../../src/server/plugins/cache-control.ts';
import type { RouteContract } from '../../src/shared/contracts/contract.ts';
import type { RouteOptions } from 'fastify';

/** One route of the app as it was registered: method, path pattern and its CSRF setting. */
export interface AppRoute {
  method: string;
  url: string;
  /** `config.csrf` of the route: false exempts it, true makes a GET need the token (plugins/csrf.ts). */
  csrf?: boolean;
  /** `config.access` of the route: who may call it (plugins/access.ts), undefined when it states none. */
  access?: Access;
  /** `METHOD /path`, the key the route tables use. */
  key: string;
  /** The contract the route was registered from (src/shared/contracts/), if any. */
  contract?: RouteContract;
  /** `config.cache` of the route: the kind of public answer it declares (plugins/cache-control.ts), if any. */
  cache?: PublicAnswer;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether the CSRF plugin checks this route (docs/requirements/platform.md §5.2): every method but GET/HEAD/OPTIONS, and
 * the GETs marked `config: { csrf: true }`; never a route marked `csrf: false`.
 */
export function needsCsrf(route: AppRoute): boolean {
  if (route.csrf === false) return false;
  return !SAFE_METHODS.has(route.method) || route.csrf === true;
}

const PAGE_KEYS = new Set(PAGES.map((p) => `GET ${p.path}`));

/**
 * Why a route is left out of the security tables, or null when it must be in them. The only
 * exemptions are routes that take no user input a handler acts on:
 * - the HTML shell of every page of src/shared/routes.ts (the same template for each; who may open
 *   it is covered by tests/integration/pages.test.ts),
 * - the built client's static files (/assets/*, /favicon.svg, /robots.txt; served only when the
 *   client is built, so absent from test apps),
 * - the gateway simulator, a stand-in for Authorize.Net served only with PAYMENT_GATEWAY=simulator:
 *   its callbacks come from the tokenizer and the payer, never with this site's session.
 */
export function exemptionOf(route: AppRoute): string | null {
  if (PAGE_KEYS.has(route.key)) return 'page shell';
  if (route.url.startsWith('/assets/') || route.key === 'GET /favicon.svg' || route.key === 'GET /robots.txt')
    return 'static file';
  if (route.url === SIMULATOR_PREFIX || route.url.startsWith(`${SIMULATOR_PREFIX}/`)) return 'gateway simulator';
  return null;
}

/** A gateway-backed test app (createGatewayTestApp) and every route it registered. */
export interface InventoriedApp extends GatewayTestApp {
  /** Sorted by path then method; the HEAD twins Fastify adds for GET routes are left out. */
  routes: AppRoute[];
}

/**
 * A test app whose payments go to a gateway simulator on 127.0.0.1, together with every route the
 * real app registers, collected by an `onRoute` hook added before any plugin (BuildOptions.onRoute),
 * so a route added later cannot escape the tables that use this list.
 */
export async function createInventoriedTestApp(opts: { config?: TestConfig } = {}): Promise<InventoriedApp> {
  const seen = new Map<string, AppRoute>();
  const options = new Map<string, RouteOptions>();
  const onRoute = (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const csrf = route.config?.csrf;
    const access = accessOf(route);
    for (const method of methods) {
      const key = `${method} ${route.url}`;
      seen.set(key, { method, url: route.url, csrf, access, key, contract: route.config?.contract });
      options.set(key, route);
    }
  };
  const gateway = await createGatewayTestApp(1500, { config: opts.config, onRoute });
  // Read once the app is ready: a plugin's own onRoute hook may set `config.cache` after this one ran.
  for (const [key, route] of seen) route.cache = options.get(key)?.config?.cache;
  const routes = [...seen.values()]
    .filter((r) => !(r.method === 'HEAD' && seen.has(`GET ${r.url}`)))
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  return { ...gateway, routes };
}

/**
 * A browser-like client signed in as `userId` without a password check: writes a session row the
 * way sign-in does (plugins/session.ts) and takes that session's CSRF token from GET /api/session.
 * @param ip the client address the requests come from (rate limits are counted per address)
 */
export async function sessionAgent(t: TestApp, userId: number, ip = '127.0.0.1'): Promise<Agent> {
  const raw = `u.${randomBytes(16).toString('base64url')}`;
  await t.database.db
    .insert(sessions)
    .values({ idHash: hashId(raw), userId, expiresAt: new Date(Date.now() + 3_600_000) });
  const agent = new Agent(t.app, ip);
  agent.cookies.set(sessionCookieName(t.config.cookieSecure), raw);
  await agent.start();
  return agent;
}

const fingerprintQueries = new WeakMap<Db, SQL>();

/**
 * A digest of every row of every table of the current schema, to prove a refused request wrote
 * nothing. `sessions.last_seen_at` is left out: signed-in requests touch it at most once a minute;
 * so are `rate_limits`, which counts every request, refused ones too (RATE_LIMIT_STORE=database),
 * and `limit_counters`, which counts attempts at what the abuse limits bound, refused ones too
 * (docs/security.md "Limits on mail and payments").
 * @returns one line per table: name, row count and md5 of its rows
 */
export async function databaseFingerprint(db: Db): Promise<string> {
  let query = fingerprintQueries.get(db);
  if (!query) {
    const tables = await db.execute(sql`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        AND table_name NOT IN ('rate_limits', 'limit_counters') ORDER BY table_name`);
    const parts = (tables.rows as { name: string }[]).map(({ name }) => {
      const row = name === 'sessions' ? sql`(x.id_hash, x.user_id, x.expires_at)::text` : sql`x::text`;
      return sql`SELECT ${name} AS name, count(*)::int AS n, md5(coalesce(string_agg(${row}, '|' ORDER BY ${row}), '')) AS digest FROM ${sql.identifier(name)} x`;
    });
    query = sql.join(parts, sql` UNION ALL `);
    fingerprintQueries.set(db, query);
  }
  const result = await db.execute(query);
  return (result.rows as { name: string; n: number; digest: string }[])
    .map((r) => `${r.name} ${r.n} ${r.digest}`)
    .sort()
    .join('\n');
}
