import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { accounts, auditLog, irsOrganizations, jobRuns, levels } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { adminJobContracts } from '../../src/shared/contracts/admin-jobs.ts';
import { Agent, createSecondServer, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';
import type { JobDefinition } from '../../src/server/jobs/definitions.ts';

/**
 * The jobs module (docs/jobs.md): every run recorded with its items, failures retried per the
 * job's policy, timeouts recorded, staff's "Run now", one run per schedule slot across servers
 * (PostgreSQL: pg-boss), and a shutdown that waits for the running job.
 */

const STAFF = { email: 'jobs.staff@example.com', password: 'Jobs-staff-pass-1' };
const HOLDER = { email: 'jobs.holder@example.com', password: 'Jobs-holder-pass-1' };
const HOUR = 3_600_000;

let t: TestApp;
let staff: Agent;
beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await createUser(db, { ...STAFF, isAdmin: true });
  const account = await createAccount(db, { name: 'Jobs Holder Boosters' });
  await createUser(db, { ...HOLDER, accountId: account.id });
  staff = await signedIn(t.app, STAFF);
});
afterAll(async () => {
  await t?.close();
});

/** A job of this test's own, on a schedule the test can wait out. */
function testJob(name: string, run: JobDefinition['run'], over: Partial<JobDefinition> = {}): JobDefinition {
  return {
    name,
    title: `Test job ${name}`,
    schedule: () => ({ everyMs: HOUR }),
    firstRunMs: 0,
    timeoutMs: 10_000,
    retry: { limit: 0, delayMs: 0 },
    run,
    ...over,
  };
}

const runsOf = (app: TestApp, name: string) =>
  app.database.db.select().from(jobRuns).where(eq(jobRuns.jobName, name)).orderBy(asc(jobRuns.id));

