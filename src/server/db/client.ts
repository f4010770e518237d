import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './lock.ts';
import { startPgliteThread, type PgliteThread } from './pglite-thread.ts';
import * as schema from './schema.ts';
import type { DatabaseTimeouts } from '../config.ts';

type Schema = typeof schema;
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
  /**
   * Embedded database only: a consistent copy of its data directory while serving, as a gzip tar
   * (docs/operations.md "Backup and restore"). Undefined on PostgreSQL, which has pg_dump.
   */
  dump?: () => Promise<Uint8Array>;
  /**
   * The drizzle migrations table, schema-qualified (e.g. `"drizzle"."__drizzle_migrations"`): the
   * readiness check compares it with migrations/meta/_journal.json (docs/deploy.md "Health").
   */
  migrationsTable: string;
  /**
   * Connections of the node-postgres pool right now: total open, idle, and queries waiting for
   * one (docs/deploy.md "Observability"); undefined on PGlite, which has one connection in a thread.
   */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Closes the connection(s) and releases the data directory lock. */
  close(): Promise<void>;
}

/**
 * PGlite's page cache when none is configured, in MB: PostgreSQL's 128 MB default is allocated in
 * the WebAssembly heap at start and kept, a third of the server's memory; pages beyond it are read
 * from the operating system's file cache (docs/operations.md "Memory").
 */
const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 32;

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseOptions {
  /** postgres:// URL; when absent, PGlite. */
  url?: string;
  /** PGlite directory, or 'memory://' for a throwaway database (tests). */
  pgliteDir?: string;
  /**
   * PGlite's shared_buffers in MB (PGLITE_SHARED_BUFFERS_MB, default {@link DEFAULT_PGLITE_SHARED_BUFFERS_MB}):
   * PostgreSQL's page cache, held whole in the server's memory (docs/operations.md "Memory").
   */
  pgliteSharedBuffersMb?: number;
  /**
   * A PGlite data directory from {@link Database.dump} (gzip tar) that a 'memory://' database
   * starts as: the tests start from a migrated database instead of running every migration again.
   */
  pgliteSnapshot?: Uint8Array;
  poolSize?: number;
  /** PostgreSQL schema to use instead of public (isolates test files on one server). */
  schemaName?: string;
  /**
   * Limits of the PostgreSQL server connections (docs/deploy.md "Timeouts"); absent fields, or
   * none at all (tests, commands), mean no limit. PGlite ignores them.
   */
  timeouts?: Partial<DatabaseTimeouts>;
  /** Where the startup lock says it waits (default: console.warn). */
  log?: (line: string) => void;
}

/** The startup lock was not free within MIGRATION_LOCK_TIMEOUT_SECONDS (docs/deploy.md "Timeouts"). */
export class StartupLockTimeoutError extends Error {}

/**
 * PostgreSQL advisory lock key of the startup work (migrations, first-start seed): one per
 * database, whichever schema a process uses, since the pg_trgm extension is shared by all.
 */
export const STARTUP_LOCK_KEY = 0x6753_7472; // 'gStr'

/** How often a waiting server tries the startup lock again, in ms. */
const LOCK_RETRY_MS = 250;

/**
 * `withStartupLock` for a PostgreSQL server: pg_try_advisory_lock, tried every 250 ms on a
 * connection of its own (not from the pool, which `fn` may need whole), released with the
 * connection even if the process dies. While another server holds it, logs once "waiting for
 * another server to finish migrating" (docs/deploy.md "Timeouts").
 * @param lockTimeoutSeconds how long to wait for the lock; undefined waits as long as it takes
 * @throws StartupLockTimeoutError when the lock is still held after `lockTimeoutSeconds`
 */
function postgresStartupLock(
  url: string,
  opts: { lockTimeoutSeconds?: number; connectMs?: number; log: (line: string) => void },
) {
  const holding = new AsyncLocalStorage<true>();
  return async function withStartupLock<T>(fn: () => Promise<T>): Promise<T> {
    if (holding.getStore()) return fn();
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: opts.connectMs || undefined });
    client.on('error', () => {
      // Reported by the query that was waiting on it.
    });
    await client.connect();
    try {
      const deadline = opts.lockTimeoutSeconds === undefined ? Infinity : Date.now() + opts.lockTimeoutSeconds * 1000;
      let logged = false;
      for (;;) {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
          STARTUP_LOCK_KEY,
        ]);
        if (rows[0].locked) break;
        if (!logged) {
          const limit =
            opts.lockTimeoutSeconds === undefined
              ? 'waiting as long as it takes'
              : `giving up after ${opts.lockTimeoutSeconds} s`;
          opts.log(
            `waiting for another server to finish migrating (startup lock ${STARTUP_LOCK_KEY} is held; ${limit})`,
          );
          logged = true;
        }
        if (Date.now() >= deadline) {
          throw new StartupLockTimeoutError(
            `Gave up waiting for the startup lock after ${opts.lockTimeoutSeconds} s: another server has been migrating this database ` +
              "for that long, or hangs while holding it. Check the other servers (pg_locks where locktype = 'advisory' shows who holds it), " +
              'or raise MIGRATION_LOCK_TIMEOUT_SECONDS.',
          );
        }
        await new Promise((r) => setTimeout(r, Math.min(LOCK_RETRY_MS, deadline - Date.now())));
      }
      return await holding.run(true, fn);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
}

