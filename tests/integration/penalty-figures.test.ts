import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, latePenaltyFigures } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { adminComplianceContracts } from '../../src/shared/contracts/admin-compliance.ts';
import { irsCheckContracts } from '../../src/shared/contracts/irs-check.ts';
import { loadRealBmfRow } from '../helpers/irs-data.ts';
import { SAMPLE_PENALTY_FIGURES } from '../helpers/penalty-figures.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * The IRC §6652(c)(1)(A) late-filing penalty figures (docs/irs-standing.md "What being late
 * costs"): staff copy each year's figures from the IRS instructions, with their source; the instant
 * check, the profile and the reminders then state them for a return due that year. The figures
 * here are samples made up for the test, labelled so: the IRS's own are read from its instructions.
 * GET and POST /api/admin/penalty-figures, DELETE /api/admin/penalty-figures/:year (staff only).
 */

let t: TestApp;
let admin: Agent;
let adminId: number;
let holder: Agent;
let visitor: Agent;

/** 06-1497455, a private foundation (PF_FILING_REQ_CD 1, December year, latest return 2024-12): its 2025 Form 990-PF was due May 15, 2026. */
const FOUNDATION = '061497455';

const SAMPLE = SAMPLE_PENALTY_FIGURES;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  adminId = (await createUser(db, { email: 'figures.admin@example.com', password: 'Figures-admin-1', isAdmin: true }))
    .id;
  admin = await signedIn(t.app, { email: 'figures.admin@example.com', password: 'Figures-admin-1' });
  const account = await createAccount(db, { name: 'Figures Boosters' });
  await createUser(db, { email: 'figures.holder@example.com', password: 'Figures-holder-1', accountId: account.id });
  holder = await signedIn(t.app, { email: 'figures.holder@example.com', password: 'Figures-holder-1' });
  visitor = await new Agent(t.app).start();
  await loadRealBmfRow(db, 'eo4.csv', FOUNDATION, '2026-04');
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The instant check of the foundation as a visitor reads it on 29 November 2026. */
async function foundationCheck() {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T12:00:00Z') });
  try {
    const res = await visitor.call(irsCheckContracts.check, { params: { ein: FOUNDATION } });
    expect(res.statusCode).toBe(200);
    return res.json();
  } finally {
    vi.useRealTimers();
  }
}

