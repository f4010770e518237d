import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  accounts,
  auditLog,
  complianceEducation,
  groups,
  irsReleases,
  mailOutbox,
  supervisionReports,
  users,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { supervisionContracts } from '../../src/shared/contracts/supervision.ts';
import { sessionAgent } from '../helpers/routes.ts';
import { VALID_REPORT } from '../helpers/supervision.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Yearly supervision and Form 990-N preparation (docs/supervision.md): the form of a tax year, its
 * checks (gross receipts test, fiscal year end, EIN, field limits), the 990-N seen in the IRS data,
 * the staff status list and the yearly compliance education notice. "Today" is 25 November 2026:
 * the latest ended tax year of a December fiscal year is 2025.
 */

let t: TestApp;
let tmp: string;
const db = () => t.database.db;
const fx = {} as {
  group: number;
  otherGroup: number;
  a: number;
  b: number;
  c: number;
  holderA: number;
  secondA: number;
  holderB: number;
  outsider: number;
  admin: number;
};

beforeAll(async () => {
  t = await createTestApp();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-supervision-'));
  [{ id: fx.group }] = await db()
    .insert(groups)
    .values({
      label: 'Band Boosters GEN',
      gen: '9871',
      centralName: 'National Band Boosters Inc',
      uniformPurposeStatement: 'To support school music programs.',
    })
    .returning({ id: groups.id });
  [{ id: fx.otherGroup }] = await db()
    .insert(groups)
    .values({ label: 'Other GEN', gen: '9872' })
    .returning({ id: groups.id });
  const [bmf] = await db()
    .insert(irsReleases)
    .values({
      dataset: 'bmf',
      fileName: 'eo_il.csv',
      releasedOn: '2026-04-01',
      rowCount: 1,
      loadedCount: 1,
      sha256: 'a'.repeat(64),
    })
    .returning();
  fx.a = (
    await createAccount(db(), { name: 'Springfield Band Boosters', ein: '123456789', city: 'Springfield', state: 'IL' })
  ).id;
  fx.b = (
    await createAccount(db(), { name: 'Shelbyville Band Boosters', ein: '223456789', city: 'Shelbyville', state: 'IL' })
  ).id;
  fx.c = (
    await createAccount(db(), { name: 'Capital City Choir', ein: '323456789', city: 'Capital City', state: 'IL' })
  ).id;
  await db()
    .update(accounts)
    .set({
      groupId: fx.group,
      fiscalYearEndMonth: 12,
      bmfReleaseId: bmf.id,
      street: '100 Main St.',
      zip: '62701',
      legalName: 'SPRINGFIELD BAND BOOSTERS INC',
    })
    .where(eq(accounts.id, fx.a));
  await db().update(accounts).set({ groupId: fx.group, fiscalYearEndMonth: 6 }).where(eq(accounts.id, fx.b));
  await db().update(accounts).set({ groupId: fx.otherGroup, fiscalYearEndMonth: 12 }).where(eq(accounts.id, fx.c));
  fx.holderA = (
    await createUser(db(), {
      email: 'jane.doe@example.com',
      password: 'Holder-pass-2026',
      accountId: fx.a,
      firstName: 'Jane',
    })
  ).id;
  await db().update(users).set({ lastName: 'Doe', isPrimary: true }).where(eq(users.id, fx.holderA));
  await db().update(accounts).set({ primaryUserId: fx.holderA }).where(eq(accounts.id, fx.a));
  fx.secondA = (
    await createUser(db(), { email: 'treasurer@example.com', password: 'Second-pass-2026', accountId: fx.a })
  ).id;
  fx.holderB = (
    await createUser(db(), { email: 'shelby@example.com', password: 'Shelby-pass-2026', accountId: fx.b })
  ).id;
  fx.outsider = (
    await createUser(db(), { email: 'choir@example.com', password: 'Choir-pass-2026', accountId: fx.c })
  ).id;
  fx.admin = (await createUser(db(), { email: 'staff@example.com', password: 'Staff-pass-2026', isAdmin: true })).id;
});
afterAll(async () => {
  fs.rmSync(tmp, { recursive: true, force: true });
  await t?.close();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-25T15:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const reportOf = async (accountId: number, taxYear: number) =>
  (
    await db()
      .select()
      .from(supervisionReports)
      .where(and(eq(supervisionReports.accountId, accountId), eq(supervisionReports.taxYear, taxYear)))
  )[0];

describe('the form of a tax year', () => {
  it('opens on the latest ended tax year with what the product knows, prefilled', async () => {
    const holder = await sessionAgent(t, fx.holderA);
    const res = await holder.call(supervisionContracts.form);
    expect(res.statusCode, res.body).toBe(200);
    const form = res.json();
    expect(form).toMatchObject({
      tax_year: 2025,
      period_end: '2025-12-31',
      due_date: '2026-05-15',
      report: null,
      filed: null,
      summary: null,
      account: {
        legal_name: 'SPRINGFIELD BAND BOOSTERS INC',
        ein: '123456789',
        fiscal_year_end_month: 12,
        fiscal_year_end_source: 'irs',
        central_name: 'National Band Boosters Inc',
        gen: '9871',
        uniform_purpose_statement: 'To support school music programs.',
      },
    });
    expect(form.tax_years).toEqual([2025, 2024, 2023, 2022]);
    // The IRS fields take letters, digits, spaces and hyphens only: "100 Main St." is offered without the period.
    expect(form.values).toMatchObject({
      ein: '12-3456789',
      fiscal_year_end_month: '12',
      mailing_address_line1: '100 Main St',
      mailing_city: 'Springfield',
      mailing_state: 'IL',
      mailing_zip: '62701',
      officer_name: 'Jane Doe',
      other_name_1: 'Springfield Band Boosters',
    });
  });

  it('refuses a tax year that has not ended', async () => {
    const holder = await sessionAgent(t, fx.holderA);
    const res = await holder.call(supervisionContracts.form, { query: { tax_year: 2026 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.tax_year).toEqual([
      'The fiscal year ending December 31, 2026 has not ended yet: its e-Postcard can be filed from January 1, 2027.',
    ]);
  });
});

describe('saving a report', () => {
  it('any user of the account saves it: cents recomputed, audited, summary to copy', async () => {
    const treasurer = await sessionAgent(t, fx.secondA);
    const res = await treasurer.call(supervisionContracts.save, { body: VALID_REPORT });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('The supervision report for tax year 2025 was saved.');
    const form = res.json().form;
    expect(form.report).toMatchObject({
      submitted_by: 'treasurer@example.com',
      gross_receipts_cents: 4_200_050,
      expenses_cents: 3_950_000,
    });
    expect(form.receipts_test).toMatchObject({ passes: true, basis: 'three_year_average', years: [2023, 2024, 2025] });
    expect(form.summary).toBe(
      [
        'Form 990-N (e-Postcard): tax year January 1, 2025 to December 31, 2025',
        '(the IRS e-Postcard calls it tax year 2025, the year it begins)',
        '',
        '1. EIN: 12-3456789',
        '2. Tax year: 01/01/2025 to 12/31/2025',
        '3. Legal name: SPRINGFIELD BAND BOOSTERS INC',
        '   Mailing address: 100 Main St, Springfield, IL 62701',
        '4. Other names: Springfield Band Boosters',
        '5. Principal officer: Jane Doe',
        '   Address: 12 Oak Ave, Springfield, IL 62701-1234',
        '6. Website: www.example.org',
        '7. Gross receipts normally $50,000 or less: Yes',
        '8. Organization has terminated: No',
      ].join('\n'),
    );
    const row = await reportOf(fx.a, 2025);
    expect(row).toMatchObject({ grossReceiptsCents: 4_200_050, expensesCents: 3_950_000, submittedBy: fx.secondA });
    expect(row.answers).toMatchObject({
      officers: 'Jane Doe, President\nJohn Roe, Treasurer',
      purpose_confirmed: true,
    });
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'supervision.report_saved'), eq(auditLog.accountId, fx.a)));
    expect(audit).toMatchObject({
      actorUserId: fx.secondA,
      details: { taxYear: 2025, grossReceiptsCents: 4_200_050, onBehalf: false },
    });

    // Reopened, the form shows the saved answers in dollars.
    const again = (await treasurer.call(supervisionContracts.form, { query: { tax_year: 2025 } })).json();
    expect(again.values).toMatchObject({
      gross_receipts: '42000.50',
      prior_year_receipts: '38000',
      total_expenses: '39500',
      purpose_confirmed: true,
    });
  });

  it('a later year is prefilled with the receipts of earlier reports', async () => {
    const holder = await sessionAgent(t, fx.holderA);
    const saved = await holder.call(supervisionContracts.save, {
      body: {
        ...VALID_REPORT,
        tax_year: '2024',
        gross_receipts: '38000',
        prior_year_receipts: '41000',
        second_prior_year_receipts: '40000',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await db()
      .delete(supervisionReports)
      .where(and(eq(supervisionReports.accountId, fx.a), eq(supervisionReports.taxYear, 2025)));
    const form = (await holder.call(supervisionContracts.form, { query: { tax_year: 2025 } })).json();
    expect(form.values).toMatchObject({
      prior_year_receipts: '38000',
      second_prior_year_receipts: '',
      first_tax_year: '2015',
      gross_receipts: '',
    });
    expect((await holder.call(supervisionContracts.save, { body: VALID_REPORT })).statusCode).toBe(200);
  });

  it('gross receipts not normally $50,000 or less: 422 pointing to Form 990-EZ or 990, nothing written', async () => {
    const holder = await sessionAgent(t, fx.holderA);
    const res = await holder.call(supervisionContracts.save, {
      body: {
        ...VALID_REPORT,
        tax_year: '2023',
        gross_receipts: '90000',
        prior_year_receipts: '60000',
        second_prior_year_receipts: '45000',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.gross_receipts).toEqual([
      'The average of tax years 2021 to 2023 ($65,000) is more than $50,000, so gross receipts are not normally $50,000 or less. It may not file the e-Postcard (Form 990-N): it files Form 990-EZ or Form 990 for this year instead.',
    ]);
    expect(await reportOf(fx.a, 2023)).toBeUndefined();
  });

  it('a fiscal year end other than the one the IRS data has: 422 with both months', async () => {
    const holder = await sessionAgent(t, fx.holderA);
    const res = await holder.call(supervisionContracts.save, {
      body: {
        ...VALID_REPORT,
        tax_year: '2023',
        fiscal_year_end_month: '6',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.fiscal_year_end_month).toEqual([
      'The fiscal year you entered ends in June, but the IRS data (ACCT_PD, released April 1, 2026) says December. The e-Postcard is filed for the fiscal year the IRS has on file: choose December, or, if your accounting period changed, have it changed with the IRS and tell us before you file.',
    ]);
    expect(await reportOf(fx.a, 2023)).toBeUndefined();
  });

  it("the group's own fiscal year end counts when there is no IRS data; a June year ending in 2026 has ended", async () => {
    const shelby = await sessionAgent(t, fx.holderB);
    const wrong = await shelby.call(supervisionContracts.save, {
      body: {
        ...VALID_REPORT,
        ein: '22-3456789',
        tax_year: '2026',
      },
    });
    expect(wrong.json().errors.fiscal_year_end_month?.[0]).toContain(
      "ends in December, but your organization's data here says June.",
    );
    const form = (await shelby.call(supervisionContracts.form)).json();
    expect(form).toMatchObject({ tax_year: 2026, period_end: '2026-06-30', due_date: '2026-11-16' });
    const ok = await shelby.call(supervisionContracts.save, {
      body: {
        ...VALID_REPORT,
        ein: '22-3456789',
        tax_year: '2026',
        fiscal_year_end_month: '6',
        first_tax_year: '2026',
        prior_year_receipts: '',
        second_prior_year_receipts: '',
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().form.summary).toContain(
      'Form 990-N (e-Postcard): tax year July 1, 2025 to June 30, 2026\n(the IRS e-Postcard calls it tax year 2025, the year it begins)',
    );
  });

  it('another EIN than the one on file, a year not ended, and the IRS field limits are refused on their fields', async () => {
    const holder = await sessionAgent(t, fx.holderA);
    const ein = await holder.call(supervisionContracts.save, { body: { ...VALID_REPORT, ein: '98-7654321' } });
    expect(ein.json().errors.ein).toEqual(["The EIN must be your organization's EIN on file, 12-3456789."]);
    const future = await holder.call(supervisionContracts.save, {
      body: {
        ...VALID_REPORT,
        tax_year: '2026',
        first_tax_year: '2010',
        prior_year_receipts: '1',
        second_prior_year_receipts: '1',
      },
    });
    expect(future.json().errors.tax_year?.[0]).toBe(
      'The fiscal year ending December 31, 2026 has not ended yet: its e-Postcard can be filed from January 1, 2027.',
    );
    const long = await holder.call(supervisionContracts.save, {
      body: {
        ...VALID_REPORT,
        officer_name: 'A'.repeat(36),
        website: 'example.org/<script>',
      },
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors).toMatchObject({
      officer_name: ['The principal officer name field must not be greater than 35 characters.'],
      website: ['The website field must be a web address, such as www.example.org.'],
    });
  });
});

describe('filed: the 990-N in the IRS data', () => {
  it('shows "filed" once a 990-N data release lists the EIN and tax year', async () => {
    const holder = await sessionAgent(t, fx.holderA);
    expect((await holder.call(supervisionContracts.form, { query: { tax_year: 2025 } })).json().filed).toBeNull();
    const file = path.join(tmp, 'data-download-epostcard.txt');
    fs.writeFileSync(
      file,
      [
        '123456789|2025|SPRINGFIELD BAND BOOSTERS INC|50000|F|01-01-2025|12-31-2025|www.example.org||||||||||||||||||',
        '223456789|2024|SHELBYVILLE BAND BOOSTERS|50000|F|07-01-2024|06-30-2025|||||||||||||||||||',
        '',
      ].join('\n'),
    );
    await loadIrsRelease(db(), { dataset: 'epostcard', file, releasedOn: '2026-10-06' });
    const form = (await holder.call(supervisionContracts.form, { query: { tax_year: 2025 } })).json();
    expect(form.filed).toEqual({ released_on: '2026-10-06', period_end: '2025-12-31', terminated: false });
    // Another year of the same EIN is not filed.
    expect((await holder.call(supervisionContracts.form, { query: { tax_year: 2024 } })).json().filed).toBeNull();
  });
});

describe('staff: status per group and year', () => {
  it('lists the members of a GEN group with their report and 990-N, filtered and searched', async () => {
    const staff = await sessionAgent(t, fx.admin);
    const all = (await staff.call(supervisionContracts.list, { query: { group_id: fx.group, tax_year: 2025 } })).json();
    expect(all).toMatchObject({ group_id: fx.group, tax_year: 2025, total: 2 });
    const springfield = all.data.find((r: { account_id: number }) => r.account_id === fx.a);
    expect(springfield).toMatchObject({
      name: 'Springfield Band Boosters',
      users: 2,
      report: { gross_receipts_cents: 4_200_050 },
      filed: { released_on: '2026-10-06' },
    });
    // Shelbyville's 990-N for July 2024 - June 2025 is its tax year 2025: filed, but no report yet.
    expect(all.data.find((r: { account_id: number }) => r.account_id === fx.b)).toMatchObject({
      report: null,
      filed: { released_on: '2026-10-06' },
    });
    const missing = (
      await staff.call(supervisionContracts.list, { query: { group_id: fx.group, tax_year: 2025, status: 'missing' } })
    ).json();
    expect(missing.data.map((r: { name: string }) => r.name)).toEqual(['Shelbyville Band Boosters']);
    const filed = (
      await staff.call(supervisionContracts.list, { query: { group_id: fx.group, tax_year: 2025, status: 'filed' } })
    ).json();
    expect(filed.data.map((r: { name: string }) => r.name)).toEqual([
      'Shelbyville Band Boosters',
      'Springfield Band Boosters',
    ]);
    const notFiled = (
      await staff.call(supervisionContracts.list, {
        query: { group_id: fx.group, tax_year: 2024, status: 'not_filed' },
      })
    ).json();
    expect(notFiled.data.map((r: { name: string }) => r.name)).toEqual([
      'Shelbyville Band Boosters',
      'Springfield Band Boosters',
    ]);
    const searched = (
      await staff.call(supervisionContracts.list, { query: { group_id: fx.group, tax_year: 2025, search: 'shelby' } })
    ).json();
    expect(searched.data.map((r: { name: string }) => r.name)).toEqual(['Shelbyville Band Boosters']);
    // Shelbyville's June 2026 year is tax year 2026.
    const y2026 = (
      await staff.call(supervisionContracts.list, {
        query: { group_id: fx.group, tax_year: 2026, status: 'submitted' },
      })
    ).json();
    expect(y2026.data.map((r: { name: string }) => r.name)).toEqual(['Shelbyville Band Boosters']);
    expect((await staff.call(supervisionContracts.list, { query: { status: 'late' } })).statusCode).toBe(422);
  });

  it("staff open and save any group's report through account_id, audited as on its behalf", async () => {
    const staff = await sessionAgent(t, fx.admin);
    const form = await staff.call(supervisionContracts.form, { query: { account_id: fx.c } });
    expect(form.statusCode).toBe(200);
    const saved = await staff.call(supervisionContracts.save, {
      body: { ...VALID_REPORT, account_id: fx.c, ein: '32-3456789' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'supervision.report_saved'), eq(auditLog.accountId, fx.c)));
    expect(audit).toMatchObject({ actorUserId: fx.admin, details: { onBehalf: true } });
  });
});

describe('compliance education notice', () => {
  it("is sent once per group and year to every member group's users, through the outbox", async () => {
    const staff = await sessionAgent(t, fx.admin);
    const before = (await staff.call(supervisionContracts.overview)).json();
    expect(before.year).toBe(2026);
    expect(before.groups.find((g: { id: number }) => g.id === fx.group)).toMatchObject({
      members: 2,
      recipients: 3,
      education: null,
    });

    const res = await staff.call(supervisionContracts.sendEducation, { body: { group_id: fx.group, year: 2026 } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(
      'The 2026 compliance education notice of Band Boosters GEN was queued for 3 users.',
    );
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'supervision.education'));
    expect(mails.map((m) => m.toAddress).sort()).toEqual([
      'jane.doe@example.com',
      'shelby@example.com',
      'treasurer@example.com',
    ]);
    expect(mails[0].subject).toBe("2026 compliance education: keeping your group's tax exemption");
    expect(mails[0].textBody).toContain(
      'IRS Publication 557, Tax-Exempt Status for Your Organization: https://www.irs.gov/publications/p557',
    );
    expect(mails[0].textBody).toContain('group exemption of National Band Boosters Inc (group exemption number 9871)');
    expect(mails[0].textBody).toContain('There is no penalty for a late Form 990-N');
    expect(mails[0].textBody).toMatch(/http:\/\/[^/\s]+\/app\/supervision/);
    const [row] = await db().select().from(complianceEducation).where(eq(complianceEducation.groupId, fx.group));
    expect(row).toMatchObject({ year: 2026, recipients: 3, sentBy: fx.admin });
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, 'supervision.education_sent'));
    expect(audit).toMatchObject({ actorUserId: fx.admin, details: { groupId: fx.group, year: 2026, recipients: 3 } });

    const again = await staff.call(supervisionContracts.sendEducation, { body: { group_id: fx.group, year: 2026 } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'The 2026 compliance education notice of Band Boosters GEN was already sent on November 25, 2026 to 3 users. It is sent once a year.',
    );
    expect(
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(mailOutbox)
          .where(eq(mailOutbox.kind, 'supervision.education'))
      )[0].n,
    ).toBe(3);

    const after = (await staff.call(supervisionContracts.overview)).json();
    expect(after.groups.find((g: { id: number }) => g.id === fx.group).education).toMatchObject({
      sent_by: 'staff@example.com',
      recipients: 3,
    });
  });

  it('refuses another year, and a group with no users to send to', async () => {
    const staff = await sessionAgent(t, fx.admin);
    const last = await staff.call(supervisionContracts.sendEducation, {
      body: { group_id: fx.otherGroup, year: 2025 },
    });
    expect(last.statusCode).toBe(422);
    expect(last.json().errors.year).toEqual(["Only this year's notice (2026) can be sent."]);
    const [{ id: empty }] = await db()
      .insert(groups)
      .values({ label: 'Empty GEN', gen: '9873' })
      .returning({ id: groups.id });
    const none = await staff.call(supervisionContracts.sendEducation, { body: { group_id: empty, year: 2026 } });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.group_id).toEqual(['No member group of Empty GEN has a user to send the notice to.']);
    expect(await db().select().from(complianceEducation).where(eq(complianceEducation.groupId, empty))).toEqual([]);
  });
});

describe('the wrong person', () => {
  it('visitors get 401 everywhere', async () => {
    const visitor = await new Agent(t.app).start();
    for (const [method, url] of [
      ['GET', '/api/account/supervision'],
      ['PUT', '/api/account/supervision'],
      ['GET', '/api/admin/supervision'],
      ['GET', '/api/admin/supervision/overview'],
      ['POST', '/api/admin/supervision/education'],
    ]) {
      expect(
        (await visitor.request(method, url, method === 'GET' ? undefined : {})).statusCode,
        `${method} ${url}`,
      ).toBe(401);
    }
  });

  it("another account's user gets 404 for this account and writes nothing; account users get 403 on staff routes", async () => {
    const choir = await sessionAgent(t, fx.outsider);
    const read = await choir.call(supervisionContracts.form, { query: { account_id: fx.a } });
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain('Springfield');
    const before = await reportOf(fx.a, 2025);
    const write = await choir.call(supervisionContracts.save, {
      body: {
        ...VALID_REPORT,
        account_id: fx.a,
        gross_receipts: '1',
      },
    });
    expect(write.statusCode).toBe(404);
    expect(await reportOf(fx.a, 2025)).toEqual(before);
    for (const [method, url] of [
      ['GET', '/api/admin/supervision'],
      ['GET', '/api/admin/supervision/overview'],
      ['POST', '/api/admin/supervision/education'],
    ]) {
      expect(
        (await choir.request(method, url, method === 'GET' ? undefined : { group_id: fx.otherGroup, year: 2026 }))
          .statusCode,
        `${method} ${url}`,
      ).toBe(403);
    }
    expect(await db().select().from(complianceEducation).where(eq(complianceEducation.groupId, fx.otherGroup))).toEqual(
      [],
    );
  });
});
