import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type BuildOptions, type Providers } from '../../src/server/app.ts';
import { loadConfig, type AppConfig } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { seedReference } from '../../src/server/db/seed/seed.ts';
import { LIMIT_NAMES } from '../../src/server/modules/limits/limit-rules.ts';
import { multipartBody, type UploadPart } from './files.ts';
import { migratedPgliteSnapshot } from './pglite-snapshot.ts';
import type { RouteAddress } from '../../src/shared/contracts/contract.ts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: AppConfig;
  /** The PostgreSQL schema of this app's database (undefined on PGlite). */
  schemaName?: string;
  close(): Promise<void>;
}

/** Config overrides for a test app; rate limits and abuse limits may be given one by one (the rest stay high). */
export type TestConfig = Omit<Partial<AppConfig>, 'rateLimits' | 'limits'> & {
  rateLimits?: Partial<AppConfig['rateLimits']>;
  limits?: Partial<AppConfig['limits']>;
};

/** Every abuse limit out of reach, so that only a test of a limit meets one (it sets the ones it tries). */
const HIGH_LIMITS = Object.fromEntries(LIMIT_NAMES.map((name) => [name, 1_000_000])) as AppConfig['limits'];

/**
 * A fresh app on a fresh database: in-memory PGlite (started from the migrated snapshot of
 * tests/helpers/pglite-snapshot.ts), or a private schema on the PostgreSQL server of
 * TEST_DATABASE_URL (dropped on close). Reference data (company, levels, states) is seeded.
 */
export async function createTestApp(
  opts: {
    config?: TestConfig;
    providers?: Partial<Providers>;
    seed?: boolean;
    onRoute?: BuildOptions['onRoute'];
    jobs?: BuildOptions['jobs'];
    jobRunner?: BuildOptions['jobRunner'];
  } = {},
): Promise<TestApp> {
  const url = process.env.TEST_DATABASE_URL;
  const schemaName = url ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const database = await openDatabase(
    url ? { url, schemaName, poolSize: 4 } : { pgliteDir: 'memory://', pgliteSnapshot: await migratedPgliteSnapshot() },
  );
  await database.migrate();
  if (opts.seed !== false) await seedReference(database.db);
  const storageDir = await mkdtemp(path.join(tmpdir(), 'goodstanding-files-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv, {
    webDistDir: '/nonexistent-web-dist',
    storage: { driver: 'disk', dir: storageDir },
    // The job library's tables go in a schema of this test file's own (dropped on close).
    jobs: { bossSchema: schemaName ? `${schemaName}_jobs` : 'pgboss' },
    ...opts.config,
    rateLimits: {
      formsPerMinute: 1000,
      loginPerMinute: 1000,
      searchPerMinute: 10_000,
      discountPerMinute: 1000,
      ...opts.config?.rateLimits,
    },
    limits: { ...HIGH_LIMITS, ...opts.config?.limits },
  });
  const app = await buildApp(config, {
    database,
    providers: opts.providers,
    logger: false,
    onRoute: opts.onRoute,
    jobs: opts.jobs,
    jobRunner: opts.jobRunner,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    schemaName,
    async close() {
      await app.close();
      if (schemaName && database.kind === 'postgres') {
        await database.db.execute(`DROP SCHEMA IF EXISTS "${schemaName}" CASCADE` as never);
        await database.db.execute(`DROP SCHEMA IF EXISTS "${config.jobs.bossSchema}" CASCADE` as never);
      }
      await database.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** Fills a route pattern's `:name` parameters from `params` (URL-encoded). */
export function fillPath(url: string, params: Record<string, string | number>): string {
  return url.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    if (!(name in params)) throw new Error(`no value for :${name} in ${url}`);
    return encodeURIComponent(String(params[name]));
  });
}

/**
 * What a test sends to a route through its contract: path parameters, query and body. Looser than
 * the web client's `ContractInput`, because a test also sends what the route must refuse.
 */
export interface CallInput {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

/** A browser-like client: keeps cookies and sends the CSRF and Ajax headers like the web client. */
export class Agent {
  cookies = new Map<string, string>();
  csrfToken = '';
  private app: FastifyInstance;
  ip: string;
  constructor(app: FastifyInstance, ip = '127.0.0.1') {
    this.app = app;
    this.ip = ip;
  }

  /** Opens a session the way a page load does (GET /api/session) and keeps its CSRF token. */
  async start(): Promise<this> {
    const res = await this.request('GET', '/api/session');
    this.csrfToken = res.json().csrfToken;
    return this;
  }

  private keep(res: LightMyRequestResponse) {
    for (const c of res.cookies as { name: string; value: string }[]) this.cookies.set(c.name, c.value);
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
    withCsrf = true,
  ): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: method as never,
      url,
      payload: payload as never,
      remoteAddress: this.ip,
      headers: {
        cookie: this.cookieHeader(),
        'x-requested-with': 'XMLHttpRequest',
        ...(withCsrf && this.csrfToken ? { 'x-csrf-token': this.csrfToken } : {}),
        ...headers,
      },
    });
    this.keep(res);
    return res;
  }

  /**
   * Calls a route through its contract, as the web client's `call` does (docs/ARCHITECTURE.md
   * "Route contracts"): the path parameters fill the URL's `:name` parts, a GET's query goes on the
   * query string (undefined values left out), any other method's body is sent as JSON.
   * @throws Error when a `:name` part of the URL has no value in `params`
   */
  call(route: RouteAddress, input: CallInput = {}): Promise<LightMyRequestResponse> {
    const query = new URLSearchParams(
      Object.entries(input.query ?? {})
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    ).toString();
    const url = fillPath(route.url, input.params ?? {}) + (query ? `?${query}` : '');
    return this.request(route.method, url, route.method === 'GET' ? undefined : (input.body ?? {}));
  }

  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, payload?: unknown) {
    return this.request('POST', url, payload ?? {});
  }
  put(url: string, payload?: unknown) {
    return this.request('PUT', url, payload ?? {});
  }
  delete(url: string) {
    return this.request('DELETE', url, {});
  }

  /** Posts multipart/form-data like a browser's FormData upload. */
  async upload(url: string, fields: Record<string, string>, files: UploadPart[]): Promise<LightMyRequestResponse> {
    const { payload, contentType } = await multipartBody(fields, files);
    return this.request('POST', url, payload, { 'content-type': contentType });
  }

  /** Signs in and switches to the new session's CSRF token. */
  async login(email: string, password: string): Promise<LightMyRequestResponse> {
    const res = await this.post('/login', { email, password });
    if (res.statusCode === 200) this.csrfToken = res.json().csrfToken;
    return res;
  }
}

