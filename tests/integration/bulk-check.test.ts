import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, irsBulkChecks } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { JOBS } from '../../src/server/jobs/definitions.ts';
import { BULK_CHECK_GIVEN_UP, BULK_CHECK_MAX_TAKEOVERS } from '../../src/server/modules/irs-data/bulk-check-runs.ts';
import { checkOrganization, NOT_FOUND_REASONS } from '../../src/server/modules/irs-data/check-organization.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { runRetention } from '../../src/server/modules/retention/run-retention.ts';
import { calendarDate } from '../../src/shared/rules/compliance-calendar.ts';
import { IRS_BULK_CHECK_COLUMNS, IRS_BULK_CHECK_MAX_ROWS } from '../../src/shared/schemas/irs-bulk-check.ts';
import { Agent, createSecondServer, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * Checking a list of EINs (docs/irs-standing.md "Checking a list of EINs"): staff upload a CSV of
 * EINs and download a CSV of standings, each line what the instant check answers for that EIN; a
 * check left by a stopped server is taken up by the bulk-check job of any server, by one at a time;
 * finished checks are deleted after RETAIN_BULK_CHECK_DAYS. Real rows: eo_ok.csv (April 2026) and
 * the revocation list fixture (99-0000004 revoked and gone from the BMF). On PostgreSQL the second
 * server has its own connection pool on the same database; on PGlite it shares the first's.
 */

const EO_OK = path.resolve('../shared/data/irs-eo-bmf/eo_ok.csv');
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'irs');
const URL = '/api/admin/irs-bulk-checks';
const STAFF = { email: 'bulk.staff@example.com', password: 'Staff-pass-2026' };
/** The job that takes up checks whose server stopped (docs/jobs.md). */
const RESUME_JOB = JOBS.find((job) => job.name === 'irs-bulk-check-resume')!;

let t: TestApp;
let staff: Agent;
let member: Agent;
let visitor: Agent;
/** EINs of eo_ok.csv, in the file's order. */
let bmfEins: string[];

const csvFile = (content: string, fileName = 'eins.csv') => [
  { field: 'file', fileName, content: Buffer.from(content), type: 'text/csv' },
];

/** Uploads `content` as staff and waits for the check to finish; answers its id and final state. */
async function checkToEnd(content: string) {
  const res = await staff.upload(URL, {}, csvFile(content));
  expect(res.statusCode, res.body).toBe(201);
  const started = res.json();
  expect(started).toMatchObject({ status: 'running', done: 0, file_name: 'eins.csv' });
  let last = started;
  expect(
    await waitFor(async () => {
      last = (await staff.get(`${URL}/${started.id}`)).json();
      return last.status !== 'running';
    }, 60_000),
  ).toBe(true);
  return last;
}

/** A check's row as stored, its lease and partial result included. */
async function rowOf(id: number) {
  const [row] = await t.database.db.select().from(irsBulkChecks).where(eq(irsBulkChecks.id, id));
  return row;
}

/** The result CSV of `eins` checked in one go by an upload, and the check's counts. */
async function uninterrupted(eins: string[]) {
  const done = await checkToEnd(eins.join('\n'));
  const res = await staff.get(`${URL}/${done.id}/result.csv`);
  expect(res.statusCode).toBe(200);
  return { csv: res.body, counts: done.counts as Record<string, number> };
}

beforeAll(async () => {
  t = await createTestApp();
  expect(await loadIrsRelease(t.database.db, { dataset: 'bmf', file: EO_OK, releasedOn: '2026-04' })).toMatchObject({
    status: 'loaded',
  });
  await loadIrsRelease(t.database.db, {
    dataset: 'revocations',
    file: path.join(FIXTURES, 'revocations-2026-10.txt'),
    releasedOn: '2026-10-14',
  });
  bmfEins = (parse(readFileSync(EO_OK), { columns: true }) as { EIN: string }[]).map((r) => r.EIN);
  await createUser(t.database.db, { ...STAFF, isAdmin: true });
  await createUser(t.database.db, { email: 'bulk.member@example.com', password: 'Member-pass-2026' });
  staff = await signedIn(t.app, STAFF);
  member = await signedIn(t.app, { email: 'bulk.member@example.com', password: 'Member-pass-2026' });
  visitor = await new Agent(t.app).start();
});
afterAll(async () => {
  await t?.close();
});