describe('Admin → Jobs', () => {
  it('lists every job with its title, schedule and no run yet', async () => {
    const res = await staff.call(adminJobContracts.list);
    expect(res.statusCode, res.body).toBe(200);
    const jobs = res.json().data as {
      name: string;
      title: string;
      schedule: string;
      last_run: unknown;
      unavailable: string | null;
      next_run_at: string | null;
    }[];
    expect(jobs.map((j) => j.name)).toEqual([
      'outbox-delivery',
      'compliance-reminders',
      'gen-update-reminders',
      'payment-reconciliation',
      'upload-housekeeping',
      'retention',
      'database-vacuum',
      'level-wizard-refresh',
      'irs-data-refresh',
      'irs-bulk-check-resume',
    ]);
    const byName = Object.fromEntries(jobs.map((j) => [j.name, j]));
    expect(byName['compliance-reminders']).toMatchObject({
      title: 'Compliance deadline reminders',
      schedule: 'Every day',
      last_run: null,
    });
    expect(byName['payment-reconciliation']).toMatchObject({ schedule: 'Every 10 minutes' });
    expect(byName.retention).toMatchObject({
      title: 'Retention (pruning old rows and orphaned files)',
      schedule: 'Every day',
      unavailable: null,
    });
    expect(byName['level-wizard-refresh']).toMatchObject({ schedule: 'At server start', next_run_at: null });
    expect(byName['irs-bulk-check-resume']).toMatchObject({ schedule: 'Every 5 seconds', unavailable: null });
    // No SMTP server in this test app, no IRS download nor IRS_DATA_DIR: said, not hidden.
    expect(byName['outbox-delivery'].unavailable).toMatch(/SMTP/);
    expect(byName['irs-data-refresh'].unavailable).toMatch(/IRS_DATA_DIR/);
    // The next daily run is the next midnight UTC.
    const next = new Date(byName['compliance-reminders'].next_run_at!);
    expect(next.getTime() % (24 * HOUR)).toBe(0);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    if (t.database.kind === 'pglite') expect(byName['database-vacuum'].unavailable).toBeNull();
    else expect(byName['database-vacuum'].unavailable).toMatch(/embedded database only/);
  });

  it('runs a job now for staff: the run is recorded with its items, audited, and shown as the last run', async () => {
    const db = t.database.db;
    await db
      .update(levels)
      .set({ schema: { title: 'Outdated', submission_alert: '', pages: [] } })
      .where(eq(levels.slug, 'maintain'));
    const res = await staff.call(adminJobContracts.run, { params: { name: 'level-wizard-refresh' } });
    expect(res.statusCode, res.body).toBe(200);
    const { message, run } = res.json();
    expect(message).toBe('Level wizard refresh ran: 1 done.');
    expect(run).toMatchObject({
      job_name: 'level-wizard-refresh',
      result: 'ok',
      items_done: 1,
      summary: { updated: ['maintain'] },
      trigger: 'staff',
      error: null,
    });
    expect(new Date(run.finished_at).getTime()).toBeGreaterThanOrEqual(new Date(run.started_at).getTime());

    // Rewrites only what changed: the second run finds nothing to do.
    const again = (await staff.call(adminJobContracts.run, { params: { name: 'level-wizard-refresh' } })).json().run;
    expect(again).toMatchObject({ result: 'ok', items_done: 0, summary: { updated: [] } });

    const audit = await db.select().from(auditLog).where(eq(auditLog.action, 'job.run'));
    expect(audit.map((a) => a.details)).toEqual([
      { job: 'level-wizard-refresh', runId: run.id, result: 'ok', itemsDone: 1 },
      { job: 'level-wizard-refresh', runId: again.id, result: 'ok', itemsDone: 0 },
    ]);
    const listed = (await staff.call(adminJobContracts.list))
      .json()
      .data.find((j: { name: string }) => j.name === 'level-wizard-refresh');
    expect(listed.last_run).toMatchObject({ id: again.id, result: 'ok', items_done: 0 });

    const history = (await staff.call(adminJobContracts.runs, { params: { name: 'level-wizard-refresh' } })).json();
    expect(history).toMatchObject({ total: 2, current_page: 1 });
    expect(history.data.map((r: { id: number }) => r.id)).toEqual([again.id, run.id]);
  });

  it('answers 404 for an unknown job and 409 for one that cannot run here', async () => {
    expect((await staff.call(adminJobContracts.run, { params: { name: 'no-such-job' } })).statusCode).toBe(404);
    expect((await staff.call(adminJobContracts.runs, { params: { name: 'no-such-job' } })).statusCode).toBe(404);
    const res = await staff.call(adminJobContracts.run, { params: { name: 'irs-data-refresh' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/IRS_DATA_DIR is not set/);
  });

  it('refuses the list, the history and run now to a visitor (401) and an account user (403), and a post without the CSRF token', async () => {
    const visitor = await new Agent(t.app).start();
    const holder = await signedIn(t.app, HOLDER);
    for (const [who, status] of [
      [visitor, 401],
      [holder, 403],
    ] as const) {
      expect((await who.call(adminJobContracts.list)).statusCode).toBe(status);
      expect((await who.call(adminJobContracts.runs, { params: { name: 'level-wizard-refresh' } })).statusCode).toBe(
        status,
      );
      expect((await who.call(adminJobContracts.run, { params: { name: 'level-wizard-refresh' } })).statusCode).toBe(
        status,
      );
    }
    expect((await holder.get('/admin/jobs')).statusCode).toBe(403);
    const noToken = await staff.request('POST', '/api/admin/jobs/level-wizard-refresh/run', {}, {}, false);
    expect(noToken.statusCode).toBe(419);
    const runs = await t.database.db
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.jobName, 'level-wizard-refresh')));
    expect(runs).toHaveLength(2);
  });
});

