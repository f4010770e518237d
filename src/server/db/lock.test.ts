import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './lock.ts';

const tempDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-lock-')), 'db');

describe('PGlite data directory lock (docs/requirements/platform.md §5.10)', () => {
  it('refuses a directory held by another live process, naming it', () => {
    const dir = tempDir();
    fs.writeFileSync(`${dir}.lock`, String(process.ppid));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(
      new RegExp(`in use by another GoodStanding process \\(pid ${process.ppid}\\)`),
    );
  });

  it('takes over a lock left by a process that died', () => {
    const dir = tempDir();
    fs.writeFileSync(`${dir}.lock`, '2147483646');
    const lock = acquireDataDirLock(dir);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+$`));
    lock.release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it('takes over a lock whose pid now belongs to another process (the start time differs)', () => {
    const dir = tempDir();
    fs.writeFileSync(`${dir}.lock`, `${process.ppid} 1`);
    const lock = acquireDataDirLock(dir);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8').split(' ')[0]).toBe(String(process.pid));
    lock.release();
  });

  it('refuses a lock held by a live process with its own start time', () => {
    const dir = tempDir();
    // The parent's start time: /proc/<pid>/stat field 22.
    const stat = fs.readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    const parentStart = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    fs.writeFileSync(`${dir}.lock`, `${process.ppid} ${parentStart}`);
    expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`\\(pid ${process.ppid}\\)`));
  });
});
