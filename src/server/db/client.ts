import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
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
  /** Applies the committed migrations in src/server/db/migrations. */
  migrate(): Promise<void>;
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
    // The extension lives in public so every schema on the server can use its operator classes.
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    if (opts.schemaName) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schemaName}"`);
    const db = drizzlePg(pool, { schema });
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR, migrationsSchema: opts.schemaName ?? 'drizzle' }),
      close: () => pool.end(),
    };
  }
  const dir = opts.pgliteDir ?? 'memory://';
  let lock: DataDirLock | undefined;
  if (!dir.startsWith('memory://')) {
    fs.mkdirSync(dir, { recursive: true });
    lock = acquireDataDirLock(dir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dir, { extensions: { pg_trgm } });
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    close: async () => {
      await client.close();
      lock?.release();
    },
  };
}