describe('IRS data refresh', () => {
  const BMF_HEADER =
    'EIN,NAME,ICO,STREET,CITY,STATE,ZIP,GROUP,SUBSECTION,AFFILIATION,CLASSIFICATION,RULING,DEDUCTIBILITY,FOUNDATION,ACTIVITY,ORGANIZATION,STATUS,TAX_PERIOD,ASSET_CD,INCOME_CD,FILING_REQ_CD,PF_FILING_REQ_CD,ACCT_PD,ASSET_AMT,INCOME_AMT,REVENUE_AMT,NTEE_CD,SORT_NAME';
  const row = (ein: string, name: string) =>
    `${ein},${name},,1 LAKE RD,PALMER,AK,99645-9189,5271,03,9,2100,200510,1,16,000000000,1,01,202506,0,0,02,0,06,0,0,0,B112,`;

  it('imports each new BMF file of IRS_DATA_DIR once, known by its checksum', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'goodstanding-irs-'));
    const app = await buildApp(
      { ...t.config, jobs: { ...t.config.jobs, irsDataDir: dir } },
      { database: t.database, logger: false },
    );
    try {
      const admin = await signedIn(app, STAFF);
      await writeFile(
        path.join(dir, 'eo_ak.csv'),
        [
          BMF_HEADER,
          row('990001801', 'IRS REFRESH LAKE BOOSTERS'),
          row('990001802', 'IRS REFRESH HILL BOOSTERS'),
          '',
        ].join('\n'),
      );
      await writeFile(path.join(dir, 'notes.txt'), 'not a data file');
      const first = (await admin.call(adminJobContracts.run, { params: { name: 'irs-data-refresh' } })).json().run;
      expect(first).toMatchObject({
        result: 'ok',
        items_done: 1,
        summary: { imported: [{ file: 'eo_ak.csv', rows: 2 }], alreadyImported: 0 },
      });
      // The IRS's facts are kept apart from the accounts: the load creates no account
      // (docs/irs-data.md "IRS facts").
      const imported = await t.database.db
        .select({ name: irsOrganizations.name })
        .from(irsOrganizations)
        .where(eq(irsOrganizations.ein, '990001801'));
      expect(imported).toEqual([{ name: 'IRS REFRESH LAKE BOOSTERS' }]);
      expect(await t.database.db.select().from(accounts).where(eq(accounts.ein, '990001801'))).toEqual([]);

      // The same bytes under another name are skipped; a new file is imported.
      await writeFile(
        path.join(dir, 'eo_ak_copy.csv'),
        [
          BMF_HEADER,
          row('990001801', 'IRS REFRESH LAKE BOOSTERS'),
          row('990001802', 'IRS REFRESH HILL BOOSTERS'),
          '',
        ].join('\n'),
      );
      await writeFile(
        path.join(dir, 'eo_wy.csv'),
        [BMF_HEADER, row('990001803', 'IRS REFRESH PLAINS BOOSTERS'), ''].join('\n'),
      );
      const second = (await admin.call(adminJobContracts.run, { params: { name: 'irs-data-refresh' } })).json().run;
      expect(second).toMatchObject({
        result: 'ok',
        items_done: 1,
        summary: { imported: [{ file: 'eo_wy.csv', rows: 1 }], alreadyImported: 2 },
      });

      // A file that is not a BMF extract fails the run with the importer's message, and is tried again next time.
      await writeFile(path.join(dir, 'eo_zz.csv'), 'name,email\nSomeone,someone@example.com\n');
      const failed = (await admin.call(adminJobContracts.run, { params: { name: 'irs-data-refresh' } })).json().run;
      expect(failed).toMatchObject({ result: 'failed', items_done: 0 });
      expect(failed.error).toMatch(/is not an IRS EO BMF extract/);
      await rm(path.join(dir, 'eo_zz.csv'));

      // The other data sets, in a folder per release date.
      await mkdir(path.join(dir, 'revocations', '2026-10-14'), { recursive: true });
      await writeFile(
        path.join(dir, 'revocations', '2026-10-14', 'revocations.txt'),
        '990001801|IRS REFRESH LAKE BOOSTERS||1 LAKE RD|PALMER|AK|99645|US|03|15-MAY-2026|10-AUG-2026|\n',
      );
      const third = (await admin.call(adminJobContracts.run, { params: { name: 'irs-data-refresh' } })).json().run;
      expect(third).toMatchObject({
        result: 'ok',
        items_done: 1,
        summary: {
          imported: [
            {
              file: 'revocations/2026-10-14/revocations.txt',
              dataset: 'revocations',
              releasedOn: '2026-10-14',
              rows: 1,
            },
          ],
          alreadyImported: 3,
        },
      });
      // The instant check reads the organization's standing from what the job loaded.
      expect((await app.inject({ method: 'GET', url: '/api/irs/organizations/990001801' })).json()).toMatchObject({
        name: 'IRS REFRESH LAKE BOOSTERS',
        standing: { state: 'revoked', irs: { revoked_on: '2026-05-15' } },
      });
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('running jobs', () => {
  it('records a failed run with its error and retries it per the policy', async () => {
    let calls = 0;
    const flaky = testJob(
      'flaky',
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('The gateway did not answer');
        return { itemsDone: 3 };
      },
      { retry: { limit: 2, delayMs: 200 } },
    );
    const app = await createSecondServer(t, undefined, { jobs: [flaky], jobRunner: { pollSeconds: 0.5 } });
    try {
      await app.app.jobs.start();
      expect(
        await waitFor(async () => {
          const runs = await runsOf(t, 'flaky');
          return runs.length >= 2 && runs.every((r) => r.result !== 'running');
        }, 20_000),
      ).toBe(true);
      const runs = await runsOf(t, 'flaky');
      expect(runs.map((r) => [r.result, r.attempt, r.error, r.itemsDone, r.trigger])).toEqual([
        ['failed', 1, 'The gateway did not answer', 0, 'schedule'],
        ['ok', 2, null, 3, 'schedule'],
      ]);
    } finally {
      await app.close();
    }
    // Succeeded on the retry: no third attempt.
    expect(calls).toBe(2);
  });

  it('records a run past its timeout as timed out, and keeps the job busy until its work ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ended = false;
    const slow = testJob(
      'slow',
      async () => {
        await gate;
        ended = true;
        return { itemsDone: 1 };
      },
      { timeoutMs: 200, schedule: () => null },
    );
    const app = await createSecondServer(t, undefined, { jobs: [slow] });
    try {
      const admin = await signedIn(app.app, STAFF);
      const res = await admin.call(adminJobContracts.run, { params: { name: 'slow' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        message: 'Test job slow timed out.',
        run: { result: 'timed_out', error: 'Timed out after 200 ms', items_done: 0 },
      });
      const busy = await admin.call(adminJobContracts.run, { params: { name: 'slow' } });
      expect(busy.statusCode).toBe(409);
      expect(busy.json().message).toBe('Test job slow is already running.');
      release();
      expect(await waitFor(() => ended, 5_000)).toBe(true);
      expect(
        await waitFor(
          async () => (await admin.call(adminJobContracts.run, { params: { name: 'slow' } })).statusCode === 200,
          5_000,
        ),
      ).toBe(true);
      const listed = (await admin.call(adminJobContracts.list)).json().data[0];
      expect(listed.recent_failures.map((r: { result: string }) => r.result)).toEqual(['timed_out']);
      expect(listed.last_run).toMatchObject({ result: 'ok', items_done: 1 });
    } finally {
      await app.close();
    }
  });

  it('app.close() waits for a running job, which ends recorded before the database closes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const long = testJob('long', async () => {
      started = true;
      await gate;
      return { itemsDone: 7 };
    });
    const app = await createSecondServer(t, undefined, { jobs: [long], jobRunner: { pollSeconds: 0.5 } });
    await app.app.jobs.start();
    expect(await waitFor(() => started, 20_000)).toBe(true);
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    // Still closing while the job runs; it finishes once released.
    expect(await waitFor(async () => (await runsOf(t, 'long'))[0]?.result === 'running', 5_000)).toBe(true);
    expect(closed).toBe(false);
    release();
    await closing;
    const [run] = await runsOf(t, 'long');
    expect(run).toMatchObject({ result: 'ok', itemsDone: 7 });
  });

  it('runs a scheduled job once per slot, however many servers share the database', async () => {
    const slots: number[] = [];
    const ticking = testJob(
      'ticking',
      async ({ slot }) => {
        slots.push(slot!.getTime());
        return { itemsDone: 1 };
      },
      { schedule: () => ({ everyMs: 1000 }) },
    );
    // PGlite is one process per data directory: one server. On PostgreSQL, two servers (pg-boss).
    const servers = await Promise.all(
      Array.from({ length: t.database.kind === 'postgres' ? 2 : 1 }, () =>
        createSecondServer(t, undefined, { jobs: [ticking], jobRunner: { pollSeconds: 0.5 } }),
      ),
    );
    try {
      await Promise.all(servers.map((s) => s.app.jobs.start()));
      expect(await waitFor(() => new Set(slots).size >= 4, 20_000)).toBe(true);
    } finally {
      for (const s of servers) await s.close();
    }
    expect(slots.length).toBe(new Set(slots).size);
    const runs = await runsOf(t, 'ticking');
    expect(runs.length).toBe(slots.length);
    expect(runs.every((r) => r.result === 'ok' && r.itemsDone === 1)).toBe(true);
  });
});
