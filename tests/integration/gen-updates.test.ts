import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  auditLog,
  complianceEducation,
  genUpdateReminders,
  genUpdates,
  groups,
  mailOutbox,
  supervisionReports,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { seedDemo, DEMO_GEN } from '../../src/server/db/seed/seed.ts';
import { sendGenReminders } from '../../src/server/modules/gen-updates/send-gen-reminders.ts';
import { adminGenUpdateContracts } from '../../src/shared/contracts/admin-gen-update.ts';
import { calendarDate } from '../../src/shared/rules/compliance-calendar.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import type { GenCheck, GenUpdateView } from '../../src/shared/schemas/gen-updates.ts';

/**
 * The annual GEN update builder (docs/irs-gen-duties.md; /admin/gen-update):
 * built from the demo seed's 806 real subordinates of GEN 5271, each check failing and passing,
 * the CSV and PDF exports, one recorded submission per period, the staff reminders once per
 * period and tier, and who may call the routes.
 */

const ADMIN = { email: 'gen.admin@example.com', password: 'Admin-gen-pass-1' };
const STAFF2 = { email: 'gen.staff2@example.com', password: 'Staff-gen-pass-2' };
const HOLDER = { email: 'gen.holder@example.com', password: 'Holder-gen-pass-3' };
const PERIOD = '2026-12-31';
const SETTINGS = {
  central_name: 'Parent Booster USA Inc',
  central_ein: '33-2182308',
  accounting_period_end_month: '12',
  subsection: '03',
  uniform_purpose_statement:
    'To support the students, programs and activities of a school, exclusively for charitable and educational purposes.',
};

let t: TestApp;
let admin: Agent;
let holder: Agent;
let groupId: number;
const db = () => t.database.db;

