import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, discounts, levels, stateRequirements, users } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { recordAudit } from '../../src/server/modules/audit/record-audit.ts';
import { adminConsoleContracts } from '../../src/shared/contracts/admin-console.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { siteContracts } from '../../src/shared/contracts/site.ts';
import { DISCOUNT_MESSAGES } from '../../src/shared/schemas/admin-discounts.ts';
import { LEVEL_MESSAGES, STATE_FILING_MESSAGES } from '../../src/shared/schemas/admin-levels.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * Admin console (docs/requirements/product.md "Staff console"): discount codes, levels and prices, state requirements, audit log.
 * Each route: its rules and messages, 401 for visitors, 403 for holders, audit rows written.
 */

const ADMIN = { email: 'console.admin@example.com', password: 'Console-admin-123' };
const HOLDER = { email: 'console.holder@example.com', password: 'Console-holder-123' };

let t: TestApp;
let admin: Agent;
let holder: Agent;
let visitor: Agent;
let adminId: number;
let accountId: number;

const CODE = {
  code: ' fees20 ',
  description: '20 % off service fees',
  kind: 'percent',
  amount: '20',
  is_new_account: 0,
  is_renewals: 0,
  is_upgrades: 0,
  is_service_fees: 1,
  starts_at: '',
  expires_at: '',
  max_redemptions: '5',
  is_active: 1,
};

const audits = async (action: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  adminId = (await createUser(db, { ...ADMIN, isAdmin: true })).id;
  accountId = (await createAccount(db, { name: 'Console Boosters' })).id;
  await createUser(db, { ...HOLDER, accountId });
  admin = await signedIn(t.app, ADMIN);
  holder = await signedIn(t.app, HOLDER);
  visitor = await new Agent(t.app).start();
});
afterAll(async () => {
  await t?.close();
});

describe('who may use the admin console API', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', '/api/admin/discounts'],
    ['POST', '/api/admin/discounts', CODE],
    ['PUT', '/api/admin/discounts/1', CODE],
    ['GET', '/api/admin/levels'],
    ['PUT', '/api/admin/levels/1', {}],
    ['GET', '/api/admin/states'],
    ['PUT', '/api/admin/states/AL', {}],
    ['GET', '/api/admin/audit'],
    ['GET', '/api/admin/audit/export.csv'],
  ];
  it('answers 401 to visitors and 403 to account holders', async () => {
    for (const [method, url, body] of calls) {
      expect(
        (await visitor.request(method, url, body ?? (method === 'GET' ? undefined : {}))).statusCode,
        `${method} ${url}`,
      ).toBe(401);
      expect(
        (await holder.request(method, url, body ?? (method === 'GET' ? undefined : {}))).statusCode,
        `${method} ${url}`,
      ).toBe(403);
    }
    expect((await t.database.db.select({ n: count() }).from(discounts))[0].n).toBe(0);
  });
  it('serves the four pages to admins only', async () => {
    for (const path of ['/admin/discounts', '/admin/levels', '/admin/states', '/admin/audit']) {
      const page = await admin.request('GET', path, undefined, { accept: 'text/html', 'x-requested-with': '' });
      expect(page.statusCode, path).toBe(200);
      expect(
        (await holder.request('GET', path, undefined, { accept: 'text/html', 'x-requested-with': '' })).statusCode,
        path,
      ).toBe(403);
    }
  });
});

