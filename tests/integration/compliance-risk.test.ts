import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accounts, auditLog, filings, groups, irsReleases, irsRevocations } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { adminComplianceContracts } from '../../src/shared/contracts/admin-compliance.ts';
import {
  addDays,
  calendarDate,
  latestDueTaxYear,
  nextForm990Deadline,
} from '../../src/shared/rules/compliance-calendar.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * Revocation risk and recorded filings (docs/irs-standing.md):
 * GET /api/admin/compliance/risk, POST /api/admin/accounts/:id/filings.
 */

let t: TestApp;
let admin: Agent;
let adminId: number;
let holder: Agent;
const today = calendarDate(new Date());
const L = latestDueTaxYear(12, today);
const ids: Record<string, number> = {};
let bmfRelease: number;

/**
 * An account with IRS facts as the BMF gives them: a December fiscal year, a Form 990-N filer
 * (FILING_REQ_CD 02) exempt since October 2005, in the BMF release of 1 October 2026.
 */
async function account(name: string, set: Partial<typeof accounts.$inferInsert>, filed: number[] = []) {
  const db = t.database.db;
  const a = await createAccount(db, { name });
  await db
    .update(accounts)
    .set({
      irsStatus: '01',
      filingRequirement: '02',
      fiscalYearEndMonth: 12,
      ruling: '200510',
      bmfReleaseId: bmfRelease,
      ...set,
    })
    .where(eq(accounts.id, a.id));
  for (const year of filed)
    await db.insert(filings).values({ accountId: a.id, taxYear: year, form: '990-N', filedOn: `${year + 1}-02-01` });
  ids[name] = a.id;
  return a.id;
}

/** The risk list as staff see it on 25 November 2026. */
async function riskList() {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-25T15:00:00Z') });
  try {
    const res = await admin.call(adminComplianceContracts.risk);
    expect(res.statusCode).toBe(200);
    return res.json();
  } finally {
    vi.useRealTimers();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  adminId = (await createUser(db, { email: 'risk.admin@example.com', password: 'Risk-admin-pass-1', isAdmin: true }))
    .id;
  admin = await signedIn(t.app, { email: 'risk.admin@example.com', password: 'Risk-admin-pass-1' });
  [{ id: bmfRelease }] = await db
    .insert(irsReleases)
    .values({
      dataset: 'bmf',
      fileName: 'eo3.csv',
      releasedOn: '2026-10-01',
      rowCount: 9,
      loadedCount: 9,
      sha256: 'a'.repeat(64),
    })
    .returning({ id: irsReleases.id });
  const [revocations] = await db
    .insert(irsReleases)
    .values({
      dataset: 'revocations',
      fileName: 'revocations.txt',
      releasedOn: '2026-10-14',
      rowCount: 1,
      loadedCount: 1,
      sha256: 'b'.repeat(64),
    })
    .returning({ id: irsReleases.id });
  await db.insert(groups).values([
    { label: 'Our booster club group exemption', gen: '7001' },
    { label: 'IRS group exemption 7002', gen: '7002' },
  ]);
  // Latest return 2022: 2023, 2024 and 2025 (due 15 May 2026, before the release) missed.
  await account('Alpha Past Revocation Boosters', { taxPeriod: '202212' });
  // The BMF shows 2022, staff recorded 2023: 2024 and 2025 missed.
  await account('Bravo Two Missed Boosters', { taxPeriod: '202212' }, [L - 2]);
  // The BMF shows 2022, and staff recorded the two returns after it.
  await account('Charlie Filed Boosters', { taxPeriod: '202212' }, [2023, 2024, 2025]);
  // In no IRS file: "not yet on the IRS list", never at risk, whatever staff recorded.
  await account('Delta Not Listed Boosters', {
    irsStatus: null,
    filingRequirement: null,
    ruling: null,
    bmfReleaseId: null,
  });
  // A subordinate of our GEN on the IRS roster (no customer account): 2024 and 2025 missed.
  await account('Echo Subordinate', { taxPeriod: '202312', source: 'irs-bmf', isListed: true, gen: '7001' });
  // Another central organization's subordinate: not ours to watch.
  await account('Foxtrot Other GEN Subordinate', {
    taxPeriod: '201912',
    source: 'irs-bmf',
    isListed: true,
    gen: '7002',
  });
  // Latest return 2024: 2025 missed.
  await account('Hotel One Missed Boosters', { taxPeriod: '202412' });
  // On the Automatic Revocation List since 15 May 2026, not reinstated.
  await account('India Revoked Boosters', { ein: '990000777', taxPeriod: '202212' });
  await db.insert(irsRevocations).values({
    ein: '990000777',
    legalName: 'INDIA REVOKED BOOSTERS',
    revokedOn: '2026-05-15',
    postedOn: '2026-08-10',
    reinstatedOn: null,
    releaseId: revocations.id,
  });
  await createUser(db, {
    email: 'risk.holder@example.com',
    password: 'Risk-holder-pass-1',
    accountId: ids['Bravo Two Missed Boosters'],
  });
  holder = await signedIn(t.app, { email: 'risk.holder@example.com', password: 'Risk-holder-pass-1' });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/compliance/risk', () => {
  it("lists the groups whose IRS standing shows a missed return or a revocation, most urgent first, the GEN's roster included", async () => {
    const page = await riskList();
    expect(page.total).toBe(5);
    expect(page.data.map((r: { name: string }) => r.name)).toEqual([
      'India Revoked Boosters',
      'Alpha Past Revocation Boosters',
      'Bravo Two Missed Boosters',
      'Echo Subordinate',
      'Hotel One Missed Boosters',
    ]);
    const [india, alpha, bravo, echo, hotel] = page.data;
    expect(india).toMatchObject({
      standing: 'revoked',
      standing_label: 'Revoked',
      revoked_on: '2026-05-15',
      sources: { revocations: '2026-10-14' },
    });
    expect(alpha).toMatchObject({
      account_id: ids['Alpha Past Revocation Boosters'],
      standing: 'past_revocation_date',
      missed_tax_years: [2023, 2024, 2025],
      latest_tax_year_filed: 2022,
      revocation_date: '2026-05-15',
      days_to_revocation: -194,
      fiscal_year_end_month: 12,
      sources: { bmf: '2026-10-01' },
      can_record_filing: true,
    });
    expect(bravo).toMatchObject({
      standing: 'missed_two',
      standing_label: 'Two years missed: IRS notice expected',
      missed_tax_years: [2024, 2025],
      latest_tax_year_filed: 2023,
      revocation_date: '2027-05-17',
    });
    expect(echo).toMatchObject({
      standing: 'missed_two',
      gen: '7001',
      missed_tax_years: [2024, 2025],
      can_record_filing: false,
    });
    expect(hotel).toMatchObject({ standing: 'missed_one', missed_tax_years: [2025], revocation_date: '2028-05-15' });
  });

  it('is for admins only', async () => {
    expect((await holder.call(adminComplianceContracts.risk)).statusCode).toBe(403);
    expect((await (await new Agent(t.app).start()).get('/api/admin/compliance/risk')).statusCode).toBe(401);
  });
});

