import fs from 'node:fs';
import path from 'node:path';

/** Another live process holds the PGlite data directory (docs/requirements/platform.md §5.10). */
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
 * When the process `pid` started, in clock ticks since boot (Linux /proc/<pid>/stat field 22), or
 * null where /proc is not available. With the pid it names one process for good: after a kill -9
 * the pid may be handed to an unrelated process, which must not keep the data directory locked.
 */
function startTimeOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the lock's owner ("<pid> <start time>", or a bare pid) is still running. */
function ownerRunning(pid: number, startTime: string | undefined): boolean {
  if (!isAlive(pid)) return false;
  if (!startTime) return true;
  const current = startTimeOf(pid);
  return current === null || current === startTime;
}

/**
 * The live process holding `${dir}.lock`, if any (the server, while it runs on that directory).
 * @returns its pid, or null when the directory is free or its lock was left by a dead process
 */
export function liveLockHolder(dir: string): number | null {
  let held: string;
  try {
    held = fs.readFileSync(`${path.resolve(dir)}.lock`, 'utf8');
  } catch {
    return null;
  }
  const [pidText, startTime] = held.trim().split(' ');
  const pid = Number(pidText);
  return pid && pid !== process.pid && ownerRunning(pid, startTime) ? pid : null;
}

/**
 * Takes `${dir}.lock` (beside the directory, which PGlite owns) for this process: created exclusively, holding our pid
 * and its start time. A lock left by a dead process (kill -9) is taken over, also when its pid now
 * belongs to another process.
 * @throws DataDirLockedError when a live process other than this one holds it.
 */
export function acquireDataDirLock(dir: string): DataDirLock {
  const file = `${path.resolve(dir)}.lock`;
  const own = [process.pid, startTimeOf(process.pid)].filter((v) => v !== null).join(' ');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, own, { flag: 'wx' });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(file, 'utf8') === own) fs.unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let held: string;
      try {
        held = fs.readFileSync(file, 'utf8');
      } catch (readErr) {
        // Released between our attempt and this read: try again.
        if ((readErr as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw readErr;
      }
      const [pidText, startTime] = held.trim().split(' ');
      const pid = Number(pidText);
      if (pid && pid !== process.pid && ownerRunning(pid, startTime)) throw new DataDirLockedError(dir, pid);
      fs.unlinkSync(file);
    }
  }
  throw new DataDirLockedError(dir, 0);
}
