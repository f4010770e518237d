import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, postgresDatabase } from '../../src/server/db/client.ts';
import { freePort } from '../helpers/local-peers.ts';

/**
 * A database that refuses, times out or hangs (docs/deploy.md "Health", "Timeouts"): pages and the
 * API answer 503 with Retry-After and a readable body, never 500; a statement past
 * DATABASE_STATEMENT_TIMEOUT_MS is ended by the server; a server starting while another holds the
 * startup lock says it waits and gives up after MIGRATION_LOCK_TIMEOUT_SECONDS.
 * statement_timeout and advisory locks are PostgreSQL server features: those two tests are in
 * tests/multi-process/postgres-limits.test.ts, run when a PostgreSQL server is configured.
 */

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv, {
  webDistDir: '/nonexistent-web-dist',
  // A configured key: building the app reads nothing from the database.
  sessionSecret: randomBytes(32).toString('base64url'),
});

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe('a PostgreSQL server that refuses connections', () => {
  it('answers 503 with Retry-After on the API and on a page, and /livez stays 200', async () => {
    // Nothing listens on this port: every connection is refused.
    const port = await freePort();
    const database = postgresDatabase({
      url: `postgres://postgres@127.0.0.1:${port}/test`,
      timeouts: { connectMs: 1_000 },
    });
    const app = await buildApp(config, { database, logger: false });
    await app.ready();
    cleanups.push(
      () => app.close(),
      () => database.close(),
    );

    const api = await app.inject({
      method: 'GET',
      url: '/api/accounts/1/public',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(api.statusCode, api.body).toBe(503);
    expect(api.headers['retry-after']).toBe('5');
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toEqual({
      message: 'The service is briefly unavailable. Please try again in a few seconds.',
      requestId: api.headers['x-request-id'],
    });

    const page = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.statusCode, page.body).toBe(503);
    expect(page.headers['retry-after']).toBe('5');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<h1>Temporarily unavailable</h1>');
    expect(page.body).toContain(String(page.headers['x-request-id']));
    expect(page.body).not.toMatch(/ECONNREFUSED|at .*\.ts:\d+/);

    expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().failed).toEqual(['database']);
  });
});

describe('the embedded database gone (its thread ended)', () => {
  it('answers 503 with Retry-After, not 500', async () => {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    await database.migrate();
    const app = await buildApp(config, { database, logger: false });
    await app.ready();
    cleanups.push(() => app.close());
    await database.close();
    const res = await app.inject({
      method: 'GET',
      url: '/api/accounts/1/public',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
  });
});

describe('timeout settings', () => {
  it('have documented defaults, refuse unreadable values by name, and reach the HTTP server', async () => {
    expect(config.databaseTimeouts).toEqual({
      connectMs: 5_000,
      statementMs: 30_000,
      idleInTransactionMs: 60_000,
      idleMs: 30_000,
      migrationLockSeconds: 600,
    });
    expect(config.http).toEqual({ requestTimeoutMs: 300_000, keepAliveTimeoutMs: 72_000 });
    expect(() =>
      loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '-1', KEEP_ALIVE_TIMEOUT_MS: '5' } as NodeJS.ProcessEnv),
    ).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS: DATABASE_STATEMENT_TIMEOUT_MS must be 0 \(no limit\)[^\n]*\n.*KEEP_ALIVE_TIMEOUT_MS: KEEP_ALIVE_TIMEOUT_MS must be at least 1000/s,
    );
    const database = await openDatabase({ pgliteDir: 'memory://' });
    cleanups.push(() => database.close());
    const app = await buildApp(
      { ...config, http: { requestTimeoutMs: 120_000, keepAliveTimeoutMs: 65_000 } },
      { database, logger: false },
    );
    cleanups.push(() => app.close());
    expect(app.server.requestTimeout).toBe(120_000);
    expect(app.server.keepAliveTimeout).toBe(65_000);
  });
});
