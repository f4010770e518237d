import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  complianceReminders,
  filings,
  latePenaltyFigures,
  mailOutbox,
  stateRequirements,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { sendDueReminders } from '../../src/server/modules/compliance/send-reminders.ts';
import { addDays, form990DueDate } from '../../src/shared/rules/compliance-calendar.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** The daily compliance reminders (docs/requirements/product.md "Compliance calendar"): 30 and 7 days before, once per account, deadline and tier. */

let t: TestApp;
const OPTS = { publicUrl: 'https://goodstanding.example', companyName: 'GoodStanding' };
// Fiscal year ending December 2025: Form 990-series due Friday May 15, 2026.
const DUE = form990DueDate(12, 2025);

/** A customer account with a primary user (or none), fiscal year end and renewal date as given. */
async function customer(name: string, email: string | null, set: Partial<typeof accounts.$inferInsert>) {
  const db = t.database.db;
  const account = await createAccount(db, { name });
  if (email) {
    const user = await createUser(db, { email, password: 'Reminder-pass-1', accountId: account.id });
    await db.update(accounts).set({ primaryUserId: user.id }).where(eq(accounts.id, account.id));
  }
  await db.update(accounts).set(set).where(eq(accounts.id, account.id));
  return account.id;
}

const run = (today: string) => sendDueReminders(t.database.db, { today, ...OPTS });
const mailsTo = (email: string) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(asc(mailOutbox.id));

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sendDueReminders', () => {
  it('goes on after a missed due date, every 30 days, until the return is seen, stating the rules with their sources', async () => {
    // A 990-N filer whose latest return is for 2023: the 2024 one was due Thursday May 15, 2025.
    const id = await customer('Overdue Boosters', 'overdue.holder@example.com', {
      fiscalYearEndMonth: 12,
      ein: '990000777',
      irsStatus: '01',
      filingRequirement: '02',
      ruling: '200510',
      taxPeriod: '202312',
    });
    // On the due date itself only the last before-the-date reminder goes out.
    expect((await run('2025-05-15')).overdue).toBe(0);
    const overdueMails = async () =>
      (await mailsTo('overdue.holder@example.com')).filter((m) => m.subject.includes('overdue'));
    const first = await run('2025-05-16');
    expect(first.overdue).toBe(1);
    expect((await run('2025-05-16')).overdue).toBe(0);
    expect((await run('2025-06-14')).overdue).toBe(0);
    let mails = await overdueMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'compliance.reminder.form_990',
      // The group's name is typed by its users: in the text, quoted, never in the subject. The form
      // is the one the IRS data says it owes (FILING_REQ_CD 02).
      subject: 'Form 990-N overdue since May 15, 2025',
    });
    expect(mails[0].textBody).toContain(
      'We have not seen the annual IRS return of the group named “Overdue Boosters” for the fiscal year ending December 31, 2024,\nwhich was due May 15, 2025.',
    );
    // The third return missed would be 2026's, due Saturday May 15, 2027, moved to Monday.
    expect(mails[0].textBody).toContain(
      'If nothing is filed by May 17, 2027 (in 731 days), the exemption is revoked automatically that day.',
    );
    expect(mails[0].textBody).toContain('No penalty for a late Form 990-N, and a late one still counts.');
    expect(mails[0].textBody).not.toContain('§6652');
    expect(mails[0].textBody).toContain('The IRS writes to an organization that has not filed for two years in a row.');
    expect(mails[0].textBody).toContain('https://www.irs.gov/charities-non-profits/automatic-revocation-of-exemption');

    expect((await run('2025-06-15')).overdue).toBe(1);
    mails = await overdueMails();
    expect(mails).toHaveLength(2);

    // Staff record the 2024 return: the reminders stop.
    await t.database.db.insert(filings).values({ accountId: id, taxYear: 2024, form: '990-N', filedOn: '2025-06-20' });
    expect((await run('2025-07-15')).overdue).toBe(0);
    expect((await run('2025-08-14')).overdue).toBe(0);
    expect(await overdueMails()).toHaveLength(2);
    // Out of the way of the tests below, which count every account's reminders.
    await t.database.db.update(accounts).set({ primaryUserId: null }).where(eq(accounts.id, id));
  });

  it('writes the 30-day and the 7-day Form 990 reminder once each, however often or late it runs, and none after the due date', async () => {
    expect(DUE).toBe('2026-05-15');
    const id = await customer('Reminder Boosters', 'reminder.holder@example.com', { fiscalYearEndMonth: 12 });

    expect((await run(addDays(DUE, -31))).enqueued).toBe(0);
    expect(await mailsTo('reminder.holder@example.com')).toHaveLength(0);

    const first = await run(addDays(DUE, -30));
    expect(first.enqueued).toBe(1);
    expect((await run(addDays(DUE, -30))).enqueued).toBe(0); // the same day again
    expect((await run(addDays(DUE, -12))).enqueued).toBe(0); // later in the same window
    let mails = await mailsTo('reminder.holder@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'compliance.reminder.form_990',
      status: 'pending',
      subject: 'Form 990-N, 990-EZ or 990 due May 15, 2026 (in 30 days)',
    });
    expect(mails[0].textBody).toContain('Form 990-N, 990-EZ or 990 for the fiscal year ending December 31, 2025');
    expect(mails[0].textBody).toContain('https://goodstanding.example/account');
    expect(mails[0].textBody).toContain(
      'The annual IRS return of the group named “Reminder Boosters” is due May 15, 2026',
    );

    // The job missed the exact 7-days-before day: it sends the 7-day one when it runs next.
    expect((await run(addDays(DUE, -5))).enqueued).toBe(1);
    expect((await run(addDays(DUE, -5))).enqueued).toBe(0);
    expect((await run(DUE)).enqueued).toBe(0);
    expect((await run(addDays(DUE, 1))).enqueued).toBe(0);
    expect((await run(addDays(DUE, 20))).enqueued).toBe(0);
    mails = await mailsTo('reminder.holder@example.com');
    expect(mails.map((m) => m.subject)).toEqual([
      'Form 990-N, 990-EZ or 990 due May 15, 2026 (in 30 days)',
      'Form 990-N, 990-EZ or 990 due May 15, 2026 (in 5 days)',
    ]);

    const rows = await t.database.db
      .select()
      .from(complianceReminders)
      .where(eq(complianceReminders.accountId, id))
      .orderBy(asc(complianceReminders.id));
    expect(rows.map((r) => ({ key: r.key, kind: r.kind, due: r.due, tier: r.tier, mailId: r.mailId }))).toEqual([
      { key: `${id}:form_990:2026-05-15:30`, kind: 'form_990', due: '2026-05-15', tier: 30, mailId: mails[0].id },
      { key: `${id}:form_990:2026-05-15:7`, kind: 'form_990', due: '2026-05-15', tier: 7, mailId: mails[1].id },
    ]);
  });

  it('a deadline first seen within 7 days gets only the 7-day reminder', async () => {
    await customer('Late Boosters', 'late.holder@example.com', { fiscalYearEndMonth: 12 });
    await run(addDays(DUE, -6));
    expect((await mailsTo('late.holder@example.com')).map((m) => m.subject)).toEqual([
      'Form 990-N, 990-EZ or 990 due May 15, 2026 (in 6 days)',
    ]);
  });

  it('names the return the IRS data says is owed, and reminds a church or a group-return member of none', async () => {
    // Shapes of real rows (docs/irs-standing.md "Returns owed"): PF_FILING_REQ_CD 1 with FILING_REQ_CD 00
    // (06-1497455, eo4.csv), a church (06, 01-0674605) and a group-return member (03, 98-1103828).
    const on = { irsStatus: '01', fiscalYearEndMonth: 12, taxPeriod: '202412', ruling: '199712' };
    const ids = [
      await customer('Foundation Trust', 'pf.holder@example.com', {
        ...on,
        ein: '990000881',
        filingRequirement: '00',
        pfFilingRequirement: '1',
      }),
      await customer('Chapel Fund', 'church.holder@example.com', { ...on, ein: '990000882', filingRequirement: '06' }),
      await customer('Lodge 12', 'lodge.holder@example.com', { ...on, ein: '990000883', filingRequirement: '03' }),
    ];
    // Staff's figures for returns due in 2026 (sample amounts, labelled so) are stated with their source.
    await t.database.db.insert(latePenaltyFigures).values({
      dueYear: 2026,
      dailyCents: 3000,
      maximumCents: 1_500_000,
      largeReceiptsOverCents: 150_000_000,
      largeDailyCents: 15_000,
      largeMaximumCents: 7_500_000,
      source: 'Sample figures for this test',
    });
    await run(addDays(DUE, -30));
    await t.database.db.delete(latePenaltyFigures);
    const pf = await mailsTo('pf.holder@example.com');
    expect(pf.map((m) => m.subject)).toEqual(['Form 990-PF due May 15, 2026 (in 30 days)']);
    expect(pf[0].textBody).toContain('Form 990-PF for the fiscal year ending December 31, 2025');
    expect(pf[0].textBody).toContain('What to file, per the IRS data: Form 990-PF.');
    expect(pf[0].textBody).toContain('(IRC §6652(c)(1)(A))');
    expect(pf[0].textBody).not.toContain('No penalty for a late');
    expect(pf[0].textBody).toContain(
      "For a return due in 2026: $30.00 a day, up to the lesser of $15,000.00 or 5% of the organization's gross receipts for the year; " +
        'with gross receipts over $1,500,000.00, $150.00 a day, up to $75,000.00 (source: Sample figures for this test).',
    );
    expect(await mailsTo('church.holder@example.com')).toEqual([]);
    expect(await mailsTo('lodge.holder@example.com')).toEqual([]);
    for (const id of ids) await t.database.db.update(accounts).set({ primaryUserId: null }).where(eq(accounts.id, id));
  });

  it('mails the renewal reminders 60, 30 and 7 days before the due date, once each, and a new due date starts again', async () => {
    const id = await customer('Renewing Boosters', 'renewing.holder@example.com', {
      renewalDueAt: new Date('2026-05-01T12:00:00Z'),
    });
    for (const today of [
      '2026-03-01',
      '2026-03-02',
      '2026-03-02',
      '2026-03-20',
      '2026-04-01',
      '2026-04-01',
      '2026-04-24',
      '2026-04-30',
      '2026-05-02',
    ])
      await run(today);
    const mails = await mailsTo('renewing.holder@example.com');
    expect(mails.map((m) => m.subject)).toEqual([
      'GoodStanding renewal due May 1, 2026 (in 60 days)',
      'GoodStanding renewal due May 1, 2026 (in 30 days)',
      'GoodStanding renewal due May 1, 2026 (in 7 days)',
    ]);
    expect(mails[0]).toMatchObject({ kind: 'compliance.reminder.renewal', status: 'pending' });
    expect(mails[0].textBody).toContain(
      'The GoodStanding renewal of the group named “Renewing Boosters” is due May 1, 2026 (in 60 days).',
    );
    expect(mails[0].textBody).toContain(
      'Renewal is open now. Renew on your account page: https://goodstanding.example/account',
    );
    const keys = (
      await t.database.db
        .select({ key: complianceReminders.key })
        .from(complianceReminders)
        .where(eq(complianceReminders.accountId, id))
    ).map((r) => r.key);
    expect(keys.sort()).toEqual([
      `${id}:renewal:2026-05-01:30`,
      `${id}:renewal:2026-05-01:60`,
      `${id}:renewal:2026-05-01:7`,
    ]);

    // Renewed: the due date moved a year on, so its reminders are new ones.
    await t.database.db
      .update(accounts)
      .set({ renewalDueAt: new Date('2027-05-01T12:00:00Z') })
      .where(eq(accounts.id, id));
    await run('2027-03-02');
    await run('2027-03-03');
    expect((await mailsTo('renewing.holder@example.com')).map((m) => m.subject).slice(3)).toEqual([
      'GoodStanding renewal due May 1, 2027 (in 60 days)',
    ]);
    // Out of the way of the tests below, which count every account's reminders.
    await t.database.db.update(accounts).set({ primaryUserId: null }).where(eq(accounts.id, id));
  });

  it('writes nothing for IRS subordinates, accounts without a primary user, or a tax year already filed', async () => {
    const db = t.database.db;
    await customer('Subordinate Boosters', 'subordinate.user@example.com', {
      fiscalYearEndMonth: 12,
      source: 'irs-bmf',
      renewalDueAt: new Date('2026-05-20T00:00:00Z'),
    });
    await customer('Orphan Boosters', null, { fiscalYearEndMonth: 12, renewalDueAt: new Date('2026-05-20T00:00:00Z') });
    const filedId = await customer('Filed Boosters', 'filed.holder@example.com', { fiscalYearEndMonth: 12 });
    await db.insert(filings).values({ accountId: filedId, taxYear: 2025, form: '990-N', filedOn: '2026-02-01' });
    // A user of another account named as primary does not receive the account's mail either.
    const stray = await createUser(db, { email: 'stray.user@example.com', password: 'Reminder-pass-1' });
    await customer('Stray Boosters', null, { fiscalYearEndMonth: 12, primaryUserId: stray.id });

    const counts = await run(addDays(DUE, -30));
    expect(counts.skippedFiled).toBe(1);
    await run(addDays(DUE, -3));
    for (const email of ['subordinate.user@example.com', 'filed.holder@example.com', 'stray.user@example.com']) {
      expect(await mailsTo(email)).toHaveLength(0);
    }
    const orphan = await db
      .select({ id: complianceReminders.id })
      .from(complianceReminders)
      .innerJoin(accounts, eq(accounts.id, complianceReminders.accountId))
      .where(eq(accounts.name, 'Orphan Boosters'));
    expect(orphan).toHaveLength(0);
  });

  it("reminds of the annual filing of the account's state when staff keep its date", async () => {
    const db = t.database.db;
    await db
      .update(stateRequirements)
      .set({ filingLabel: 'Annual report', filingDueMonth: 6, filingDueDay: 30 })
      .where(eq(stateRequirements.code, 'KY'));
    await customer('Bluegrass Boosters', 'bluegrass.holder@example.com', { state: 'ky' });
    await customer('Buckeye Boosters', 'buckeye.holder@example.com', { state: 'OH' });
    await run('2026-05-31');
    await run('2026-06-23');
    await run('2026-06-24');
    const mails = await mailsTo('bluegrass.holder@example.com');
    expect(mails.map((m) => m.subject)).toEqual([
      'Kentucky annual report due June 30, 2026 (in 30 days)',
      'Kentucky annual report due June 30, 2026 (in 7 days)',
    ]);
    expect(mails[0].kind).toBe('compliance.reminder.state');
    expect(mails[0].textBody).toContain(
      'The Kentucky annual report of the group named “Bluegrass Boosters” is due June 30, 2026 (in 30 days).',
    );
    expect(await mailsTo('buckeye.holder@example.com')).toHaveLength(0);
    await db
      .update(stateRequirements)
      .set({ filingLabel: null, filingDueMonth: null, filingDueDay: null })
      .where(eq(stateRequirements.code, 'KY'));
  });

  it('reads many accounts in batches', async () => {
    for (let i = 0; i < 230; i++)
      await customer(`Batch Boosters ${i}`, `batch.${i}@example.com`, { fiscalYearEndMonth: 12 });
    const counts = await run(addDays(DUE, -29));
    expect(counts.accounts).toBeGreaterThanOrEqual(230);
    expect(await mailsTo('batch.0@example.com')).toHaveLength(1);
    expect(await mailsTo('batch.229@example.com')).toHaveLength(1);
    expect((await run(addDays(DUE, -28))).enqueued).toBe(0);
  });
});
