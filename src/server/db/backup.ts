import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { acquireDataDirLock, liveLockHolder } from './lock.ts';

/** Where `npm run db:backup` leaves its request for the server running on `pgliteDir`. */
const backupRequestFile = (pgliteDir: string) => `${path.resolve(pgliteDir)}.backup-request.json`;

/** The signal that tells a running server to read its backup request (docs/operations.md "Backup and restore"). */
const BACKUP_SIGNAL = 'SIGUSR2';

/** A backup or restore that cannot be done as asked; the message says why and what to do. */
export class BackupError extends Error {}

/**
 * Writes `dump()`'s bytes to `file` whole or not at all: into `${file}.partial`, then renamed.
 * @returns the size written, in bytes
 */
async function writeBackupFile(dump: () => Promise<Uint8Array>, file: string): Promise<number> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  try {
    const bytes = await dump();
    fs.writeFileSync(partial, bytes);
    fs.renameSync(partial, file);
    return bytes.length;
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/**
 * Makes this server answer backup requests (docs/operations.md "Backup and restore"): on
 * BACKUP_SIGNAL it reads {@link backupRequestFile}, writes the embedded database's consistent dump
 * to the file it names, and on failure writes the reason to `${file}.error`. Runs while serving.
 * @returns a function that stops answering
 */
export function answerBackupRequests(
  pgliteDir: string,
  dump: () => Promise<Uint8Array>,
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
): () => void {
  let running: Promise<void> | null = null;
  const onSignal = () => {
    if (running) return;
    running = (async () => {
      let request: { file: string };
      try {
        request = JSON.parse(fs.readFileSync(backupRequestFile(pgliteDir), 'utf8')) as { file: string };
        fs.rmSync(backupRequestFile(pgliteDir), { force: true });
      } catch {
        return;
      }
      const started = Date.now();
      try {
        const bytes = await writeBackupFile(dump, request.file);
        log.info({ file: request.file, bytes, ms: Date.now() - started }, 'database backup written');
      } catch (err) {
        log.error({ err, file: request.file }, 'database backup failed');
        fs.writeFileSync(`${request.file}.error`, String((err as Error).message ?? err));
      }
    })().finally(() => {
      running = null;
    });
  };
  process.on(BACKUP_SIGNAL, onSignal);
  return () => process.off(BACKUP_SIGNAL, onSignal);
}

/**
 * Backs up the embedded database in `pgliteDir` to `file`: through the server when one runs on it
 * (a consistent dump while it serves), otherwise by opening the directory itself.
 * @param opts.timeoutMs longest wait for the running server's dump
 * @returns the size written in bytes, and whether a running server wrote it
 * @throws BackupError when the directory holds no database, or the server reports a failure or does not answer in time
 */
export async function backupEmbeddedDatabase(
  pgliteDir: string,
  file: string,
  opts: { timeoutMs?: number } = {},
): Promise<{ bytes: number; throughServer: boolean }> {
  if (!fs.existsSync(path.join(pgliteDir, 'PG_VERSION')))
    throw new BackupError(`There is no database in ${pgliteDir} to back up (DATA_DIR).`);
  fs.rmSync(file, { force: true });
  fs.rmSync(`${file}.error`, { force: true });
  const pid = liveLockHolder(pgliteDir);
  if (pid) {
    fs.writeFileSync(backupRequestFile(pgliteDir), JSON.stringify({ file: path.resolve(file) }));
    process.kill(pid, BACKUP_SIGNAL);
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    while (Date.now() < deadline) {
      if (fs.existsSync(`${file}.error`)) {
        const reason = fs.readFileSync(`${file}.error`, 'utf8');
        fs.rmSync(`${file}.error`, { force: true });
        throw new BackupError(`The server (pid ${pid}) could not write the backup: ${reason}`);
      }
      if (fs.existsSync(file)) return { bytes: fs.statSync(file).size, throughServer: true };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    fs.rmSync(backupRequestFile(pgliteDir), { force: true });
    throw new BackupError(
      `The server (pid ${pid}) did not write the backup within ${Math.round((opts.timeoutMs ?? 600_000) / 1000)} s; see its log.`,
    );
  }
  const lock = acquireDataDirLock(pgliteDir);
  try {
    const pg = await PGlite.create(pgliteDir, { extensions: { pg_trgm } });
    try {
      const bytes = await writeBackupFile(async () => {
        await pg.query('CHECKPOINT');
        return new Uint8Array(await (await pg.dumpDataDir('gzip')).arrayBuffer());
      }, file);
      return { bytes, throughServer: false };
    } finally {
      await pg.close();
    }
  } finally {
    lock.release();
  }
}

/**
 * Restores a backup made by {@link backupEmbeddedDatabase} into `pgliteDir`. The server must be
 * stopped. A database already there is moved aside to `${pgliteDir}.before-restore-<time>`, not
 * deleted. Writes: the data directory.
 * @returns where the previous database was moved, if there was one, and the number of tables restored
 * @throws DataDirLockedError while a server runs on the directory; BackupError when the file is not a backup
 */
export async function restoreEmbeddedDatabase(
  file: string,
  pgliteDir: string,
): Promise<{ movedAside: string | null; tables: number }> {
  if (!fs.existsSync(file)) throw new BackupError(`No backup file at ${file}.`);
  fs.mkdirSync(path.dirname(path.resolve(pgliteDir)), { recursive: true });
  const lock = acquireDataDirLock(pgliteDir);
  try {
    let movedAside: string | null = null;
    if (fs.existsSync(pgliteDir) && fs.readdirSync(pgliteDir).length > 0) {
      movedAside = `${path.resolve(pgliteDir)}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(pgliteDir, movedAside);
    }
    fs.rmSync(pgliteDir, { recursive: true, force: true });
    let pg: PGlite;
    try {
      pg = await PGlite.create(pgliteDir, { loadDataDir: new Blob([fs.readFileSync(file)]), extensions: { pg_trgm } });
    } catch (err) {
      fs.rmSync(pgliteDir, { recursive: true, force: true });
      if (movedAside) fs.renameSync(movedAside, pgliteDir);
      throw new BackupError(
        `${file} is not a backup of the embedded database (${(err as Error).message}); nothing was changed.`,
      );
    }
    try {
      const { rows } = await pg.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
      );
      return { movedAside, tables: rows[0].n };
    } finally {
      await pg.close();
    }
  } finally {
    lock.release();
  }
}