/** Options of a node-postgres pool on `url` with the given limits (0 or absent = no limit). */
function poolOptions(opts: DatabaseOptions, max: number, timeouts: Partial<DatabaseTimeouts>): pg.PoolConfig {
  return {
    connectionString: opts.url,
    max,
    options: opts.schemaName ? `-c search_path=${opts.schemaName},public` : undefined,
    connectionTimeoutMillis: timeouts.connectMs || undefined,
    idleTimeoutMillis: timeouts.idleMs,
    // Sent as startup parameters, so the server itself ends a hung statement or an abandoned transaction.
    statement_timeout: timeouts.statementMs || undefined,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs || undefined,
  };
}

/**
 * A Database on the PostgreSQL server of `opts.url` without touching it: no connection is made
 * until the first query (tests point it at a closed port). {@link openDatabase} adds the checks.
 */
export function postgresDatabase(opts: DatabaseOptions & { url: string }): Database {
  const timeouts = opts.timeouts ?? {};
  const pool = new pg.Pool(poolOptions(opts, opts.poolSize ?? 10, timeouts));
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  const withStartupLock = postgresStartupLock(opts.url, {
    lockTimeoutSeconds: timeouts.migrationLockSeconds,
    connectMs: timeouts.connectMs,
    log: opts.log ?? ((line) => console.warn(line)),
  });
  const db = drizzlePg(pool, { schema });
  const migrationsSchema = opts.schemaName ?? 'drizzle';
  return {
    db,
    kind: 'postgres',
    url: opts.url,
    // On a pool of its own without statement limits: a migration may rewrite a large table.
    migrate: () =>
      withStartupLock(async () => {
        const migrationPool = new pg.Pool(poolOptions(opts, 1, { connectMs: timeouts.connectMs }));
        migrationPool.on('error', () => undefined);
        try {
          await migratePg(drizzlePg(migrationPool, { schema }), { migrationsFolder: MIGRATIONS_DIR, migrationsSchema });
        } finally {
          await migrationPool.end();
        }
      }),
    withStartupLock,
    migrationsTable: `"${migrationsSchema}"."__drizzle_migrations"`,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/**
 * The limits of a command's connections (db:migrate, import:bmf, admin:create): the connect and
 * startup lock limits of the server, but no statement or idle-in-transaction limit, since an IRS
 * import or a migration may run for minutes (docs/deploy.md "Timeouts").
 */
export function commandTimeouts(config: { databaseTimeouts: DatabaseTimeouts }): Partial<DatabaseTimeouts> {
  return {
    connectMs: config.databaseTimeouts.connectMs,
    migrationLockSeconds: config.databaseTimeouts.migrationLockSeconds,
  };
}

/**
 * Lifts statement_timeout for the rest of the transaction `tx` (SET LOCAL), for the long jobs
 * run inside a request or a server process: a roster import of many thousand rows. The
 * server-wide DATABASE_STATEMENT_TIMEOUT_MS still ends any other hung statement
 * (docs/deploy.md "Timeouts"). Writes nothing.
 */
export async function liftStatementTimeout(tx: Tx): Promise<void> {
  await tx.execute(sql`SET LOCAL statement_timeout = 0`);
}

/**
 * Opens the database: PGlite (with pg_trgm) in `pgliteDir`, or a node-postgres pool on `url`.
 * A PGlite directory is locked for this process; a second process gets DataDirLockedError.
 * @throws DataDirLockedError when another live process holds the PGlite directory.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const database = postgresDatabase({ ...opts, url: opts.url });
    try {
      // Concurrent IF NOT EXISTS creations can still collide: one process at a time.
      await database.withStartupLock(async () => {
        // The extension lives in public so every schema on the server can use its operator classes.
        await database.db.execute(sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`);
        if (opts.schemaName) await database.db.execute(sql.raw(`CREATE SCHEMA IF NOT EXISTS "${opts.schemaName}"`));
      });
    } catch (err) {
      await database.close();
      throw err;
    }
    return database;
  }
  const dir = opts.pgliteDir ?? 'memory://';
  let lock: DataDirLock | undefined;
  if (!dir.startsWith('memory://')) {
    fs.mkdirSync(dir, { recursive: true });
    lock = acquireDataDirLock(dir);
  }
  let client: PgliteThread;
  try {
    client = await startPgliteThread(dir, {
      sharedBuffersMb: opts.pgliteSharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB,
      snapshot: opts.pgliteSnapshot,
    });
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
    dump: () => client.dump(),
    migrationsTable: '"drizzle"."__drizzle_migrations"',
    close: async () => {
      await client.close();
      lock?.release();
    },
  };
}
