import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, STARTUP_LOCK_KEY, StartupLockTimeoutError } from '../../src/server/db/client.ts';

/**
 * PostgreSQL server limits (docs/deploy.md "Timeouts"): a statement past
 * DATABASE_STATEMENT_TIMEOUT_MS is ended by the server and answers 503 with Retry-After; a server
 * starting while another holds the startup lock says it waits and gives up after
 * MIGRATION_LOCK_TIMEOUT_SECONDS. On the PostgreSQL server of TEST_DATABASE_URL (npm test runs
 * this project when it is set; npm run test:multi-process defaults it to the local server).
 */

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv, {
  webDistDir: '/nonexistent-web-dist',
  // A configured key: building the app reads nothing from the database.
  sessionSecret: randomBytes(32).toString('base64url'),
});

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe('a statement past DATABASE_STATEMENT_TIMEOUT_MS', () => {
  it('is ended by the server and answers 503, while migrations run without the limit', async () => {
    const schemaName = `t_${randomBytes(6).toString('hex')}`;
    const database = await openDatabase({
      url: PG_URL,
      schemaName,
      poolSize: 2,
      timeouts: { statementMs: 300, connectMs: 2_000 },
    });
    cleanups.push(async () => {
      await database.db.execute(sql.raw(`DROP SCHEMA IF EXISTS "${schemaName}" CASCADE`));
      await database.close();
    });
    await database.migrate();
    const app = await buildApp(config, { database, logger: false });
    // A request whose query hangs (as a lock wait or a runaway plan would).
    app.get(
      '/api/slow-report',
      { config: { access: 'visitor' } },
      async () => (await database.db.execute(sql`SELECT pg_sleep(5) AS slept`)).rows,
    );
    await app.ready();
    cleanups.push(() => app.close());

    const started = Date.now();
    const res = await app.inject({
      method: 'GET',
      url: '/api/slow-report',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json().message).toBe('The service is briefly unavailable. Please try again in a few seconds.');
    expect(Date.now() - started).toBeLessThan(4_000);
    // The pool is still usable afterwards.
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('the startup lock held by another server', () => {
  it('logs that it waits, then gives up with a clear error after MIGRATION_LOCK_TIMEOUT_SECONDS', async () => {
    const other = new pg.Client({ connectionString: PG_URL });
    await other.connect();
    cleanups.push(() => other.end());
    // Another server migrating: it holds the lock (waiting for any test file still holding it).
    await other.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    try {
      const lines: string[] = [];
      const started = Date.now();
      const opening = openDatabase({
        url: PG_URL,
        schemaName: `t_${randomBytes(6).toString('hex')}`,
        timeouts: { migrationLockSeconds: 1 },
        log: (line) => lines.push(line),
      });
      await expect(opening).rejects.toBeInstanceOf(StartupLockTimeoutError);
      await expect(opening).rejects.toThrow(
        /Gave up waiting for the startup lock after 1 s.*MIGRATION_LOCK_TIMEOUT_SECONDS/s,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^waiting for another server to finish migrating/);
    } finally {
      await other.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
    }
  });
});
