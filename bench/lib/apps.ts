import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type AppConfig } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { buildApp } from '../../src/server/app.ts';
import { seedReference } from '../../src/server/db/seed/seed.ts';

export type DbKind = 'pglite' | 'postgres';

/** A database opened for the bench, with the way to throw it away. */
export interface BenchDatabase {
  database: Database;
  /** Human description: the PGlite directory or the PostgreSQL schema. */
  where: string;
  dispose(): Promise<void>;
}

/** Production-like config with rate limits out of the way and no web build needed. */
export function benchConfig(): AppConfig {
  return loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv, {
    rateLimits: { formsPerMinute: 1e9, loginPerMinute: 1e9, searchPerMinute: 1e9, discountPerMinute: 1e9 },
    webDistDir: '/nonexistent',
  });
}

/**
 * A fresh, migrated, reference-seeded database: PGlite in a new temp directory, or a private
 * schema on the PostgreSQL server at `url` (dropped by dispose()).
 */
export async function freshDatabase(kind: DbKind, label: string, url?: string): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `gs-bench-${label}-`));
    const dir = path.join(tmp, 'db');
    const database = await openDatabase({ pgliteDir: dir });
    try {
      await database.migrate();
      await seedReference(database.db);
    } catch (err) {
      await database.close();
      fs.rmSync(tmp, { recursive: true, force: true });
      throw err;
    }
    return {
      database,
      where: dir,
      async dispose() {
        await database.close();
        fs.rmSync(tmp, { recursive: true, force: true });
      },
    };
  }
  if (!url) throw new Error('PostgreSQL bench needs a URL');
  const schemaName = `bench_${label}_${randomBytes(4).toString('hex')}`;
  const database = await openDatabase({ url, schemaName, poolSize: 10 });
  const drop = async () => {
    await database.db.execute(`DROP SCHEMA IF EXISTS "${schemaName}" CASCADE` as never);
  };
  try {
    await database.migrate();
    await seedReference(database.db);
  } catch (err) {
    await drop().catch(() => {});
    await database.close();
    throw err;
  }
  return {
    database,
    where: `schema ${schemaName}`,
    async dispose() {
      try {
        await drop();
      } finally {
        await database.close();
      }
    },
  };
}

/** The full app (every plugin and module) listening on 127.0.0.1 on a free port. */
export async function listenFullApp(database: Database): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp(benchConfig(), { database });
  return { app, base: await listenLocal(app) };
}

export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${addr.port}`;
}

/** Opens a visitor session like a page load: GET /api/session; returns the cookie header and CSRF token. */
export async function openSession(base: string): Promise<{ cookie: string; csrfToken: string }> {
  const res = await fetch(`${base}/api/session`, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  if (res.status !== 200) throw new Error(`GET /api/session answered ${res.status}`);
  const body = (await res.json()) as { csrfToken: string };
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (!cookie || !body.csrfToken) throw new Error('GET /api/session gave no cookie or CSRF token');
  return { cookie, csrfToken: body.csrfToken };
}