describe('the late-filing penalty figures', () => {
  it('without figures for the year, a late Form 990-PF names the IRS instructions to read', async () => {
    const check = await foundationCheck();
    expect(check.standing.irs.returns[0]).toMatchObject({ period_end: '2025-12', due: '2026-05-15' });
    expect(check.standing.irs.late_cost).toContain(
      "for a return due in 2026, see the IRS's Instructions for Form 990-PF for tax year 2025.",
    );
    expect(check.standing.irs.late_cost).not.toContain('$');
  });

  it('staff enter the figures of 2026 with their source; the check then states them', async () => {
    const res = await admin.call(adminComplianceContracts.savePenaltyFigures, { body: SAMPLE });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('The penalty figures for returns due in 2026 were saved.');
    expect(res.json().figures).toMatchObject({
      due_year: 2026,
      daily_cents: 3000,
      maximum_cents: 1_500_000,
      large_receipts_over_cents: 150_000_000,
      large_daily_cents: 15_000,
      large_maximum_cents: 7_500_000,
      source: SAMPLE.source,
    });
    const stated =
      "For a return due in 2026: $30.00 a day, up to the lesser of $15,000.00 or 5% of the organization's gross receipts for the year; " +
      'with gross receipts over $1,500,000.00, $150.00 a day, up to $75,000.00 (source: Sample figures for this test, not the IRS figures).';
    expect(res.json().figures.reads).toContain(stated);
    const check = await foundationCheck();
    expect(check.standing.irs.late_cost).toContain('A late Form 990-PF is penalised for each day it is late');
    expect(check.standing.irs.late_cost).toContain(stated);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'irs.penalty_figures_saved'), eq(auditLog.actorUserId, adminId)));
    expect(audit.details).toMatchObject({ dueYear: 2026, daily: 3000, source: SAMPLE.source });

    const list = await admin.call(adminComplianceContracts.penaltyFigures);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((r: { due_year: number }) => r.due_year)).toEqual([2026]);
  });

  it('figures of another year are not used for a return due in 2026', async () => {
    expect(
      (
        await admin.call(adminComplianceContracts.savePenaltyFigures, {
          body: { ...SAMPLE, due_year: '2027', daily: '31' },
        })
      ).statusCode,
    ).toBe(200);
    const check = await foundationCheck();
    expect(check.standing.irs.late_cost).toContain('$30.00 a day');
    expect(check.standing.irs.late_cost).not.toContain('$31.00');
    expect(
      (await admin.call(adminComplianceContracts.penaltyFigures))
        .json()
        .data.map((r: { due_year: number }) => r.due_year),
    ).toEqual([2027, 2026]);
  });

  it('answers 422 with the field message for figures that cannot be right, and keeps what was there', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ maximum: '20' }, 'maximum', 'The maximum must be more than the daily penalty.'],
      [
        { large_daily: '30' },
        'large_daily',
        'The daily penalty above the threshold must be more than the daily penalty.',
      ],
      [{ large_maximum: '15,000' }, 'large_maximum', 'The maximum above the threshold must be more than the maximum.'],
      [{ daily: 'twenty' }, 'daily', 'The daily penalty must be an amount in dollars, such as 245 or 245.50.'],
      [{ source: '' }, 'source', 'The source field is required.'],
      [{ source_url: 'https://example.com/i990' }, 'source_url', 'The address must be an https address on irs.gov.'],
    ];
    for (const [change, field, message] of cases) {
      const res = await admin.call(adminComplianceContracts.savePenaltyFigures, { body: { ...SAMPLE, ...change } });
      expect(res.statusCode, field).toBe(422);
      expect(res.json().errors[field]).toEqual([message]);
    }
    const year = await admin.call(adminComplianceContracts.savePenaltyFigures, {
      body: { ...SAMPLE, due_year: '1999' },
    });
    expect(year.statusCode).toBe(422);
    expect(year.json().errors.due_year).toEqual(['The due year field must be between 2000 and 2100.']);
    const [kept] = await t.database.db.select().from(latePenaltyFigures).where(eq(latePenaltyFigures.dueYear, 2026));
    expect(kept.dailyCents).toBe(3000);
  });

  it('refuses visitors (401) and account users (403), and they change nothing', async () => {
    for (const [who, status] of [
      [visitor, 401],
      [holder, 403],
    ] as const) {
      expect((await who.call(adminComplianceContracts.penaltyFigures)).statusCode).toBe(status);
      expect(
        (await who.call(adminComplianceContracts.savePenaltyFigures, { body: { ...SAMPLE, daily: '1' } })).statusCode,
      ).toBe(status);
      expect(
        (await who.call(adminComplianceContracts.deletePenaltyFigures, { params: { year: 2026 } })).statusCode,
      ).toBe(status);
    }
    const [kept] = await t.database.db.select().from(latePenaltyFigures).where(eq(latePenaltyFigures.dueYear, 2026));
    expect(kept.dailyCents).toBe(3000);
  });

  it('staff remove a year; the check names the instructions again; a second removal is 404', async () => {
    const res = await admin.call(adminComplianceContracts.deletePenaltyFigures, { params: { year: 2026 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('The penalty figures for returns due in 2026 were removed.');
    expect((await foundationCheck()).standing.irs.late_cost).toContain("see the IRS's Instructions for Form 990-PF");
    expect(
      (await admin.call(adminComplianceContracts.deletePenaltyFigures, { params: { year: 2026 } })).statusCode,
    ).toBe(404);
  });
});
