import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { seedReference } from '../../src/server/db/seed/seed.ts';
import type { ServerDatabase } from './server-process.ts';

export type DbKind = 'pglite' | 'postgres';

/**
 * A database prepared for one bench server: migrated, reference-seeded, then closed so the server
 * child can take it (PGlite allows one process per data directory).
 */
export interface BenchDatabase {
  kind: DbKind;
  /** Human description: the PGlite directory or the PostgreSQL schema. */
  where: string;
  /** What the server child is started with. */
  server: ServerDatabase;
  /** Opens it in this process (only while no server child holds a PGlite directory). */
  open(): Promise<Database>;
  /** Removes the directory or drops the schema. */
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated, reference-seeded database: PGlite in a new temp directory (the server's
 * DATA_DIR), or a private schema on the PostgreSQL server at `url` (dropped by dispose()).
 * @param prepare more rows to write before the server starts (invoices, users)
 */
export async function freshDatabase(
  kind: DbKind,
  label: string,
  url?: string,
  prepare?: (database: Database) => Promise<void>,
): Promise<BenchDatabase> {
  let bench: BenchDatabase;
  if (kind === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gs-bench-${label}-`));
    const dir = path.join(dataDir, 'db');
    bench = {
      kind,
      where: dir,
      server: { kind: 'pglite', dataDir },
      open: () => openDatabase({ pgliteDir: dir }),
      async dispose() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } else {
    if (!url) throw new Error('PostgreSQL bench needs a URL');
    const schema = `bench_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
    const open = () => openDatabase({ url, schemaName: schema, poolSize: 4 });
    bench = {
      kind,
      where: `schema ${schema}`,
      server: { kind: 'postgres', url, schema },
      open,
      async dispose() {
        const database = await open();
        try {
          await database.db.execute(`DROP SCHEMA IF EXISTS "${schema}" CASCADE` as never);
        } finally {
          await database.close();
        }
      },
    };
  }
  try {
    const database = await bench.open();
    try {
      await database.migrate();
      await seedReference(database.db);
      await prepare?.(database);
    } finally {
      await database.close();
    }
  } catch (err) {
    await bench.dispose().catch(() => {});
    throw err;
  }
  return bench;
}

/** A Cookie header: the cookies of `header` with those of the Set-Cookie lines replacing same-named ones. */
function mergeCookies(header: string, setCookies: string[]): string {
  const jar = new Map<string, string>();
  for (const pair of [...header.split('; '), ...setCookies.map((c) => c.split(';')[0])]) {
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** Opens a visitor session like a page load: GET /api/session; returns the cookie header and CSRF token. */
export async function openSession(base: string, cookie?: string): Promise<{ cookie: string; csrfToken: string }> {
  const res = await fetch(`${base}/api/session`, {
    headers: { 'x-requested-with': 'XMLHttpRequest', ...(cookie ? { cookie } : {}) },
  });
  if (res.status !== 200) throw new Error(`GET /api/session answered ${res.status}`);
  const body = (await res.json()) as { csrfToken: string };
  const jar = mergeCookies(cookie ?? '', res.headers.getSetCookie());
  if (!jar || !body.csrfToken) throw new Error('GET /api/session gave no cookie or CSRF token');
  return { cookie: jar, csrfToken: body.csrfToken };
}

/**
 * Signs in like the login form: a visitor session, then POST /login with its CSRF token. The new
 * session cookie replaces the visitor's; the answer carries the CSRF token bound to it.
 * @throws when the sign-in is not answered 200
 */
export async function signIn(
  base: string,
  email: string,
  password: string,
): Promise<{ cookie: string; csrfToken: string }> {
  const visitor = await openSession(base);
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': visitor.csrfToken,
      cookie: visitor.cookie,
    },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`POST /login answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { csrfToken: string };
  const cookie = mergeCookies(visitor.cookie, res.headers.getSetCookie());
  if (!cookie.includes('=u.')) throw new Error('POST /login set no session cookie');
  return { cookie, csrfToken: body.csrfToken };
}
