import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../../src/server/db/client.ts';

/** Where a server under test keeps its data, and how the test opens that data itself. */
export interface Backend {
  label: 'PGlite' | 'PostgreSQL';
  /** DATA_DIR (and DATABASE_URL for PostgreSQL) for the server. */
  env: Record<string, string>;
  /** The PGlite directory's lock file, or null on PostgreSQL. */
  lockFile: string | null;
  /** Opens the database in this process (PGlite: only while no server runs on it). */
  open(): Promise<Database>;
  /** Removes the data directory, or drops the database. */
  cleanup(): Promise<void>;
}

/** A fresh temporary DATA_DIR on embedded PGlite (`$DATA_DIR/db`, as main.ts opens it). */
export function pgliteBackend(): Backend {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-durability-'));
  const dbDir = path.join(dataDir, 'db');
  return {
    label: 'PGlite',
    env: { DATA_DIR: dataDir },
    lockFile: `${dbDir}.lock`,
    open: () => openDatabase({ pgliteDir: dbDir }),
    async cleanup() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh database on the PostgreSQL server of `serverUrl` (created here, dropped by cleanup), so
 * the server under test migrates it from nothing with its default schemas, as in production.
 */
export async function postgresBackend(serverUrl: string): Promise<Backend> {
  const name = `gs_durability_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-durability-'));
  return {
    label: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    lockFile: null,
    open: () => openDatabase({ url: url.toString(), poolSize: 2 }),
    async cleanup() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
