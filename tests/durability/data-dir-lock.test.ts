import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEN_5271_EXTRACT } from '../../src/server/db/seed/seed.ts';
import { npmRun } from '../helpers/commands.ts';
import { pgliteBackend, type Backend } from './support/backends.ts';
import { HttpClient } from './support/client.ts';
import { freePort, serverEnv, ServerProcess, startServer } from './support/server.ts';

/**
 * docs/requirements/platform.md §5.10: the PGlite data directory belongs to one process. While the server runs, a second
 * server or the BMF importer on the same DATA_DIR must exit non-zero with one readable line naming
 * the holder (no stack trace), without touching the data, and the first server keeps serving.
 */

const ADMIN = { email: 'admin@lock.test', password: 'Lock-admin-pass-1' };

/** Waits for a process to exit. @throws after `timeoutMs`, with what it printed */
async function exitOf(
  child: ReturnType<typeof spawn>,
  output: () => string,
  timeoutMs = 90_000,
): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms:\n${output()}`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

describe('a second process on the data directory of a running server (PGlite)', () => {
  let backend: Backend;
  let first: ServerProcess;
  let dbDir: string;
  let heldMessage: string;
  const submitted: string[] = [];

  beforeAll(async () => {
    backend = pgliteBackend();
    dbDir = path.join(backend.env.DATA_DIR, 'db');
    const port = await freePort();
    first = await startServer(
      port,
      serverEnv(port, { ...backend.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }),
    );
    heldMessage = `The database in ${dbDir} is in use by another GoodStanding process (pid ${first.pid}). Stop that process, or set DATA_DIR to another directory.`;
    const visitor = await new HttpClient(first.baseUrl).start();
    for (let n = 1; n <= 3; n++) {
      const email = `before-${n}@lock.test`;
      const res = await visitor.request('POST', '/contact', {
        name: `Sender ${n}`,
        email,
        subject: 'Membership',
        message: `Message ${n}`,
      });
      expect(res.status).toBe(201);
      submitted.push(email);
    }
  });

  afterAll(async () => {
    await first?.killHard();
    await backend?.cleanup();
  });

  /** The first server still answers: a new submission is stored and the admin inbox lists every one. */
  async function expectFirstServing(): Promise<void> {
    const visitor = await new HttpClient(first.baseUrl).start();
    const email = `after-${submitted.length + 1}@lock.test`;
    const res = await visitor.request('POST', '/contact', {
      name: 'Later Sender',
      email,
      subject: 'Renewals',
      message: 'Still there?',
    });
    expect(res.status).toBe(201);
    submitted.push(email);
    const admin = await new HttpClient(first.baseUrl).start();
    await admin.login(ADMIN.email, ADMIN.password);
    const inbox = await admin.request('GET', '/api/admin/inquiries?page=1');
    expect(inbox.status).toBe(200);
    const page = inbox.body as { total: number; data: { email: string }[] };
    expect(page.total).toBe(submitted.length);
    expect(page.data.map((r) => r.email).sort()).toEqual([...submitted].sort());
    expect(fs.readFileSync(backend.lockFile!, 'utf8').split(' ')[0]).toBe(String(first.pid));
  }

  it('a second server exits with one readable line naming the holder, and the first keeps serving', async () => {
    const port = await freePort();
    const second = new ServerProcess(port, serverEnv(port, backend.env));
    const code = await exitOf(second.child, () => second.output);
    expect(code).toBe(1);
    expect(second.stderr.trim()).toBe(heldMessage);
    expect(second.output).not.toMatch(STACK_LINE);
    expect(second.output).not.toContain('GoodStanding is running at');
    // It never listened.
    await expect(fetch(`http://127.0.0.1:${port}/api/session`)).rejects.toThrow();
    await expectFirstServing();
  });

  it('npm run import:bmf refuses the same way and imports nothing', async () => {
    const env = serverEnv(0, backend.env);
    const result = await npmRun('import:bmf', [GEN_5271_EXTRACT, '--gen', '5271'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(heldMessage);
    expect(result.stderr + result.stdout).not.toMatch(STACK_LINE);
    expect(result.stdout).not.toContain('imported');
    // Nothing was imported: the subordinate search is still empty.
    const search = await new HttpClient(first.baseUrl).request('GET', '/search?search=verify-501c3&keyword=&page=1');
    expect(search.status).toBe(200);
    expect((search.body as { total: number }).total).toBe(0);
    await expectFirstServing();
  });

  it('once the first server stops, the lock is gone and the importer opens the same data', async () => {
    expect(await first.stop()).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(backend.lockFile!)).toBe(false);
    const result = await npmRun('import:bmf', [GEN_5271_EXTRACT, '--gen', '5271'], serverEnv(0, backend.env));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Done: 806 organizations imported or updated\./);
    expect(fs.existsSync(backend.lockFile!)).toBe(false);

    // Everything the first server acknowledged is there, with its two mails each.
    const database = await backend.open();
    try {
      const rows = (await database.db.execute(
        sql`SELECT i.email, (SELECT count(*)::int FROM mail_outbox m WHERE m.kind = 'inquiry.ack' AND m.to_address = i.email) AS acks FROM inquiries i`,
      )) as unknown as { rows: { email: string; acks: number }[] };
      expect(rows.rows.map((r) => r.email).sort()).toEqual([...submitted].sort());
      expect(rows.rows.every((r) => Number(r.acks) === 1)).toBe(true);
    } finally {
      await database.close();
    }
  });
});
