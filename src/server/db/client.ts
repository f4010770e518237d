import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { startPgliteThread, type PgliteThread } from './pglite-thread.ts';
import { acquireDataDirLock, type DataDirLock } from './lock.ts';

export type Schema = typeof schema;
/** The Drizzle database; PGlite and node-postgres share this query API. */
export type Db = NodePgDatabase<Schema>;
/** A transaction handle, accepted wherever a Db is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The postgres:// URL of a PostgreSQL database (the job library opens its own pool on it); undefined on PGlite. */
  url?: string;
  /** Applies the committed migrations in src/server/db/migrations (under the startup lock). */
  migrate(): Promise<void>;
  /**
   * Runs `fn` holding the startup lock, so that of several processes starting at once on one
   * PostgreSQL database one migrates and seeds while the others wait, then find it done. On PGlite
   * the data directory lock already keeps other processes out and `fn` simply runs. Calls nested
   * inside `fn` run without waiting.
   * @returns what `fn` returns
   */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  /** Closes the connection(s) and releases the data directory lock. */
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseOptions {
  /** postgres:// URL; when absent, PGlite. */
  url?: string;
  /** PGlite directory, or 'memory://' for a throwaway database (tests). */
  pgliteDir?: string;
  poolSize?: number;
  /** PostgreSQL schema to use instead of public (isolates test files on one server). */
  schemaName?: string;
}

/**
 * PostgreSQL advisory lock key of the startup work (migrations, first-start seed): one per
 * database, whichever schema a process uses, since the pg_trgm extension is shared by all.
 */
const STARTUP_LOCK_KEY = 0x6753_7472; // 'gStr'

/**
 * `withStartupLock` for a PostgreSQL server: pg_advisory_lock on a connection of its own (not
 * from the pool, which `fn` may need whole), released with the connection even if the process dies.
 */
function postgresStartupLock(url: string) {
  const holding = new AsyncLocalStorage<true>();
  return async function withStartupLock<T>(fn: () => Promise<T>): Promise<T> {
    if (holding.getStore()) return fn();
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {
      // Reported by the query that was waiting on it.
    });
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
      return await holding.run(true, fn);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
}

/**
 * Opens the database: PGlite (with pg_trgm) in `pgliteDir`, or a node-postgres pool on `url`.
 * A PGlite directory is locked for this process; a second process gets DataDirLockedError.
 * @throws DataDirLockedError when another live process holds the PGlite directory.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const searchPath = opts.schemaName ? `-c search_path=${opts.schemaName},public` : undefined;
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10, options: searchPath });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it on the next query.
    });
    const withStartupLock = postgresStartupLock(opts.url);
    try {
      // Concurrent IF NOT EXISTS creations can still collide: one process at a time.
      await withStartupLock(async () => {
        // The extension lives in public so every schema on the server can use its operator classes.
        await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
        if (opts.schemaName) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schemaName}"`);
      });
    } catch (err) {
      await pool.end();
      throw err;
    }
    const db = drizzlePg(pool, { schema });
    return {
      db,
      kind: 'postgres',
      url: opts.url,
      migrate: () => withStartupLock(() => migratePg(db, { migrationsFolder: MIGRATIONS_DIR, migrationsSchema: opts.schemaName ?? 'drizzle' })),
      withStartupLock,
      close: () => pool.end(),
    };
  }
  const dir = opts.pgliteDir ?? 'memory://';
  let lock: DataDirLock | undefined;
  if (!dir.startsWith('memory://')) {
    fs.mkdirSync(dir, { recursive: true });
    lock = acquireDataDirLock(dir);
  }
  let client: PgliteThread;
  try {
    client = await startPgliteThread(dir);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite({ client: client as never, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    withStartupLock: (fn) => fn(),
    close: async () => {
      await client.close();
      lock?.release();
    },
  };
}
