import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmRun } from '../helpers/commands.ts';
import { HttpClient } from './support/client.ts';
import { freePort, serverEnv, ServerProcess, startServer } from './support/server.ts';

/**
 * docs/operations.md "Backup and restore": `npm run db:backup` takes a consistent copy of the
 * embedded database while the server runs and keeps serving; `npm run db:restore` puts it into a
 * fresh data folder, where every table has the rows it had, and the server starts on it and signs
 * the same user in. A restore refuses while a server runs on the folder.
 */

const ADMIN = { email: 'admin@backup.test', password: 'Backup-admin-pass-1' };

let dataDir: string;
let restoredDir: string;
let backupFile: string;
const running: ServerProcess[] = [];

/** Every table of the database in `pgliteDir` (the server stopped) with its number of rows. */
async function rowCounts(pgliteDir: string): Promise<Record<string, number>> {
  const pg = await PGlite.create(pgliteDir, { extensions: { pg_trgm } });
  try {
    const { rows: tables } = await pg.query<{ name: string }>(
      "SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables)
      counts[name] = (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}`)).rows[0].n;
    return counts;
  } finally {
    await pg.close();
  }
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-backup-'));
  restoredDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-restored-'));
  backupFile = path.join(dataDir, 'backups', 'nightly.tar.gz');
});

afterAll(async () => {
  for (const server of running) if (server.running) await server.killHard();
  for (const dir of [dataDir, restoredDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore of the embedded database', () => {
  it('backs up while serving, restores into a fresh data folder with every row, and the server starts on it', async () => {
    const port = await freePort();
    const env = serverEnv(port, {
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    const server = await startServer(port, env);
    running.push(server);
    // Rows written through the product: a session, and the seed's accounts, levels, invoices…
    await new HttpClient(server.baseUrl).start().then((c) => c.login(ADMIN.email, ADMIN.password));

    // Pages keep being served while the backup is taken.
    let served = 0;
    let serving = true;
    const load = (async () => {
      while (serving) {
        const res = await fetch(`${server.baseUrl}/pricing`);
        expect(res.status).toBe(200);
        served++;
      }
    })();
    const backup = await npmRun('db:backup', ['--out', backupFile], env);
    serving = false;
    await load;
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      new RegExp(`^Backup written to ${backupFile} \\([\\d.]+ MB in [\\d.]+ s, by the running server\\)\\.`),
    );
    expect(backup.stdout).toContain(`Restore it with: npm run db:restore -- --from ${backupFile}`);
    expect(served).toBeGreaterThan(0);
    expect(fs.statSync(backupFile).size).toBeGreaterThan(100_000);
    expect(server.running).toBe(true);

    // While the server runs, a restore onto its folder is refused and changes nothing.
    const refused = await npmRun('db:restore', ['--from', backupFile], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      /^The database in .* is in use by another GoodStanding process \(pid \d+\)\. Stop that process/,
    );

    expect((await server.stop()).code).toBe(0);
    const original = await rowCounts(path.join(dataDir, 'db'));

    const restoredEnv = serverEnv(port, { DATA_DIR: restoredDir, SEED_DEMO: '1' });
    const restore = await npmRun('db:restore', ['--from', backupFile], restoredEnv);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^Restored .* into .*\/db \(\d+ tables\)\./);
    const restored = await rowCounts(path.join(restoredDir, 'db'));
    expect(restored).toEqual(original);
    // The comparison covers the product's data, not empty tables only.
    expect(Object.keys(original).length).toBeGreaterThan(30);
    expect(original['public.users']).toBeGreaterThan(1);
    expect(original['public.invoices']).toBeGreaterThan(0);
    expect(original['public.sessions']).toBeGreaterThan(0);

    // The server starts on the restored folder as an existing installation: no new seed, same sign-in.
    const second = await startServer(port, restoredEnv);
    running.push(second);
    expect(second.output).not.toContain('First start');
    const client = await new HttpClient(second.baseUrl).start();
    await client.login(ADMIN.email, ADMIN.password);
    expect((await client.request('GET', '/api/session')).body).toMatchObject({
      user: { email: ADMIN.email, isAdmin: true },
    });
    expect((await second.stop()).code).toBe(0);
  }, 240_000);

  it("backs up a stopped server's folder itself, and a second restore keeps the database it replaces", async () => {
    const env = serverEnv(await freePort(), { DATA_DIR: restoredDir });
    const stoppedBackup = path.join(restoredDir, 'offline.tar.gz');
    const backup = await npmRun('db:backup', ['--out', stoppedBackup], env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).not.toContain('by the running server');

    const restore = await npmRun('db:restore', ['--from', stoppedBackup], env);
    expect(restore.code, restore.stderr).toBe(0);
    const kept = restore.stdout.match(/The database that was there is kept in (\S+);/)?.[1];
    expect(kept).toBeDefined();
    expect(fs.existsSync(path.join(kept!, 'PG_VERSION'))).toBe(true);
    expect(await rowCounts(path.join(restoredDir, 'db'))).toEqual(await rowCounts(kept!));

    const notABackup = path.join(restoredDir, 'not-a-backup.tar.gz');
    fs.writeFileSync(notABackup, 'hello');
    const bad = await npmRun('db:restore', ['--from', notABackup], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/is not a backup of the embedded database .*; nothing was changed\./);
    expect(fs.existsSync(path.join(restoredDir, 'db', 'PG_VERSION'))).toBe(true);
  }, 180_000);
});
