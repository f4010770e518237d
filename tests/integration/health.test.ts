import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** GET /livez, /readyz and /healthz, the load balancer's and orchestrator's checks (docs/deploy.md "Health"). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /livez, /readyz, /healthz', () => {
  it('answer 200 while the process, its database, its migrations and its storage are fine, never cached', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    expect(live.headers['cache-control']).toBe('no-store');
    for (const url of ['/readyz', '/healthz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', storage: 'ok' } });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('answer 503 naming the database when it does not answer, while /livez stays 200', async () => {
    // A server whose database has gone away (an embedded one, closed under it).
    const database = await openDatabase({ pgliteDir: 'memory://' });
    await database.migrate();
    const app = await buildApp(t.config, { database, logger: false });
    await app.ready();
    try {
      await database.close();
      for (const url of ['/readyz', '/healthz']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(503);
        expect(res.json()).toEqual({
          status: 'unavailable',
          checks: { database: 'failed', migrations: 'skipped', storage: 'ok' },
          failed: ['database'],
        });
      }
      expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('/readyz answers 503 naming the storage when uploads cannot be written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'goodstanding-readyz-'));
    // The storage directory's parent is a plain file: nothing can be created under it.
    await writeFile(path.join(dir, 'not-a-directory'), 'x');
    const broken = await createTestApp({
      seed: false,
      config: { storage: { driver: 'disk', dir: path.join(dir, 'not-a-directory', 'files') } },
    });
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: 'ok', storage: 'failed' },
        failed: ['storage'],
      });
      expect((await broken.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    } finally {
      await broken.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('/readyz answers 503 naming the migrations when the database lacks one this build ships', async () => {
    const behind = await createTestApp({ seed: false });
    try {
      // As if this server were deployed against a database the newest migration has not reached.
      await behind.database.db.execute(
        `DELETE FROM ${behind.database.migrationsTable} WHERE created_at = (SELECT max(created_at) FROM ${behind.database.migrationsTable})` as never,
      );
      const res = await behind.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: 'failed', storage: 'ok' },
        failed: ['migrations'],
      });
    } finally {
      await behind.close();
    }
  });
});
