import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { accounts, auditLog, filings } from '../../src/server/db/schema.ts';
import { addDays, calendarDate, latestDueTaxYear, nextForm990Deadline } from '../../src/shared/rules/compliance-calendar.ts';

/** Revocation risk and recorded filings (issue 7): GET /api/admin/compliance/risk, POST /api/admin/accounts/:id/filings. */

let t: TestApp;
let admin: Agent;
let adminId: number;
let holder: Agent;
const today = calendarDate(new Date());
const L = latestDueTaxYear(12, today);
const ids: Record<string, number> = {};

async function account(name: string, set: Partial<typeof accounts.$inferInsert>, filed: number[] = []) {
  const db = t.database.db;
  const a = await createAccount(db, { name });
  await db.update(accounts).set(set).where(eq(accounts.id, a.id));
  for (const year of filed) await db.insert(filings).values({ accountId: a.id, taxYear: year, form: '990-N', filedOn: `${year + 1}-02-01` });
  ids[name] = a.id;
  return a.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  adminId = (await createUser(db, { email: 'risk.admin@example.com', password: 'Risk-admin-pass-1', isAdmin: true })).id;
  admin = await signedIn(t.app, { email: 'risk.admin@example.com', password: 'Risk-admin-pass-1' });
  const old = new Date('2020-03-01T00:00:00Z');
  await account('Alpha Revoked Boosters', { fiscalYearEndMonth: 12, createdAt: old });
  await account('Bravo At Risk Boosters', { fiscalYearEndMonth: 12, createdAt: old }, [L - 2]);
  await account('Charlie Filed Boosters', { fiscalYearEndMonth: 12, createdAt: old }, [L]);
  await account('Delta New Boosters', { fiscalYearEndMonth: 12 });
  await account('Echo Subordinate', { fiscalYearEndMonth: 12, createdAt: old, source: 'irs-bmf' });
  await account('Foxtrot No Year End Boosters', { createdAt: old });
  await createUser(db, { email: 'risk.holder@example.com', password: 'Risk-holder-pass-1', accountId: ids['Bravo At Risk Boosters'] });
  holder = await signedIn(t.app, { email: 'risk.holder@example.com', password: 'Risk-holder-pass-1' });
});
afterAll(async () => { await t?.close(); });

describe('GET /api/admin/compliance/risk', () => {
  it('lists customer accounts whose last two due years have no filing, with the missing years', async () => {
    const res = await admin.get('/api/admin/compliance/risk');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBe(2);
    expect(page.data).toEqual([
      expect.objectContaining({ account_id: ids['Alpha Revoked Boosters'], risk: 'revoked', latest_due_tax_year: L, missing_tax_years: [L, L - 1, L - 2], last_filed_tax_year: null, fiscal_year_end_month: 12 }),
      expect.objectContaining({ account_id: ids['Bravo At Risk Boosters'], risk: 'at_risk', missing_tax_years: [L, L - 1], last_filed_tax_year: L - 2 }),
    ]);
  });

  it('is for admins only', async () => {
    expect((await holder.get('/api/admin/compliance/risk')).statusCode).toBe(403);
    expect((await (await new Agent(t.app).start()).get('/api/admin/compliance/risk')).statusCode).toBe(401);
  });
});

describe('POST /api/admin/accounts/:id/filings', () => {
  const url = () => `/api/admin/accounts/${ids['Bravo At Risk Boosters']}/filings`;

  it('checks the form, the date and the year', async () => {
    const bad = await admin.post(url(), { tax_year: L, form: '1040', filed_on: today });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.form).toEqual(['The selected form is invalid.']);
    const future = await admin.post(url(), { tax_year: L, form: '990-N', filed_on: addDays(today, 1) });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors.filed_on).toEqual(['The filed on date must not be in the future.']);
    const early = await admin.post(url(), { tax_year: L, form: '990-N', filed_on: `${L}-12-31` });
    expect(early.statusCode).toBe(422);
    expect(early.json().errors.filed_on[0]).toMatch(/after the fiscal year ended/);
    const taken = await admin.post(url(), { tax_year: L - 2, form: '990-EZ', filed_on: today });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.tax_year).toEqual([`A filing for tax year ${L - 2} is already recorded.`]);
    const missing = await admin.post(url(), {});
    expect(Object.keys(missing.json().errors).sort()).toEqual(['filed_on', 'form', 'tax_year']);
    expect((await admin.post(`/api/admin/accounts/${ids['Echo Subordinate']}/filings`, { tax_year: L, form: '990-N', filed_on: today })).statusCode).toBe(404);
    expect((await admin.post('/api/admin/accounts/999999/filings', { tax_year: L, form: '990-N', filed_on: today })).statusCode).toBe(404);
    expect((await holder.post(url(), { tax_year: L, form: '990-N', filed_on: today })).statusCode).toBe(403);
  });

  it('records a filing, audited with the admin and the account, and the account leaves the risk list', async () => {
    const filedOn = `${L + 1}-03-02` <= today ? `${L + 1}-03-02` : today;
    const res = await admin.post(url(), { tax_year: L, form: '990-EZ', filed_on: filedOn });
    expect(res.statusCode).toBe(201);
    expect(res.json().filing).toMatchObject({ tax_year: L, form: '990-EZ', filed_on: filedOn });
    expect((await admin.post(url(), { tax_year: L, form: '990-N', filed_on: filedOn })).statusCode).toBe(422);

    const [audit] = await t.database.db.select().from(auditLog)
      .where(and(eq(auditLog.action, 'compliance.filing_recorded'), eq(auditLog.accountId, ids['Bravo At Risk Boosters'])));
    expect(audit).toMatchObject({ actorUserId: adminId, details: { taxYear: L, form: '990-EZ', filedOn } });

    const page = (await admin.get('/api/admin/compliance/risk')).json();
    expect(page.data.map((r: { account_id: number }) => r.account_id)).toEqual([ids['Alpha Revoked Boosters']]);

    const calendar = (await holder.get('/api/account/calendar')).json();
    expect(calendar.filings).toEqual([
      { tax_year: L, form: '990-EZ', filed_on: filedOn },
      { tax_year: L - 2, form: '990-N', filed_on: `${L - 1}-02-01` },
    ]);
  });

  it("marks the calendar's Form 990 deadline filed once its tax year is recorded", async () => {
    // A fiscal year end whose year is over but whose return is not due yet.
    const fye = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].find((m) => nextForm990Deadline(m, today).fiscalYearEnd < today)!;
    const next = nextForm990Deadline(fye, today);
    const id = await account('Golf Calendar Boosters', { fiscalYearEndMonth: fye });
    await createUser(t.database.db, { email: 'golf.holder@example.com', password: 'Golf-holder-pass-1', accountId: id });
    const golf = await signedIn(t.app, { email: 'golf.holder@example.com', password: 'Golf-holder-pass-1' });
    const before = (await golf.get('/api/account/calendar')).json();
    expect(before.deadlines.find((d: { kind: string }) => d.kind === 'form_990')).toMatchObject({ taxYear: next.taxYear, filed: false });
    expect(before.filings).toEqual([]);
    expect((await admin.post(`/api/admin/accounts/${id}/filings`, { tax_year: next.taxYear, form: '990-N', filed_on: today })).statusCode).toBe(201);
    const after = (await golf.get('/api/account/calendar')).json();
    expect(after.deadlines.find((d: { kind: string }) => d.kind === 'form_990')).toMatchObject({ taxYear: next.taxYear, filed: true, filed_on: today });
    expect(after.filings).toEqual([{ tax_year: next.taxYear, form: '990-N', filed_on: today }]);
  });
});
