import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** GET /healthz, the load balancer's health check (docs/deploy.md). */

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ seed: false }); });
afterAll(async () => { await t?.close(); });

describe('GET /healthz', () => {
  it('answers 200 while the process and its database answer, never cached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 when the database does not answer', async () => {
    // A server whose database has gone away (an embedded one, closed under it).
    const database = await openDatabase({ pgliteDir: 'memory://' });
    await database.migrate();
    const app = await buildApp(t.config, { database, logger: false });
    await app.ready();
    try {
      await database.close();
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
    } finally {
      await app.close();
    }
  });
});