describe('discount codes', () => {
  let id: number;

  it('creates a percentage code: normalised, multiplier of 6 decimals, audited', async () => {
    const res = await admin.call(adminConsoleContracts.createDiscount, { body: CODE });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      code: 'FEES20',
      description: '20 % off service fees',
      currency_value_cents: 0,
      multiplier: 0.2,
      is_new_account: false,
      is_renewals: false,
      is_upgrades: false,
      is_service_fees: true,
      starts_at: null,
      expires_at: null,
      max_redemptions: 5,
      is_active: true,
      used: 0,
    });
    id = body.id;
    const [row] = await t.database.db.select().from(discounts).where(eq(discounts.id, id));
    expect(Number(row.multiplier)).toBe(0.2);
    const [entry] = await audits('discount.created');
    expect(entry).toMatchObject({ actorUserId: adminId, details: { discountId: id, code: 'FEES20' } });
  });

  it('lists codes newest first with their uses', async () => {
    const page = (await admin.call(adminConsoleContracts.discounts)).json();
    expect(page).toMatchObject({ current_page: 1, total: 1, per_page: 25 });
    expect(page.data[0]).toMatchObject({ id, code: 'FEES20', used: 0, max_redemptions: 5 });
  });

  it('a created code can be reserved by a holder', async () => {
    const res = await holder.call(paymentContracts.reserveDiscount, { body: { code: 'fees20' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().discount).toMatchObject({
      id,
      code: 'FEES20',
      multiplier: 0.2,
      currency_value: 0,
      is_service_fees: true,
    });
  });

  it('edits a code into a fixed amount with a window; the end date is the last day it works', async () => {
    const res = await admin.call(adminConsoleContracts.saveDiscount, {
      params: { id: id },
      body: {
        ...CODE,
        kind: 'fixed',
        amount: '12.50',
        is_renewals: 1,
        starts_at: '2026-06-01',
        expires_at: '2026-06-30',
        max_redemptions: '',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      currency_value_cents: 1250,
      multiplier: 0,
      is_renewals: true,
      max_redemptions: null,
      starts_at: '2026-06-01T00:00:00.000Z',
      expires_at: '2026-07-01T00:00:00.000Z',
    });
    const [entry] = await audits('discount.updated');
    expect(entry.details).toMatchObject({
      discountId: id,
      changes: { currencyValueCents: [0, 1250], maxRedemptions: [5, null] },
    });
  });

  it('deactivates instead of deleting: there is no DELETE route', async () => {
    expect((await admin.delete(`/api/admin/discounts/${id}`)).statusCode).toBe(404);
    const res = await admin.call(adminConsoleContracts.saveDiscount, {
      params: { id: id },
      body: { ...CODE, is_active: 0 },
    });
    expect(res.json().is_active).toBe(false);
    expect((await holder.call(paymentContracts.reserveDiscount, { body: { code: 'FEES20' } })).json()).toEqual({
      discount: null,
    });
  });

  it('refuses a code already in use, on the code field', async () => {
    const res = await admin.call(adminConsoleContracts.createDiscount, { body: { ...CODE, code: 'Fees20' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ code: [DISCOUNT_MESSAGES.codeTaken] });
    const other = (await admin.call(adminConsoleContracts.createDiscount, { body: { ...CODE, code: 'OTHER' } })).json();
    const rename = await admin.call(adminConsoleContracts.saveDiscount, {
      params: { id: other.id },
      body: { ...CODE, code: 'fees20' },
    });
    expect(rename.statusCode).toBe(422);
    expect(rename.json().errors.code).toEqual([DISCOUNT_MESSAGES.codeTaken]);
  });

  it('checks the form with clear messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ code: 'spring 25' }, 'code', DISCOUNT_MESSAGES.codeFormat],
      [{ code: '' }, 'code', 'The code field is required.'],
      [{ amount: '120' }, 'amount', DISCOUNT_MESSAGES.percentRange],
      [{ amount: '0' }, 'amount', DISCOUNT_MESSAGES.percentRange],
      [{ amount: 'lots' }, 'amount', DISCOUNT_MESSAGES.percentFormat],
      [{ kind: 'fixed', amount: '0' }, 'amount', DISCOUNT_MESSAGES.fixedRange],
      [
        { kind: 'fixed', amount: '10.555' },
        'amount',
        'The amount off must be an amount in dollars, such as 245 or 245.50.',
      ],
      [{ kind: 'both' }, 'kind', 'The selected kind is invalid.'],
      [{ is_service_fees: 0 }, 'flags', DISCOUNT_MESSAGES.flags],
      [{ starts_at: '2026-07-01', expires_at: '2026-06-30' }, 'expires_at', DISCOUNT_MESSAGES.endBeforeStart],
      [{ starts_at: '2026-02-30' }, 'starts_at', DISCOUNT_MESSAGES.date],
      [{ max_redemptions: '0' }, 'max_redemptions', DISCOUNT_MESSAGES.useLimit],
      [{ max_redemptions: '2.5' }, 'max_redemptions', DISCOUNT_MESSAGES.useLimit],
    ];
    for (const [patch, field, message] of cases) {
      const res = await admin.call(adminConsoleContracts.createDiscount, {
        body: { ...CODE, code: 'NEWCODE', ...patch },
      });
      expect(res.statusCode, JSON.stringify(patch)).toBe(422);
      expect(res.json().errors[field], JSON.stringify(patch)).toEqual([message]);
    }
    // Same start and end day: a one-day code.
    const oneDay = await admin.call(adminConsoleContracts.createDiscount, {
      body: {
        ...CODE,
        code: 'ONEDAY',
        kind: 'fixed',
        amount: '$5',
        starts_at: '2026-06-01',
        expires_at: '2026-06-01',
      },
    });
    expect(oneDay.statusCode).toBe(201);
    expect(oneDay.json()).toMatchObject({ currency_value_cents: 500, expires_at: '2026-06-02T00:00:00.000Z' });
    expect(
      (await admin.call(adminConsoleContracts.saveDiscount, { params: { id: 999999 }, body: CODE })).statusCode,
    ).toBe(404);
  });

  it('counts redemptions as uses', async () => {
    const db = t.database.db;
    const created = (
      await admin.call(adminConsoleContracts.createDiscount, { body: { ...CODE, code: 'USED1' } })
    ).json();
    const { discountReservations } = await import('../../src/server/db/schema.ts');
    await db.insert(discountReservations).values({
      discountId: created.id,
      accountId,
      expiresAt: new Date(),
      redeemedAt: new Date(),
      paymentRef: 'test-1',
    });
    const page = (await admin.call(adminConsoleContracts.discounts)).json();
    expect(page.data.find((d: { id: number }) => d.id === created.id)).toMatchObject({ used: 1, max_redemptions: 5 });
  });
});