describe('POST /api/admin/accounts/:id/filings', () => {
  const url = () => `/api/admin/accounts/${ids['Bravo Two Missed Boosters']}/filings`;

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
    expect(
      (
        await admin.call(adminComplianceContracts.recordFiling, {
          params: { id: ids['Echo Subordinate'] },
          body: {
            tax_year: L,
            form: '990-N',
            filed_on: today,
          },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await admin.call(adminComplianceContracts.recordFiling, {
          params: { id: 999999 },
          body: { tax_year: L, form: '990-N', filed_on: today },
        })
      ).statusCode,
    ).toBe(404);
    expect((await holder.post(url(), { tax_year: L, form: '990-N', filed_on: today })).statusCode).toBe(403);
  });

  it('records a filing, audited with the admin and the account, and the account leaves the risk list', async () => {
    const filedOn = `${L + 1}-03-02` <= today ? `${L + 1}-03-02` : today;
    const res = await admin.post(url(), { tax_year: L, form: '990-EZ', filed_on: filedOn });
    expect(res.statusCode).toBe(201);
    expect(res.json().filing).toMatchObject({ tax_year: L, form: '990-EZ', filed_on: filedOn });
    expect((await admin.post(url(), { tax_year: L, form: '990-N', filed_on: filedOn })).statusCode).toBe(422);

    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'compliance.filing_recorded'),
          eq(auditLog.accountId, ids['Bravo Two Missed Boosters']),
        ),
      );
    expect(audit).toMatchObject({ actorUserId: adminId, details: { taxYear: L, form: '990-EZ', filedOn } });

    // A late return still counts: 2024 is no longer missed once 2025 is on file.
    const page = await riskList();
    expect(page.data.map((r: { name: string }) => r.name)).toEqual([
      'India Revoked Boosters',
      'Alpha Past Revocation Boosters',
      'Echo Subordinate',
      'Hotel One Missed Boosters',
    ]);

    const calendar = (await holder.call(accountOverviewContracts.calendar)).json();
    expect(calendar.filings).toEqual([
      { tax_year: L, form: '990-EZ', filed_on: filedOn },
      { tax_year: L - 2, form: '990-N', filed_on: `${L - 1}-02-01` },
    ]);
  });

  it("marks the calendar's Form 990 deadline filed once its tax year is recorded", async () => {
    // A fiscal year end whose year is over but whose return is not due yet.
    const fye = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].find(
      (m) => nextForm990Deadline(m, today).fiscalYearEnd < today,
    )!;
    const next = nextForm990Deadline(fye, today);
    const id = await account('Golf Calendar Boosters', { fiscalYearEndMonth: fye });
    await createUser(t.database.db, {
      email: 'golf.holder@example.com',
      password: 'Golf-holder-pass-1',
      accountId: id,
    });
    const golf = await signedIn(t.app, { email: 'golf.holder@example.com', password: 'Golf-holder-pass-1' });
    const before = (await golf.call(accountOverviewContracts.calendar)).json();
    expect(before.deadlines.find((d: { kind: string }) => d.kind === 'form_990')).toMatchObject({
      taxYear: next.taxYear,
      filed: false,
    });
    expect(before.filings).toEqual([]);
    expect(
      (
        await admin.call(adminComplianceContracts.recordFiling, {
          params: { id: id },
          body: {
            tax_year: next.taxYear,
            form: '990-N',
            filed_on: today,
          },
        })
      ).statusCode,
    ).toBe(201);
    const after = (await golf.call(accountOverviewContracts.calendar)).json();
    expect(after.deadlines.find((d: { kind: string }) => d.kind === 'form_990')).toMatchObject({
      taxYear: next.taxYear,
      filed: true,
      filed_on: today,
    });
    expect(after.filings).toEqual([{ tax_year: next.taxYear, form: '990-N', filed_on: today }]);
  });
});