describe('checking a list of EINs', () => {
  it('answers each EIN as the instant check does, once, with its progress reaching the total', async () => {
    const good = bmfEins.slice(0, 3);
    const unknown = '990009999';
    const dashed = (e: string) => `${e.slice(0, 2)}-${e.slice(2)}`;
    // A header, EINs with and without the dash, a repeat, a blank line, a revoked EIN gone from the BMF, an unknown one.
    const content = [
      'EIN,Note',
      `${dashed(good[0])},first`,
      good[1],
      '',
      `${good[2]}`,
      good[0],
      '99-0000004',
      unknown,
    ].join('\r\n');
    const done = await checkToEnd(content);
    expect(done).toMatchObject({ status: 'done', total: 5, done: 5, error: null });

    const res = await staff.get(`${URL}/${done.id}/result.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const [header, ...lines] = parse(res.body) as string[][];
    expect(header).toEqual([...IRS_BULK_CHECK_COLUMNS]);
    const eins = [...good, '990000004', unknown];
    expect(lines.map((l) => l[0].replace('-', ''))).toEqual(eins);

    const today = calendarDate(new Date());
    const counts: Record<string, number> = {};
    for (const [i, ein] of eins.slice(0, 4).entries()) {
      const check = await checkOrganization(t.database.db, ein, today);
      counts[check.standing.state] = (counts[check.standing.state] ?? 0) + 1;
      const irs = check.standing.irs;
      const expected = [
        check.ein_formatted,
        check.name,
        check.city,
        check.state,
        check.standing.label,
        irs.return_owed,
        irs.latest_period_filed ?? (irs.latest_tax_year_filed ? String(irs.latest_tax_year_filed) : ''),
        irs.missed_tax_years.join(' '),
        irs.revocation_date ?? '',
        irs.revoked_on ?? '',
        check.deductible,
        check.next_steps[0] ?? '',
        check.sources.map((s) => `${s.dataset} ${s.released_on}`).join('; '),
      ].map((v) => (/^[=+\-@]/.test(v) ? `'${v}` : v));
      expect(lines[i], ein).toEqual(expected);
    }
    // The revoked EIN is on the list with its date.
    expect(lines[3][9]).not.toBe('');
    // The unknown EIN says why it may not be found.
    expect(lines[4].slice(0, 5)).toEqual(['99-0009999', '', '', '', 'Not found in the IRS data']);
    expect(lines[4][11]).toBe(NOT_FOUND_REASONS);
    expect(done.counts).toEqual({ ...counts, not_found: 1 });
    // Never an in-care-of name: the BMF's ICO column ("% ...") appears nowhere.
    const icos = (parse(readFileSync(EO_OK), { columns: true }) as { EIN: string; ICO: string }[])
      .filter((r) => good.includes(r.EIN) && r.ICO)
      .map((r) => r.ICO.replace(/^%\s*/, ''));
    expect(icos.length).toBeGreaterThan(0);
    for (const ico of icos) expect(res.body).not.toContain(ico);

    // Listed among earlier checks, and the upload is audited.
    const list = (await staff.get(URL)).json();
    expect(list.data[0]).toMatchObject({ id: done.id, status: 'done' });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'irs_bulk_check.started')));
    expect(audits.map((a) => a.details)).toContainEqual(
      expect.objectContaining({ bulk_check_id: done.id, file_name: 'eins.csv', lines: 6, eins: 5 }),
    );
  });

  it('reports progress in the database, batch by batch, up to the total', async () => {
    const eins = bmfEins.slice(0, 600);
    const res = await staff.upload(URL, {}, csvFile(eins.join('\n')));
    expect(res.statusCode).toBe(201);
    const id: number = res.json().id;
    const seen = new Set<number>();
    expect(
      await waitFor(
        async () => {
          const [row] = await t.database.db.select().from(irsBulkChecks).where(eq(irsBulkChecks.id, id));
          seen.add(row.done);
          return row.status === 'done';
        },
        60_000,
        5,
      ),
    ).toBe(true);
    const final = (await staff.get(`${URL}/${id}`)).json();
    expect(final).toMatchObject({ total: 600, done: 600 });
    expect([...seen].every((n) => n >= 0 && n <= 600)).toBe(true);
    expect(Object.values(final.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(600);
  });

  it('refuses a file with a value that is not an EIN, naming its line, and writes nothing', async () => {
    const before = (await t.database.db.select().from(irsBulkChecks)).length;
    for (const [content, message] of [
      [`EIN\n${bmfEins[0]}\n12-34567\n`, 'Line 3: "12-34567" is not an EIN (9 digits, with or without the dash).'],
      ['EIN\n\n', 'The file holds no EIN: put one EIN on each line.'],
      [
        Array.from({ length: IRS_BULK_CHECK_MAX_ROWS + 1 }, (_, i) => String(100000000 + i)).join('\n'),
        'The file holds more than 50,000 EINs: split it.',
      ],
    ] as const) {
      const res = await staff.upload(URL, {}, csvFile(content));
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ file: [message] });
    }
    const none = await staff.upload(URL, {}, []);
    expect(none.statusCode).toBe(422);
    expect((await t.database.db.select().from(irsBulkChecks)).length).toBe(before);
  });

  it('is for staff only: a visitor and an account user are refused', async () => {
    const [row] = await t.database.db.select().from(irsBulkChecks).limit(1);
    for (const [agent, status] of [
      [visitor, 401],
      [member, 403],
    ] as const) {
      expect((await agent.get(URL)).statusCode).toBe(status);
      expect((await agent.get(`${URL}/${row.id}`)).statusCode).toBe(status);
      expect((await agent.get(`${URL}/${row.id}/result.csv`)).statusCode).toBe(status);
      expect((await agent.upload(URL, {}, csvFile(bmfEins[0]))).statusCode).toBe(status);
    }
    expect((await staff.get(`${URL}/2000000000`)).statusCode).toBe(404);
  });
});