describe('levels and prices', () => {
  it('lists every level with prices in cents and the upgrade target', async () => {
    const { levels: list } = (await admin.call(adminConsoleContracts.levels)).json();
    expect(list).toHaveLength(5);
    // The way back for a revoked group (docs/irs-standing.md "Reinstatement"), sold as a level.
    expect(list.find((l: { slug: string }) => l.slug === 'reinstatement')).toMatchObject({
      name: 'Reinstatement application',
      price_cents: 59500,
      price_discount_cents: 59500,
    });
    const startUp = list.find((l: { slug: string }) => l.slug === 'start-up');
    expect(startUp).toMatchObject({
      price_cents: 69500,
      price_discount_cents: 64500,
      upgrade_to_name: 'Full service with incorporation',
      upgrade_cents: 30000,
    });
  });

  it('saves prices in cents, shows them on /api/pricing, and audits the change', async () => {
    const [greek] = await t.database.db.select().from(levels).where(eq(levels.slug, 'greek-chapter'));
    const [maintain] = await t.database.db.select().from(levels).where(eq(levels.slug, 'maintain'));
    const res = await admin.call(adminConsoleContracts.saveLevel, {
      params: { id: greek.id },
      body: {
        price: '299.00',
        price_discount: '239.5',
        upgrade_to_id: String(maintain.id),
        upgrade: '100',
        upgrade_discount: '90',
        inc_package: '0',
        inc_package_discount: '0',
        renewal_features: 'Form 990-N filed for you\n\n  Good-standing letter  \n',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      price_cents: 29900,
      price_discount_cents: 23950,
      upgrade_to_id: maintain.id,
      upgrade_to_name: maintain.name,
      upgrade_cents: 10000,
      upgrade_discount_cents: 9000,
      renewal_features: ['Form 990-N filed for you', 'Good-standing letter'],
    });
    const pricing = (await visitor.call(siteContracts.pricing))
      .json()
      .levels.find((l: { id: number }) => l.id === greek.id);
    expect(pricing).toMatchObject({ priceCents: 29900, priceDiscountCents: 23950 });
    const [entry] = await audits('level.updated');
    expect(entry).toMatchObject({
      actorUserId: adminId,
      details: { levelId: greek.id, changes: { priceCents: [29500, 29900], priceDiscountCents: [24500, 23950] } },
    });
  });

  it('refuses an early-bird price above the price, a missing price, and itself as upgrade target', async () => {
    const [greek] = await t.database.db.select().from(levels).where(eq(levels.slug, 'greek-chapter'));
    const base = {
      price: '100',
      price_discount: '90',
      upgrade_to_id: '',
      upgrade: '0',
      upgrade_discount: '0',
      inc_package: '10',
      inc_package_discount: '10',
      renewal_features: 'One',
    };
    const high = await admin.call(adminConsoleContracts.saveLevel, {
      params: { id: greek.id },
      body: {
        ...base,
        price_discount: '100.01',
        upgrade: '5',
        upgrade_discount: '6',
      },
    });
    expect(high.statusCode).toBe(422);
    expect(high.json().errors).toEqual({
      price_discount: [LEVEL_MESSAGES.earlyBird],
      upgrade_discount: [LEVEL_MESSAGES.upgradeEarlyBird],
    });
    const missing = await admin.call(adminConsoleContracts.saveLevel, {
      params: { id: greek.id },
      body: { ...base, price: '' },
    });
    expect(missing.json().errors.price).toEqual(['The price field is required.']);
    const self = await admin.call(adminConsoleContracts.saveLevel, {
      params: { id: greek.id },
      body: { ...base, upgrade_to_id: String(greek.id) },
    });
    expect(self.statusCode).toBe(422);
    expect(self.json().errors).toEqual({ upgrade_to_id: [LEVEL_MESSAGES.upgradeTarget] });
    const unknown = await admin.call(adminConsoleContracts.saveLevel, {
      params: { id: greek.id },
      body: { ...base, upgrade_to_id: '99999' },
    });
    expect(unknown.json().errors).toEqual({ upgrade_to_id: [LEVEL_MESSAGES.upgradeTarget] });
    expect((await admin.call(adminConsoleContracts.saveLevel, { params: { id: 99999 }, body: base })).statusCode).toBe(
      404,
    );
    const none = await admin.call(adminConsoleContracts.saveLevel, { params: { id: greek.id }, body: base });
    expect(none.json()).toMatchObject({ upgrade_to_id: null, upgrade_to_name: null, price_cents: 10000 });
  });
});

describe('state requirements', () => {
  it('lists the 51 rows', async () => {
    const { states } = (await admin.call(adminConsoleContracts.states)).json();
    expect(states).toHaveLength(51);
  });

  it('saves one state; the public list shows it; audited', async () => {
    const res = await admin.call(adminConsoleContracts.saveState, {
      params: { code: 'wy' },
      body: {
        state_name: 'Wyoming',
        maintain_estimate: '27.50',
        aoi_estimate: '50',
        notes: '  Annual report due on the first day of the anniversary month. ',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: 'WY',
      state_name: 'Wyoming',
      maintain_estimate_cents: 2750,
      aoi_estimate_cents: 5000,
      notes: 'Annual report due on the first day of the anniversary month.',
      filing_label: null,
      filing_due_month: null,
      filing_due_day: null,
    });
    const pub = (await visitor.call(siteContracts.stateRequirements))
      .json()
      .states.find((s: { code: string }) => s.code === 'WY');
    expect(pub).toMatchObject({ maintain_estimate_cents: 2750 });
    const [entry] = await audits('state_requirement.updated');
    expect(entry).toMatchObject({ actorUserId: adminId, details: { code: 'WY' } });
    expect(Object.keys((entry.details as { changes: object }).changes)).toContain('maintain_estimate_cents');
  });

  it('checks the fields and answers 404 for unknown states', async () => {
    const bad = await admin.call(adminConsoleContracts.saveState, {
      params: { code: 'WY' },
      body: {
        state_name: '',
        maintain_estimate: '-5',
        aoi_estimate: 'ten',
        notes: 'x'.repeat(1001),
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['aoi_estimate', 'maintain_estimate', 'notes', 'state_name']);
    expect(
      (
        await admin.call(adminConsoleContracts.saveState, {
          params: { code: 'ZZ' },
          body: { state_name: 'Nowhere', maintain_estimate: '1', aoi_estimate: '1' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await admin.call(adminConsoleContracts.saveState, {
          params: { code: 'WYO' },
          body: { state_name: 'Nowhere', maintain_estimate: '1', aoi_estimate: '1' },
        })
      ).statusCode,
    ).toBe(404);
    const [wy] = await t.database.db.select().from(stateRequirements).where(eq(stateRequirements.code, 'WY'));
    expect(wy.maintainEstimateCents).toBe(2750);
  });

  it('saves, shows and clears a state filing date; audited', async () => {
    const base = { state_name: 'Oregon', maintain_estimate: '10', aoi_estimate: '20', notes: '' };
    const saved = await admin.call(adminConsoleContracts.saveState, {
      params: { code: 'OR' },
      body: {
        ...base,
        filing_label: '  Annual report ',
        filing_due_month: '2',
        filing_due_day: '29',
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      code: 'OR',
      filing_label: 'Annual report',
      filing_due_month: 2,
      filing_due_day: 29,
    });
    const listed = (await admin.call(adminConsoleContracts.states))
      .json()
      .states.find((s: { code: string }) => s.code === 'OR');
    expect(listed).toMatchObject({ filing_label: 'Annual report', filing_due_month: 2, filing_due_day: 29 });
    const [entry] = await audits('state_requirement.updated');
    expect(entry).toMatchObject({ actorUserId: adminId, details: { code: 'OR' } });
    expect((entry.details as { changes: Record<string, unknown> }).changes).toMatchObject({
      filing_label: [null, 'Annual report'],
      filing_due_month: [null, 2],
      filing_due_day: [null, 29],
    });

    const cleared = await admin.call(adminConsoleContracts.saveState, {
      params: { code: 'OR' },
      body: {
        ...base,
        filing_label: '',
        filing_due_month: '',
        filing_due_day: '',
      },
    });
    expect(cleared.json()).toMatchObject({ filing_label: null, filing_due_month: null, filing_due_day: null });
    const [or] = await t.database.db.select().from(stateRequirements).where(eq(stateRequirements.code, 'OR'));
    expect(or).toMatchObject({ filingLabel: null, filingDueMonth: null, filingDueDay: null });
  });

  it('checks the filing fields: label needed with a date, both month and day, a day the month has', async () => {
    const base = { state_name: 'Oregon', maintain_estimate: '10', aoi_estimate: '20', notes: '' };
    const put = async (body: object) => {
      const res = await admin.call(adminConsoleContracts.saveState, {
        params: { code: 'OR' },
        body: { ...base, ...body },
      });
      expect(res.statusCode).toBe(422);
      return res.json().errors;
    };
    expect(await put({ filing_label: '', filing_due_month: '5', filing_due_day: '15' })).toEqual({
      filing_label: [STATE_FILING_MESSAGES.labelRequired],
    });
    expect(await put({ filing_label: 'Annual report', filing_due_month: '', filing_due_day: '' })).toEqual({
      filing_label: [STATE_FILING_MESSAGES.labelWithoutDate],
    });
    expect(await put({ filing_label: 'Annual report', filing_due_month: '5', filing_due_day: '' })).toEqual({
      filing_due_day: [STATE_FILING_MESSAGES.dayRequired],
    });
    expect(await put({ filing_label: 'Annual report', filing_due_month: '', filing_due_day: '15' })).toEqual({
      filing_due_month: [STATE_FILING_MESSAGES.monthRequired],
    });
    expect(await put({ filing_label: 'Annual report', filing_due_month: '4', filing_due_day: '31' })).toEqual({
      filing_due_day: ['The filing due day must be between 1 and 30 for April.'],
    });
    expect(await put({ filing_label: 'Annual report', filing_due_month: '13', filing_due_day: '1' })).toEqual({
      filing_due_month: [STATE_FILING_MESSAGES.month],
    });
    expect(await put({ filing_label: 'Annual report', filing_due_month: '5', filing_due_day: '0' })).toEqual({
      filing_due_day: ['The filing due day field must be between 1 and 31.'],
    });
    expect(await put({ filing_label: 'Annual report', filing_due_month: '5', filing_due_day: 'soon' })).toEqual({
      filing_due_day: ['The filing due day field must be an integer.'],
    });
    expect(await put({ filing_label: 'x'.repeat(101), filing_due_month: '5', filing_due_day: '15' })).toEqual({
      filing_label: ['The filing label field must not be greater than 100 characters.'],
    });
    const [or] = await t.database.db.select().from(stateRequirements).where(eq(stateRequirements.code, 'OR'));
    expect(or.filingDueMonth).toBeNull();
  });
});

describe('audit log', () => {
  beforeAll(async () => {
    const db = t.database.db;
    for (let i = 0; i < 60; i++)
      await recordAudit(db, {
        actorUserId: adminId,
        accountId,
        action: i % 2 ? 'test_thing.odd' : 'test_thing.even',
        details: { i },
      });
  });

  it('pages newest first, 50 a page, with actor e-mail and account name', async () => {
    const first = (await admin.call(adminConsoleContracts.audit)).json();
    expect(first).toMatchObject({ current_page: 1, per_page: 50, from: 1, to: 50, next_page_url: '?page=2' });
    expect(first.data).toHaveLength(50);
    expect(first.data[0]).toMatchObject({
      action: 'test_thing.odd',
      actor_email: ADMIN.email,
      account_id: accountId,
      account_name: 'Console Boosters',
      details: { i: 59 },
    });
    const ids = first.data.map((r: { id: number }) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('filters by account id and action prefix (LIKE wildcards are literal)', async () => {
    const byAccount = (await admin.call(adminConsoleContracts.audit, { query: { account_id: accountId } })).json();
    expect(byAccount.total).toBe(60);
    const odd = (
      await admin.call(adminConsoleContracts.audit, {
        query: { account_id: accountId, action: 'test_thing.odd', page: 1 },
      })
    ).json();
    expect(odd).toMatchObject({ total: 30, last_page: 1 });
    const prefix = (await admin.call(adminConsoleContracts.audit, { query: { action: 'DISCOUNT.' } })).json();
    expect(prefix.data.length).toBeGreaterThan(0);
    expect(prefix.data.every((r: { action: string }) => r.action.startsWith('discount.'))).toBe(true);
    expect((await admin.call(adminConsoleContracts.audit, { query: { action: 'test%thing' } })).statusCode).toBe(422);
    expect((await admin.call(adminConsoleContracts.audit, { query: { action: 'test_' } })).json().total).toBe(60);
    expect((await admin.call(adminConsoleContracts.audit, { query: { action: 'testXthing' } })).json().total).toBe(0);
    const page2 = (await admin.call(adminConsoleContracts.audit, { query: { account_id: accountId, page: 2 } })).json();
    expect(page2).toMatchObject({
      current_page: 2,
      from: 51,
      to: 60,
      prev_page_url: `?account_id=${accountId}&page=1`,
    });
  });

  it('exports the filtered rows as CSV in words, oldest first when sorted so', async () => {
    await recordAudit(t.database.db, {
      actorUserId: adminId,
      accountId,
      action: 'level.updated',
      details: { levelId: 2, changes: { price_cents: [69500, 64500] } },
    });
    const res = await admin.call(adminConsoleContracts.auditCsv, {
      query: { account_id: accountId, action: 'test_thing.', sort: 'created_at', page: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trimEnd().split('\r\n');
    // Every matching row (the page is ignored), oldest first.
    expect(lines).toHaveLength(61);
    expect(lines[0]).toBe('Time,Actor,Account,What,Action,Changes,Details,IP address');
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC,${ADMIN.email},Console Boosters,Test thing: even,test_thing.even,,I: 0,$`,
      ),
    );
    expect(lines[60]).toContain(',Test thing: odd,test_thing.odd,,I: 59,');

    const change = await admin.call(adminConsoleContracts.auditCsv, {
      query: { action: 'level.updated', account_id: accountId },
    });
    expect(change.body.split('\r\n')[1]).toContain(
      `,Console Boosters,Changed a level’s prices,level.updated,Price: $695.00 → $645.00,Level: #2,`,
    );
    expect((await admin.call(adminConsoleContracts.auditCsv, { query: { account_id: 'abc' } })).statusCode).toBe(422);
  });

  it('refuses a bad account id with a message', async () => {
    const res = await admin.call(adminConsoleContracts.audit, { query: { account_id: 'abc' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.account_id).toEqual(['The account id must be a whole number.']);
    const n = await t.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, adminId)));
    expect(n[0].n).toBeGreaterThan(60);
  });
});

describe('audit log sorts (docs/staff-lists.md "Audit log sorts")', () => {
  // Rows of one action prefix, so other tests' rows never interleave: two named accounts and two
  // actors, plus a system row, a removed user's row and a row of no account.
  let alpha: number;
  let zulu: number;
  const ZED = 'zed.sorter@example.com';
  const AMY = 'amy.sorter@example.com';
  beforeAll(async () => {
    const db = t.database.db;
    alpha = (await createAccount(db, { name: 'Alpha Sorters' })).id;
    zulu = (await createAccount(db, { name: 'Zulu Sorters' })).id;
    const zed = (await createUser(db, { email: ZED, password: 'Zed-sorter-123' })).id;
    const amy = (await createUser(db, { email: AMY, password: 'Amy-sorter-123' })).id;
    await recordAudit(db, { actorUserId: zed, accountId: alpha, action: 'sorttest.bravo', details: {} });
    await recordAudit(db, { actorUserId: amy, accountId: zulu, action: 'sorttest.charlie', details: {} });
    await recordAudit(db, { actorUserId: null, accountId: zulu, action: 'sorttest.alpha', details: {} });
    await recordAudit(db, { actorUserId: 987_654, accountId: null, action: 'sorttest.delta', details: {} });
    await recordAudit(db, { actorUserId: amy, accountId: alpha, action: 'sorttest.echo', details: {} });
  });
  type Row = { id: number; action: string; actor_email: string | null; account_name: string | null };
  const list = async (sort: string, extra = '') => {
    // `extra` carries more of the query string (`&account_id=…`), so the address is written out.
    const res = await admin.get(`${adminConsoleContracts.audit.url}?action=sorttest.&sort=${sort}${extra}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { data: Row[]; next_page_url: string | null };
  };
  const actions = (rows: Row[]) => rows.map((r) => r.action.replace('sorttest.', ''));

  it('sorts by the action, either way', async () => {
    expect(actions((await list('action')).data)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    expect(actions((await list('-action')).data)).toEqual(['echo', 'delta', 'charlie', 'bravo', 'alpha']);
  });

  it('sorts by the actor’s e-mail, rows without one last either way, ties newest last or first', async () => {
    const up = (await list('actor')).data;
    expect(up.map((r) => r.actor_email)).toEqual([AMY, AMY, ZED, null, null]);
    expect(actions(up)).toEqual(['charlie', 'echo', 'bravo', 'alpha', 'delta']);
    const down = (await list('-actor')).data;
    expect(down.map((r) => r.actor_email)).toEqual([ZED, AMY, AMY, null, null]);
    expect(actions(down)).toEqual(['bravo', 'echo', 'charlie', 'delta', 'alpha']);
  });

  it('sorts by the account’s name, rows of no account last; with the account filter by time', async () => {
    const up = (await list('account')).data;
    expect(up.map((r) => r.account_name)).toEqual([
      'Alpha Sorters',
      'Alpha Sorters',
      'Zulu Sorters',
      'Zulu Sorters',
      null,
    ]);
    expect(actions(up)).toEqual(['bravo', 'echo', 'charlie', 'alpha', 'delta']);
    expect(actions((await list('-account')).data)).toEqual(['alpha', 'charlie', 'echo', 'bravo', 'delta']);
    expect(actions((await list('-account', `&account_id=${alpha}`)).data)).toEqual(['echo', 'bravo']);
  });

  it('sorts a search’s rows and keeps the sort in the page links', async () => {
    const found = (
      await admin.call(adminConsoleContracts.audit, { query: { search: 'sorters', sort: '-account' } })
    ).json() as { data: Row[] };
    expect(found.data.map((r) => r.account_name)).toEqual([
      'Zulu Sorters',
      'Zulu Sorters',
      'Alpha Sorters',
      'Alpha Sorters',
    ]);
    // "sorter" finds both the accounts and the actors: a row matching both is listed once.
    const both = (
      await admin.call(adminConsoleContracts.audit, { query: { search: 'sorter', sort: 'actor' } })
    ).json() as { data: Row[] };
    expect(actions(both.data)).toEqual(['charlie', 'echo', 'bravo', 'alpha']);
    expect(
      actions(
        (
          (await admin.call(adminConsoleContracts.audit, { query: { search: 'sorter', sort: '-account' } })).json() as {
            data: Row[];
          }
        ).data,
      ),
    ).toEqual(['alpha', 'charlie', 'echo', 'bravo']);
    const all = (
      await admin.call(adminConsoleContracts.audit, { query: { account_id: accountId, sort: 'actor' } })
    ).json();
    expect(all.next_page_url).toBe(`?account_id=${accountId}&sort=actor&page=2`);
  });

  it('sorts by account a search that names more than 500 accounts, finding only theirs', async () => {
    // Past 500 named accounts the search stays a subquery and the sort walks the accounts by name,
    // testing each one's own name (docs/staff-lists.md "Audit log sorts").
    const db = t.database.db;
    const crowd: number[] = [];
    for (let i = 0; i < 502; i++) {
      crowd.push((await createAccount(db, { name: `Crowdfield Club ${String(i).padStart(3, '0')}` })).id);
    }
    const other = (await createAccount(db, { name: 'Zz Other Boosters' })).id;
    await recordAudit(db, { actorUserId: null, accountId: crowd[7]!, action: 'crowdtest.first', details: {} });
    await recordAudit(db, { actorUserId: null, accountId: crowd[420]!, action: 'crowdtest.second', details: {} });
    await recordAudit(db, { actorUserId: null, accountId: other, action: 'crowdtest.other', details: {} });
    await recordAudit(db, { actorUserId: null, accountId: crowd[7]!, action: 'crowdtest.third', details: {} });
    const res = await admin.call(adminConsoleContracts.audit, { query: { search: 'crowdfield', sort: '-account' } });
    expect(res.statusCode).toBe(200);
    const rows = (res.json() as { data: Row[] }).data;
    expect(rows.map((r) => [r.account_name, r.action])).toEqual([
      ['Crowdfield Club 420', 'crowdtest.second'],
      ['Crowdfield Club 007', 'crowdtest.third'],
      ['Crowdfield Club 007', 'crowdtest.first'],
    ]);
    const up = (
      await admin.call(adminConsoleContracts.audit, { query: { search: 'crowdfield club', sort: 'account' } })
    ).json() as { data: Row[] };
    expect(up.data.map((r) => r.action)).toEqual(['crowdtest.first', 'crowdtest.third', 'crowdtest.second']);
  });

  it('finds an actor by the e-mail they have now, not the one they had', async () => {
    const db = t.database.db;
    const [mover] = await db
      .insert(users)
      .values({ email: 'Old.Mover@Example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    await recordAudit(db, { actorUserId: mover!.id, accountId: null, action: 'movetest.done', details: {} });
    const actionsFor = async (search: string) =>
      (
        (await admin.call(adminConsoleContracts.audit, { query: { search: search, action: 'movetest.' } })).json() as {
          data: Row[];
        }
      ).data.map((r) => r.actor_email);
    expect(await actionsFor('old.mover')).toEqual(['Old.Mover@Example.com']);
    await db.update(users).set({ email: 'new.mover@example.com' }).where(eq(users.id, mover!.id));
    expect(await actionsFor('old.mover')).toEqual([]);
    expect(await actionsFor('new.mover')).toEqual(['new.mover@example.com']);
  });

  it('exports the sorted rows in the same order', async () => {
    const res = await admin.call(adminConsoleContracts.auditCsv, { query: { action: 'sorttest.', sort: 'actor' } });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trimEnd().split('\r\n').slice(1);
    expect(lines.map((l) => l.split(',').slice(1, 3).join(','))).toEqual([
      `${AMY},Zulu Sorters`,
      `${AMY},Alpha Sorters`,
      `${ZED},Alpha Sorters`,
      'System,Zulu Sorters',
      'User 987654,',
    ]);
  });

  it('refuses an unknown sort with the allowed ones, and anyone but staff', async () => {
    const bad = await admin.call(adminConsoleContracts.audit, { query: { sort: 'ip' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.sort).toEqual([
      'The sort must be one of: created_at, -created_at, actor, -actor, account, -account, action, -action.',
    ]);
    expect((await admin.call(adminConsoleContracts.auditCsv, { query: { sort: 'details' } })).statusCode).toBe(422);
    for (const url of ['/api/admin/audit?sort=actor', '/api/admin/audit/export.csv?sort=-account&search=sorters']) {
      expect((await holder.get(url)).statusCode, url).toBe(403);
      expect((await visitor.get(url)).statusCode, url).toBe(401);
    }
  });
});
