import fs from 'node:fs';
import path from 'node:path';

/** Another live process holds the PGlite data directory (DESIGN §5.10). */
export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The database in ${dir} is in use by another GoodStanding process (pid ${pid}). ` +
        'Stop that process, or set DATA_DIR to another directory.',
    );
  }
}

export interface DataDirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `${dir}.lock` (beside the directory, which PGlite owns) for this process: created exclusively, holding our pid. A lock
 * left by a dead process (kill -9) is taken over.
 * @throws DataDirLockedError when a live process other than this one holds it.
 */
export function acquireDataDirLock(dir: string): DataDirLock {
  const file = `${path.resolve(dir)}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(file, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid);
      fs.unlinkSync(file);
    }
  }
  throw new DataDirLockedError(dir, 0);
}