const view = async (q = `?period_end=${PERIOD}`) => {
  const res = await admin.get(`/api/admin/gen-update${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as GenUpdateView;
};
const check = (v: GenUpdateView, key: GenCheck['key']) => v.checks.find((c) => c.key === key)!;
const saveSettings = async (patch: Partial<typeof SETTINGS> = {}) => {
  const res = await admin.call(adminGenUpdateContracts.saveSettings, {
    body: { group_id: groupId, ...SETTINGS, ...patch },
  });
  expect(res.statusCode, res.body).toBe(200);
};
const rosterIds = async () =>
  await db()
    .select({ id: accounts.id, fye: accounts.fiscalYearEndMonth })
    .from(accounts)
    .where(and(eq(accounts.gen, DEMO_GEN), eq(accounts.source, 'irs-bmf'), eq(accounts.isListed, true)))
    .orderBy(asc(accounts.ein));

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(db(), {
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    demoEmail: HOLDER.email,
    demoPassword: HOLDER.password,
  });
  await createUser(db(), { ...STAFF2, isAdmin: true });
  groupId = (await db().select({ id: groups.id }).from(groups).where(eq(groups.gen, DEMO_GEN)))[0].id;
  admin = await signedIn(t.app, ADMIN);
  holder = await signedIn(t.app, HOLDER);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('who may call the GEN update routes', () => {
  it('answers 401 to visitors and 403 to account holders, and changes nothing', async () => {
    const visitor = await new Agent(t.app).start();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/gen-update'],
      ['PUT', '/api/admin/gen-update/settings', { group_id: groupId, ...SETTINGS }],
      ['GET', '/api/admin/gen-update/export.csv'],
      ['GET', '/api/admin/gen-update/export.pdf'],
      ['POST', '/api/admin/gen-update/submit', { group_id: groupId, period_end: PERIOD, submitted_on: '2026-11-01' }],
    ];
    for (const [method, url, body] of calls) {
      expect((await visitor.request(method, url, body)).statusCode, `${method} ${url}`).toBe(401);
      const res = await holder.request(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe('You are not allowed to do that.');
    }
    const [g] = await db().select().from(groups).where(eq(groups.id, groupId));
    expect(g).toMatchObject({ centralName: '', centralEin: null, accountingPeriodEndMonth: null });
    expect(await db().select().from(genUpdates)).toHaveLength(0);
  });
});

describe('GEN settings', () => {
  it('shows what is missing until the settings are saved, and refuses bad values with the field’s message', async () => {
    const before = await view('');
    expect(before.group).toMatchObject({
      id: groupId,
      gen: DEMO_GEN,
      central_name: '',
      accounting_period_end_month: null,
    });
    expect(before.missing_settings).toEqual([
      'central organization name',
      'central organization EIN',
      'accounting period end month',
      '501(c) paragraph',
    ]);
    expect(before.period).toBeNull();
    expect(before.roster_count).toBe(806);
    expect(before.transition.items.find((i) => i.key === 'settings')).toMatchObject({
      status: 'todo',
      detail: expect.stringContaining('central organization EIN'),
    });

    let res = await admin.call(adminGenUpdateContracts.saveSettings, {
      body: {
        group_id: groupId,
        ...SETTINGS,
        central_ein: '12345',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.central_ein).toEqual(['The central organization EIN must be 9 digits, e.g. 12-3456789.']);
    res = await admin.call(adminGenUpdateContracts.saveSettings, {
      body: {
        group_id: groupId,
        ...SETTINGS,
        accounting_period_end_month: '13',
        subsection: '44',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      accounting_period_end_month: ['The accounting period end month field must be between 1 and 12.'],
      subsection: ['The selected 501(c) paragraph is invalid.'],
    });
    res = await admin.call(adminGenUpdateContracts.saveSettings, { body: { group_id: 2_000_000, ...SETTINGS } });
    expect(res.statusCode).toBe(404);

    res = await admin.call(adminGenUpdateContracts.saveSettings, {
      body: { group_id: groupId, ...SETTINGS, subsection: '3' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('The settings of GEN 5271 were saved.');
    const [g] = await db().select().from(groups).where(eq(groups.id, groupId));
    expect(g).toMatchObject({
      centralName: 'Parent Booster USA Inc',
      centralEin: '332182308',
      accountingPeriodEndMonth: 12,
      subsection: '03',
    });
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, 'gen.settings_updated'));
    expect(audit.details).toMatchObject({
      gen: DEMO_GEN,
      changed: ['centralName', 'centralEin', 'accountingPeriodEndMonth', 'subsection', 'uniformPurposeStatement'],
    });
  });
});

describe('the builder on the demo roster', () => {
  it('lists the whole roster on the first update, with the window of the period', async () => {
    const v = await view();
    expect(v.missing_settings).toEqual([]);
    expect(v.period).toMatchObject({ period_end: PERIOD, opens_on: '2026-10-02', closes_on: '2026-12-01' });
    expect(v.period!.in_window_today).toBe(v.period!.state === 'open');
    expect(v.baseline).toBeNull();
    expect(v.counts).toEqual({ add: 0, delete: 0, change: 0, roster: 806 });
    expect(v.items).toHaveLength(806);
    const [first] = await db().select().from(accounts).where(eq(accounts.ein, '204166939'));
    expect(v.items[0]).toEqual({
      action: 'roster',
      ein: '204166939',
      name: first.name,
      street: first.street,
      city: first.city,
      state: first.state,
      zip: first.zip,
      subsection: '03',
      foundation: '16',
      private_foundation: false,
    });
    expect(v.transition).toMatchObject({ deadline: '2027-01-22' });
    expect(v.transition.items.map((i) => [i.key, i.status])).toEqual([
      ['settings', 'done'],
      ['roster', 'done'],
      ['no_private_foundation', 'done'],
      ['purpose_statement', 'done'],
      ['supervision', 'todo'],
      ['education', 'todo'],
      ['first_update', 'todo'],
    ]);
  });

  it('refuses a period end that is not the last day of the accounting month', async () => {
    const res = await admin.call(adminGenUpdateContracts.show, { query: { period_end: '2026-06-30' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.period_end).toEqual([
      "The period end must be the last day of December, when the central organization's accounting period ends.",
    ]);
    expect(
      (await admin.call(adminGenUpdateContracts.show, { query: { period_end: '2026-02-30' } })).json().errors
        .period_end,
    ).toEqual(['The period end field must be a valid date.']);
  });

  it('fails "at least one subordinate" for a GEN with an empty roster', async () => {
    const [empty] = await db()
      .insert(groups)
      .values({
        label: 'Empty group',
        gen: '9999',
        accountingPeriodEndMonth: 12,
        subsection: '03',
        centralName: 'Empty',
        centralEin: '123456789',
      })
      .returning();
    const v = await view(`?group_id=${empty.id}&period_end=${PERIOD}`);
    expect(check(v, 'at_least_one')).toMatchObject({
      passed: false,
      reason: 'No subordinate is on the roster of GEN 9999; a group exemption needs at least one to continue.',
    });
    expect(v.groups.map((g) => g.gen)).toEqual([DEMO_GEN, '9999']);
    expect(check(await view(), 'at_least_one')).toMatchObject({
      passed: true,
      reason: '806 subordinates are on the roster of GEN 5271.',
    });
    await db().delete(groups).where(eq(groups.id, empty.id));
  });

  it('fails "same paragraph" for a subordinate in another 501(c) paragraph, or another paragraph in the settings', async () => {
    expect(check(await view(), 'same_paragraph')).toMatchObject({
      passed: true,
      reason: 'Every subordinate is described in 501(c)(3).',
    });
    await db().update(accounts).set({ subsection: '04' }).where(eq(accounts.ein, '204166939'));
    const [a] = await db().select({ name: accounts.name }).from(accounts).where(eq(accounts.ein, '204166939'));
    expect(check(await view(), 'same_paragraph')).toMatchObject({
      passed: false,
      reason: `1 subordinate is not described in 501(c)(3) in the IRS data: ${a.name} (EIN 20-4166939, 501(c)(4)).`,
    });
    await db().update(accounts).set({ subsection: '03' }).where(eq(accounts.ein, '204166939'));
    await saveSettings({ subsection: '07' });
    expect(check(await view(), 'same_paragraph').reason).toMatch(
      /^806 subordinates are not described in 501\(c\)\(7\) in the IRS data: .+; and 801 more\.$/,
    );
    await saveSettings();
  });

  it('fails "uniform purpose statement" while none is on file', async () => {
    await saveSettings({ uniform_purpose_statement: '   ' });
    expect(check(await view(), 'purpose_statement')).toMatchObject({
      passed: false,
      reason: 'No uniform purpose statement is on file: enter it in the GEN settings.',
    });
    await saveSettings();
    expect(check(await view(), 'purpose_statement')).toMatchObject({
      passed: true,
      reason: `On file (${SETTINGS.uniform_purpose_statement.length} characters).`,
    });
  });

  it('fails "supervision record" until every subordinate has one for its latest tax year ended before the window opens', async () => {
    expect(check(await view(), 'supervision')).toMatchObject({
      passed: false,
      reason: expect.stringMatching(
        /^806 subordinates have no supervision record for the latest tax year ended before October 2, 2026 \(0 records of 806\)/,
      ),
    });
    // The window opens October 2, 2026: fiscal years ending January to September 2026 have ended, later months' 2026 years have not.
    const roster = await rosterIds();
    const yearOf = (fye: number | null) => ((fye ?? 12) <= 9 ? 2026 : 2025);
    await db()
      .insert(supervisionReports)
      .values(
        roster.slice(1).map((r) => ({
          accountId: r.id,
          taxYear: yearOf(r.fye),
          grossReceiptsCents: 100_000,
          expensesCents: 50_000,
        })),
      );
    // A report of another year does not count.
    await db()
      .insert(supervisionReports)
      .values({ accountId: roster[0].id, taxYear: yearOf(roster[0].fye) - 1, grossReceiptsCents: 1, expensesCents: 1 });
    const failing = check(await view(), 'supervision');
    expect(failing.passed).toBe(false);
    expect(failing.reason).toMatch(
      /^1 subordinate has no supervision record .* \(805 records of 806\): .+ \(EIN 20-4166939, tax year \d{4}\)\.$/,
    );
    await db()
      .insert(supervisionReports)
      .values({ accountId: roster[0].id, taxYear: yearOf(roster[0].fye), grossReceiptsCents: 1, expensesCents: 1 });
    expect(check(await view(), 'supervision')).toMatchObject({
      passed: true,
      reason: 'All 806 subordinates have a supervision record for their latest tax year.',
    });
  });

  it('fails "compliance education" until a notice is recorded as sent within the accounting period', async () => {
    await db()
      .insert(complianceEducation)
      .values({ groupId, year: 2025, sentAt: new Date('2025-12-15T12:00:00Z'), recipients: 40 });
    expect(check(await view(), 'education')).toMatchObject({
      passed: false,
      reason:
        'No compliance education notice is recorded as sent between January 1, 2026 and December 31, 2026 (the accounting period).',
    });
    await db()
      .insert(complianceEducation)
      .values({ groupId, year: 2026, sentAt: new Date('2026-03-02T15:00:00Z'), recipients: 812 });
    expect(check(await view(), 'education')).toMatchObject({
      passed: true,
      reason: 'The 2026 compliance education notice was sent on March 2, 2026 to 812 recipients.',
    });
  });

  it('fails "no private foundation" when the BMF foundation code says one is', async () => {
    expect(check(await view(), 'no_private_foundation').passed).toBe(true);
    await db().update(accounts).set({ foundation: '04' }).where(eq(accounts.ein, '205160378'));
    const v = await view();
    expect(check(v, 'no_private_foundation')).toMatchObject({
      passed: false,
      reason: expect.stringContaining('(EIN 20-5160378)'),
    });
    expect(v.items.find((i) => i.ein === '205160378')).toMatchObject({ foundation: '04', private_foundation: true });
    await db().update(accounts).set({ foundation: '16' }).where(eq(accounts.ein, '205160378'));
    expect(v.transition.items.find((i) => i.key === 'supervision')!.status).toBe('done');
  });
});

describe('exports', () => {
  it('downloads the lines as CSV', async () => {
    await db().update(accounts).set({ name: '=HYPERLINK("x") Boosters, "North"' }).where(eq(accounts.ein, '205160378'));
    const res = await admin.call(adminGenUpdateContracts.exportCsv, { query: { period_end: PERIOD } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="gen-5271-annual-update-2026-12-31.csv"');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(
      'Action,EIN,Name,Street,City,State,ZIP,501(c) paragraph,Foundation code,Foundation classification,Private foundation,What changed',
    );
    expect(lines).toHaveLength(806 + 2); // header, 806 lines, the final line end
    const [a] = await db().select().from(accounts).where(eq(accounts.ein, '204166939'));
    expect(lines[1]).toBe(
      `On the roster (first update),20-4166939,${a.name},${a.street},${a.city},${a.state},${a.zip},501(c)(3),16,"Publicly supported organization, 509(a)(2)",No,`,
    );
    // A name a spreadsheet would run as a formula is neutralized, and quotes are doubled.
    expect(lines[2]).toMatch(/^On the roster \(first update\),20-5160378,"'=HYPERLINK\(""x""\) Boosters, ""North""",/);
  });

  it('downloads a PDF', async () => {
    const res = await admin.call(adminGenUpdateContracts.exportPdf, { query: { period_end: PERIOD } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="gen-5271-annual-update-2026-12-31.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.rawPayload.length).toBeGreaterThan(20_000);
  });
});

describe('reminders to staff', () => {
  const run = (today: string) =>
    sendGenReminders(db(), { today, publicUrl: 'https://goodstanding.example', companyName: 'GoodStanding' });
  const staffMails = () => db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'gen_update.reminder.opened'));

  it('mails every staff user when the window opens and 7 days before it closes, once per period and tier', async () => {
    expect(await run('2026-10-01')).toMatchObject({ reminders: 0, mails: 0 });
    expect(await run('2026-10-02')).toMatchObject({ groups: 1, reminders: 1, mails: 2 });
    expect(await run('2026-10-02')).toMatchObject({ reminders: 0, alreadySent: 1 });
    expect(await run('2026-11-23')).toMatchObject({ reminders: 0, alreadySent: 1 });
    const opened = await staffMails();
    expect(opened.map((m) => m.toAddress).sort()).toEqual([ADMIN.email, STAFF2.email]);
    expect(opened[0].subject).toBe('GEN 5271 annual update: the window is open until December 1, 2026');
    expect(opened[0].textBody).toContain(
      'is due between October 2, 2026 and December 1, 2026: at least 30 and at most 90 days before the period ends (Rev. Proc. 2026-8).',
    );
    expect(opened[0].textBody).toContain('https://goodstanding.example/admin/gen-update');

    expect(await run('2026-11-24')).toMatchObject({ reminders: 1, mails: 2 });
    expect(await run('2026-11-30')).toMatchObject({ reminders: 0, alreadySent: 1 });
    const closing = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'gen_update.reminder.closing'));
    expect(closing).toHaveLength(2);
    expect(closing[0].subject).toBe('GEN 5271 annual update: the window closes December 1, 2026 (in 7 days)');
    expect(await run('2026-12-02')).toMatchObject({ reminders: 0, alreadySent: 0 });
    expect(await db().select().from(genUpdateReminders)).toHaveLength(2);
    // Never to the account holder.
    expect(
      await db()
        .select()
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.toAddress, HOLDER.email),
            inArray(mailOutbox.kind, ['gen_update.reminder.opened', 'gen_update.reminder.closing']),
          ),
        ),
    ).toHaveLength(0);
  });
});

describe('recording the submission', () => {
  it('refuses a date that is not real or in the future, and a period that is not one', async () => {
    let res = await admin.call(adminGenUpdateContracts.submit, {
      body: {
        group_id: groupId,
        period_end: PERIOD,
        submitted_on: '2026-11-31',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.submitted_on).toEqual(['The submitted on field must be a valid date.']);
    res = await admin.call(adminGenUpdateContracts.submit, {
      body: {
        group_id: groupId,
        period_end: PERIOD,
        submitted_on: '2999-01-01',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.submitted_on).toEqual(['The submitted on date cannot be in the future.']);
    res = await admin.call(adminGenUpdateContracts.submit, {
      body: {
        group_id: groupId,
        period_end: '2026-11-30',
        submitted_on: '2026-11-01',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.period_end[0]).toMatch(/last day of December/);
    expect(await db().select().from(genUpdates)).toHaveLength(0);
  });

  it('records it once, freezes its lines, and refuses a second one with a message', async () => {
    let res = await admin.call(adminGenUpdateContracts.submit, {
      body: {
        group_id: groupId,
        period_end: PERIOD,
        submitted_on: '2026-11-10',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      in_window: true,
      message:
        'The annual update for the period ending December 31, 2026 was recorded as submitted on November 10, 2026, with 806 lines.',
    });
    const [row] = await db().select().from(genUpdates);
    expect(row).toMatchObject({ groupId, periodEnd: PERIOD, status: 'submitted', submittedOn: '2026-11-10' });
    expect(row.items).toHaveLength(806);
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, 'gen_update.submitted'));
    expect(audit.details).toMatchObject({
      period_end: PERIOD,
      submitted_on: '2026-11-10',
      in_window: true,
      counts: { roster: 806 },
      failed_checks: [],
    });

    res = await admin.call(adminGenUpdateContracts.submit, {
      body: {
        group_id: groupId,
        period_end: PERIOD,
        submitted_on: '2026-11-12',
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'The annual update for the period ending December 31, 2026 was already recorded as submitted on November 10, 2026. It cannot be recorded twice.',
    );
    expect((await db().select().from(genUpdates))[0].submittedOn).toBe('2026-11-10');

    // Frozen: a later rename does not change what was submitted.
    await db().update(accounts).set({ name: 'Renamed Boosters' }).where(eq(accounts.ein, '204166939'));
    const v = await view();
    expect(v.submission).toMatchObject({
      submitted_on: '2026-11-10',
      submitted_by: ADMIN.email,
      in_window: true,
      items: 806,
    });
    expect(v.items.find((i) => i.ein === '204166939')!.name).not.toBe('Renamed Boosters');
    expect(v.transition.items.find((i) => i.key === 'first_update')).toMatchObject({
      status: 'done',
      detail: 'The update for the period ending December 31, 2026 was submitted on November 10, 2026.',
    });
    // No reminder for a period already submitted.
    expect(
      await sendGenReminders(db(), { today: '2026-11-25', publicUrl: 'https://x.example', companyName: 'X' }),
    ).toMatchObject({ skippedSubmitted: 1, reminders: 0 });
  });

  it('lists the next period’s additions, deletions and changes against the submitted roster', async () => {
    await db().update(accounts).set({ isListed: false }).where(eq(accounts.ein, '205160378'));
    const added = await createAccount(db(), { name: 'New Valley Band Boosters' });
    await db()
      .update(accounts)
      .set({
        ein: '990001234',
        gen: DEMO_GEN,
        groupId,
        source: 'irs-bmf',
        isListed: true,
        subsection: '03',
        foundation: '16',
        city: 'Casper',
        state: 'WY',
      })
      .where(eq(accounts.id, added.id));
    const v = await view('?period_end=2027-12-31');
    expect(v.baseline).toEqual({ period_end: PERIOD, submitted_on: '2026-11-10' });
    expect(v.counts).toEqual({ add: 1, delete: 1, change: 1, roster: 0 });
    expect(v.items.map((i) => [i.action, i.ein])).toEqual([
      ['add', '990001234'],
      ['change', '204166939'],
      ['delete', '205160378'],
    ]);
    expect(v.items[1].changes).toEqual([{ field: 'name', before: expect.any(String), after: 'Renamed Boosters' }]);
    const csv = (
      await admin.call(adminGenUpdateContracts.exportCsv, { query: { period_end: '2027-12-31' } })
    ).body.split('\r\n');
    expect(csv).toHaveLength(3 + 2);
    expect(csv[1]).toBe(
      'Addition,99-0001234,New Valley Band Boosters,,Casper,WY,,501(c)(3),16,"Publicly supported organization, 509(a)(2)",No,',
    );
    expect(csv[2]).toMatch(/^Change,20-4166939,Renamed Boosters,.*,name: .+ -> Renamed Boosters$/);
    expect(calendarDate(new Date())).toBe(v.today);
  });
});