describe('a check whose server stopped', () => {
  // Six batches of 250, an unknown EIN among them: a stop after the first batch leaves work to take up.
  const listOf = () => [...bmfEins.slice(1000, 1800), '990009998', ...bmfEins.slice(1800, 2499)];

  it('is taken up by the job where it was left, once its lease has passed, and ends with the CSV of an uninterrupted run', async () => {
    const eins = listOf();
    const expected = await uninterrupted(eins);

    // Another server starts the check and is stopped (a deploy) after its first batch.
    const other = await createSecondServer(t);
    let id: number;
    try {
      const res = await (await signedIn(other.app, STAFF)).upload(URL, {}, csvFile(eins.join('\n')));
      expect(res.statusCode, res.body).toBe(201);
      id = res.json().id;
      expect(await waitFor(async () => (await rowOf(id)).done > 0, 60_000, 5)).toBe(true);
    } finally {
      await other.close();
    }
    const left = await rowOf(id);
    // Stopping, it handed the check back: any server may take it up at once.
    expect(left).toMatchObject({ status: 'running', finishedAt: null, leasedBy: null, leaseUntil: null });
    expect(left.done).toBeGreaterThan(0);
    expect(left.done).toBeLessThan(eins.length);
    // What it stored is the start of the whole result: the header and the lines of the EINs done.
    expect(parse(left.resultCsv!)).toHaveLength(left.done + 1);
    expect(expected.csv.startsWith(left.resultCsv!)).toBe(true);
    expect(Object.values(left.counts).reduce((a, b) => a + b, 0)).toBe(left.done);
    // The page still shows it running, with its progress; its CSV is not offered yet.
    expect((await staff.get(`${URL}/${id}`)).json()).toMatchObject({ status: 'running', done: left.done });
    expect((await staff.get(`${URL}/${id}/result.csv`)).statusCode).toBe(409);

    // As if that server had died instead: its lease still holds, and the job leaves the check alone.
    await t.database.db
      .update(irsBulkChecks)
      .set({ leasedBy: 'dead-server', leaseUntil: sql`now() + interval '1 hour'` })
      .where(eq(irsBulkChecks.id, id));
    const early = await t.app.jobs.runNow(RESUME_JOB);
    expect(early).toMatchObject({ result: 'ok', itemsDone: 0 });
    expect(await rowOf(id)).toMatchObject({ done: left.done, leasedBy: 'dead-server', resultCsv: left.resultCsv });

    // Once the lease has passed, the job takes it up from where it was left.
    await t.database.db
      .update(irsBulkChecks)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(irsBulkChecks.id, id));
    const run = await t.app.jobs.runNow(RESUME_JOB);
    expect(run).toMatchObject({
      result: 'ok',
      itemsDone: 1,
      summary: { checks: 1, eins: eins.length - left.done },
    });
    const final = (await staff.get(`${URL}/${id}`)).json();
    expect(final).toMatchObject({ status: 'done', total: eins.length, done: eins.length, counts: expected.counts });
    const res = await staff.get(`${URL}/${id}/result.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(expected.csv);
    expect(await rowOf(id)).toMatchObject({ eins: [], leasedBy: null, leaseUntil: null });
  });

  it('is taken by one of two servers looking at once; the other leaves it alone', async () => {
    const eins = listOf().slice(0, 700);
    const expected = await uninterrupted(eins);
    // Stored by a server that died before its first batch, its lease long past.
    const [{ id }] = await t.database.db
      .insert(irsBulkChecks)
      .values({
        fileName: 'eins.csv',
        eins,
        total: eins.length,
        leasedBy: 'dead-server',
        leaseUntil: sql`now() - interval '1 minute'`,
      })
      .returning({ id: irsBulkChecks.id });

    const other = await createSecondServer(t);
    try {
      const runs = await Promise.all([t.app.jobs.runNow(RESUME_JOB), other.app.jobs.runNow(RESUME_JOB)]);
      expect(runs.map((r) => r.result)).toEqual(['ok', 'ok']);
      // One claim took the check and checked each EIN once; the other found nothing to take.
      const summaries = runs.map((r) => r.summary as { checks: number; eins: number });
      expect(summaries.map((s) => s.checks).sort()).toEqual([0, 1]);
      expect(summaries.map((s) => s.eins).sort((a, b) => a - b)).toEqual([0, eins.length]);
    } finally {
      await other.close();
    }
    expect((await staff.get(`${URL}/${id}`)).json()).toMatchObject({ status: 'done', done: eins.length });
    expect((await staff.get(`${URL}/${id}/result.csv`)).body).toBe(expected.csv);
  });

  it(`is given up after ${BULK_CHECK_MAX_TAKEOVERS} takeovers in a row with no batch written, and says so; a batch written starts the count again`, async () => {
    const eins = listOf().slice(0, 300);
    // As a check whose servers died one after the other at the same place leaves it: claimed by a
    // run whose lease has passed, taken over already BULK_CHECK_MAX_TAKEOVERS times with nothing written since.
    const diedAt = (stalledTakeovers: number) => ({
      fileName: 'eins.csv',
      eins,
      total: eins.length,
      leasedBy: 'dead-server',
      leaseUntil: sql`now() - interval '1 minute'`,
      stalledTakeovers,
    });
    const [{ id: poisoned }] = await t.database.db
      .insert(irsBulkChecks)
      .values(diedAt(BULK_CHECK_MAX_TAKEOVERS))
      .returning({ id: irsBulkChecks.id });
    const run = await t.app.jobs.runNow(RESUME_JOB);
    expect(run.result).toBe('ok');
    expect(run.summary).toEqual({ checks: 1, eins: 0 });
    expect((await staff.get(`${URL}/${poisoned}`)).json()).toMatchObject({
      status: 'failed',
      done: 0,
      error: BULK_CHECK_GIVEN_UP,
    });
    expect(await rowOf(poisoned)).toMatchObject({ leasedBy: null, leaseUntil: null, resultCsv: null });
    expect((await staff.get(`${URL}/${poisoned}/result.csv`)).statusCode).toBe(409);

    // One takeover fewer: the job takes it over and, once a batch is written, the count is back to 0.
    const [{ id: survivor }] = await t.database.db
      .insert(irsBulkChecks)
      .values(diedAt(BULK_CHECK_MAX_TAKEOVERS - 1))
      .returning({ id: irsBulkChecks.id });
    expect((await t.app.jobs.runNow(RESUME_JOB)).summary).toEqual({ checks: 1, eins: eins.length });
    expect(await rowOf(survivor)).toMatchObject({ status: 'done', done: eins.length, stalledTakeovers: 0 });

    // A check handed back by a stopping server (its lease cleared) is no takeover.
    const [{ id: handedBack }] = await t.database.db
      .insert(irsBulkChecks)
      .values({ ...diedAt(BULK_CHECK_MAX_TAKEOVERS), leasedBy: null, leaseUntil: null })
      .returning({ id: irsBulkChecks.id });
    expect((await t.app.jobs.runNow(RESUME_JOB)).summary).toEqual({ checks: 1, eins: eins.length });
    expect(await rowOf(handedBack)).toMatchObject({ status: 'done', done: eins.length });
  });
});

describe('retention of checks', () => {
  it('deletes checks finished more than RETAIN_BULK_CHECK_DAYS (30) ago and keeps recent and running ones; the page says so', async () => {
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const check = (fileName: string, status: 'done' | 'failed' | 'running', finishedAt: Date | null) => ({
      fileName,
      status,
      eins: status === 'done' ? [] : [bmfEins[0]],
      total: 1,
      done: status === 'done' ? 1 : 0,
      resultCsv: status === 'done' ? 'EIN\r\n' : null,
      createdAt: daysAgo(40),
      finishedAt,
    });
    const rows = await t.database.db
      .insert(irsBulkChecks)
      .values([
        check('old-done.csv', 'done', daysAgo(30.1)),
        check('old-failed.csv', 'failed', daysAgo(31)),
        check('recent.csv', 'done', daysAgo(29.9)),
        check('still-running.csv', 'running', null),
      ])
      .returning({ id: irsBulkChecks.id, fileName: irsBulkChecks.fileName });
    try {
      const result = await runRetention(t.app, now);
      expect(result.byRule.bulkChecks).toBe(2);
      const kept = await t.database.db
        .select({ fileName: irsBulkChecks.fileName })
        .from(irsBulkChecks)
        .where(
          inArray(
            irsBulkChecks.id,
            rows.map((r) => r.id),
          ),
        );
      expect(kept.map((r) => r.fileName).sort()).toEqual(['recent.csv', 'still-running.csv']);
      // Checks finished today are far inside the limit.
      expect((await runRetention(t.app, now)).byRule.bulkChecks).toBe(0);
      expect((await staff.get(URL)).json().kept_days).toBe(30);
    } finally {
      await t.database.db.delete(irsBulkChecks).where(
        inArray(
          irsBulkChecks.id,
          rows.map((r) => r.id),
        ),
      );
    }
  });
});