/** A browser-like client signed in as `user` (asserts the sign-in succeeds). */
export async function signedIn(app: FastifyInstance, user: { email: string; password: string }): Promise<Agent> {
  const a = await new Agent(app).start();
  const res = await a.login(user.email, user.password);
  if (res.statusCode !== 200) throw new Error(`sign-in as ${user.email} failed: ${res.statusCode} ${res.body}`);
  return a;
}

/**
 * A second app server on the database of `first`, as another server process behind a balancer
 * would be: on PostgreSQL its own connection pool on the same schema; on PGlite (one process per
 * data directory) the same database handle. Closing it leaves `first` and its data untouched.
 * `opts.config` overrides `first`'s config; `opts.beforeReady` runs before the app is ready, where
 * main.ts starts the background jobs (e.g. startMailWorker).
 */
export async function createSecondServer(
  first: TestApp,
  providers?: Partial<Providers>,
  opts: { config?: Partial<AppConfig>; beforeReady?: (app: FastifyInstance) => void } & Pick<
    BuildOptions,
    'jobs' | 'jobRunner'
  > = {},
): Promise<TestApp> {
  const url = process.env.TEST_DATABASE_URL;
  const database =
    url && first.schemaName ? await openDatabase({ url, schemaName: first.schemaName, poolSize: 4 }) : first.database;
  const config = { ...first.config, ...opts.config };
  const app = await buildApp(config, {
    database,
    providers,
    logger: false,
    jobs: opts.jobs,
    jobRunner: opts.jobRunner,
  });
  opts.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    schemaName: first.schemaName,
    async close() {
      await app.close();
      if (database !== first.database) await database.close();
    },
  };
}
