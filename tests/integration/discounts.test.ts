import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, discountReservations, discounts } from '../../src/server/db/schema.ts';
import { DEMO_DISCOUNTS, seedDemoDiscounts } from '../../src/server/db/seed/demo-discounts.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { findReservedDiscount } from '../../src/server/modules/discounts/find-reserved-discount.ts';
import { redeemReservation } from '../../src/server/modules/discounts/redeem-reservation.ts';
import { reserveDiscount } from '../../src/server/modules/discounts/reserve-discount.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { billingSummary } from '../../src/shared/rules/billing.ts';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';

/**
 * Discount codes (docs/requirements/product.md tool 14; docs/requirements/behaviour.md "Discount code"; docs/requirements/validation.md "Discounts and totals"; docs/requirements/calls.md POST
 * /app/discount/reserve; docs/requirements/errors.md "An invalid discount code silently removes the discount"; docs/requirements/platform.md §5.4,
 * §5.6, §5.8): reserve, refresh, find for the payment step, redeem once, rate limit.
 */

const HOLDER_A = { email: 'discount.a@example.com', password: 'Holder-pass-123' };
const HOLDER_B = { email: 'discount.b@example.com', password: 'Holder-pass-456' };
const ADMIN = { email: 'discount.admin@example.com', password: 'Admin-pass-789' };
const NO_ACCOUNT = { email: 'discount.none@example.com', password: 'Nobody-pass-012' };

const DAY = 86_400_000;
const MIN = 60_000;

let t: TestApp;
let accountA: number;
let accountB: number;
let holderA: { id: number };
let holderB: { id: number };
let adminId: number;
const ids: Record<string, number> = {};

/** Inserts a discount and remembers its id by code. */
async function addDiscount(values: typeof discounts.$inferInsert) {
  const [row] = await t.database.db.insert(discounts).values(values).returning({ id: discounts.id });
  ids[values.code] = row.id;
  return row.id;
}

const openReservations = async (accountId: number, discountId: number) =>
  (
    await t.database.db
      .select({ n: count() })
      .from(discountReservations)
      .where(
        and(
          eq(discountReservations.accountId, accountId),
          eq(discountReservations.discountId, discountId),
          isNull(discountReservations.redeemedAt),
        ),
      )
  )[0].n;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  accountA = (await createAccount(db, { name: 'Discount Boosters A' })).id;
  accountB = (await createAccount(db, { name: 'Discount Boosters B' })).id;
  holderA = await createUser(db, { ...HOLDER_A, accountId: accountA });
  holderB = await createUser(db, { ...HOLDER_B, accountId: accountB });
  adminId = (await createUser(db, { ...ADMIN, isAdmin: true })).id;
  await createUser(db, NO_ACCOUNT);

  const now = Date.now();
  await addDiscount({ code: 'SPRING25', description: '$25 off renewals', currencyValueCents: 2500, isRenewals: true });
  await addDiscount({ code: 'HALFFEES', description: 'Half off service fees', multiplier: 0.5, isServiceFees: true });
  await addDiscount({ code: 'THIRD', description: 'A third off upgrades', multiplier: 0.333333, isUpgrades: true });
  await addDiscount({
    code: 'EVERYTHING',
    description: 'All of it',
    multiplier: 1,
    isNewAccount: true,
    isRenewals: true,
    isUpgrades: true,
    isServiceFees: true,
  });
  await addDiscount({
    code: 'OLDCODE',
    description: 'Expired',
    currencyValueCents: 1000,
    isRenewals: true,
    expiresAt: new Date(now - DAY),
  });
  await addDiscount({
    code: 'SOON',
    description: 'Not started',
    currencyValueCents: 1000,
    isRenewals: true,
    startsAt: new Date(now + DAY),
  });
  await addDiscount({
    code: 'OFF',
    description: 'Switched off',
    currencyValueCents: 1000,
    isRenewals: true,
    isActive: false,
  });
  await addDiscount({
    code: 'ONLYONE',
    description: 'One redemption',
    currencyValueCents: 500,
    isRenewals: true,
    maxRedemptions: 1,
  });
  await addDiscount({
    code: 'ENDING',
    description: 'Ends in 10 minutes',
    currencyValueCents: 500,
    isRenewals: true,
    expiresAt: new Date(now + 10 * MIN),
  });
  await addDiscount({
    code: 'ONCE',
    description: 'Redeemed once per account',
    currencyValueCents: 700,
    isRenewals: true,
  });
  await addDiscount({ code: 'RACE', description: 'Concurrent redemption', currencyValueCents: 700, isRenewals: true });
});
afterAll(async () => {
  await t?.close();
});

describe('POST /app/discount/reserve', () => {
  it('accepts a lower-case code and answers the discount of docs/requirements/entities.md with its value in dollars and the hold', async () => {
    const a = await signedIn(t.app, HOLDER_A);
    const before = Date.now();
    const res = await a.call(paymentContracts.reserveDiscount, { body: { code: '  spring25 ' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.discount).toEqual({
      id: ids.SPRING25,
      code: 'SPRING25',
      description: '$25 off renewals',
      currency_value: 25,
      multiplier: 0,
      is_new_account: false,
      is_renewals: true,
      is_upgrades: false,
      is_service_fees: false,
    });
    expect(body.reservation_id).toEqual(expect.any(Number));
    const expires = Date.parse(body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * MIN - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * MIN + 1000);
    expect(await openReservations(accountA, ids.SPRING25)).toBe(1);
  });

  it('answers a multiplier as the fraction taken off, exactly', async () => {
    const a = await signedIn(t.app, HOLDER_A);
    const half = (await a.call(paymentContracts.reserveDiscount, { body: { code: 'HalfFees' } })).json();
    expect(half.discount).toMatchObject({
      code: 'HALFFEES',
      currency_value: 0,
      multiplier: 0.5,
      is_service_fees: true,
      is_renewals: false,
    });
    const third = (await a.call(paymentContracts.reserveDiscount, { body: { code: 'third' } })).json();
    expect(third.discount).toMatchObject({ code: 'THIRD', multiplier: 0.333333, is_upgrades: true });
    const all = (await a.call(paymentContracts.reserveDiscount, { body: { code: 'everything' } })).json();
    expect(all.discount).toMatchObject({
      multiplier: 1,
      is_new_account: true,
      is_renewals: true,
      is_upgrades: true,
      is_service_fees: true,
    });
  });

  it('removes the discount on an empty code (200, discount null) and keeps nothing', async () => {
    const a = await signedIn(t.app, HOLDER_B);
    for (const body of [{ code: '' }, { code: '   ' }, {}, { code: null }, { code: ['X'] }]) {
      const res = await a.call(paymentContracts.reserveDiscount, { body: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json()).toEqual({ discount: null });
    }
    expect(
      (
        await t.database.db
          .select({ n: count() })
          .from(discountReservations)
          .where(eq(discountReservations.accountId, accountB))
      )[0].n,
    ).toBe(0);
  });

  it('silently gives no discount for an unknown, expired, not yet started or switched-off code (docs/requirements/errors.md)', async () => {
    const a = await signedIn(t.app, HOLDER_B);
    for (const code of ['NOSUCHCODE', 'oldcode', 'SOON', 'OFF', 'bad code!', 'ÜBER', 'X'.repeat(65)]) {
      const res = await a.call(paymentContracts.reserveDiscount, { body: { code } });
      expect(res.statusCode, code).toBe(200);
      expect(res.json(), code).toEqual({ discount: null });
    }
    expect(
      (
        await t.database.db
          .select({ n: count() })
          .from(discountReservations)
          .where(eq(discountReservations.accountId, accountB))
      )[0].n,
    ).toBe(0);
  });

  it('refuses a code longer than the schema allows with 422', async () => {
    const a = await signedIn(t.app, HOLDER_B);
    const res = await a.call(paymentContracts.reserveDiscount, { body: { code: 'X'.repeat(256) } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.code).toBeDefined();
  });

  it('gives no discount once the redemption cap is taken by another account, and again once that hold runs out', async () => {
    const a = await signedIn(t.app, HOLDER_A);
    const b = await signedIn(t.app, HOLDER_B);
    const held = (await b.call(paymentContracts.reserveDiscount, { body: { code: 'ONLYONE' } })).json();
    expect(held.discount.code).toBe('ONLYONE');
    expect((await a.call(paymentContracts.reserveDiscount, { body: { code: 'ONLYONE' } })).json()).toEqual({
      discount: null,
    });
    // B reserving again keeps its own place.
    expect((await b.call(paymentContracts.reserveDiscount, { body: { code: 'ONLYONE' } })).json().reservation_id).toBe(
      held.reservation_id,
    );

    // B's hold runs out: A may take the place.
    await t.database.db
      .update(discountReservations)
      .set({ expiresAt: new Date(Date.now() - MIN) })
      .where(eq(discountReservations.id, held.reservation_id));
    const mine = (await a.call(paymentContracts.reserveDiscount, { body: { code: 'ONLYONE' } })).json();
    expect(mine.discount.code).toBe('ONLYONE');
    // A redeems it: the code is used up for everyone, B included.
    expect(await redeemReservation(t.database.db, mine.reservation_id, 'test-payment-onlyone')).toBe(true);
    expect((await b.call(paymentContracts.reserveDiscount, { body: { code: 'ONLYONE' } })).json()).toEqual({
      discount: null,
    });
    expect((await a.call(paymentContracts.reserveDiscount, { body: { code: 'ONLYONE' } })).json()).toEqual({
      discount: null,
    });
  });

  it('holds a code at most until the discount itself expires', async () => {
    const a = await signedIn(t.app, HOLDER_A);
    const res = (await a.call(paymentContracts.reserveDiscount, { body: { code: 'ending' } })).json();
    const [row] = await t.database.db
      .select({ expiresAt: discounts.expiresAt })
      .from(discounts)
      .where(eq(discounts.id, ids.ENDING));
    expect(Date.parse(res.expires_at)).toBe(row.expiresAt!.getTime());
  });

  it('answers 401 to a visitor and 419 without the CSRF token', async () => {
    const visitor = await new Agent(t.app).start();
    const res = await visitor.call(paymentContracts.reserveDiscount, { body: { code: 'SPRING25' } });
    expect(res.statusCode).toBe(401);
    const a = await signedIn(t.app, HOLDER_A);
    const noToken = await a.request('POST', '/app/discount/reserve', { code: 'SPRING25' }, {}, false);
    expect(noToken.statusCode).toBe(419);
  });

  it('answers 404 to a holder naming another account, and to a user without an account', async () => {
    const a = await signedIn(t.app, HOLDER_A);
    for (const body of [
      { code: 'SPRING25', account_id: accountB },
      { code: '', account_id: accountB },
      { code: 'SPRING25', account_id: 999_999 },
    ]) {
      expect((await a.call(paymentContracts.reserveDiscount, { body: body })).statusCode, JSON.stringify(body)).toBe(
        404,
      );
    }
    expect(await openReservations(accountB, ids.SPRING25)).toBe(0);
    // Naming one's own account is fine.
    expect(
      (
        await a.call(paymentContracts.reserveDiscount, { body: { code: 'SPRING25', account_id: String(accountA) } })
      ).json().discount.code,
    ).toBe('SPRING25');

    const none = await signedIn(t.app, NO_ACCOUNT);
    expect((await none.call(paymentContracts.reserveDiscount, { body: { code: 'SPRING25' } })).statusCode).toBe(404);
  });

  it('lets an admin reserve for an account, audited; 404 for an account that does not exist', async () => {
    const admin = await signedIn(t.app, ADMIN);
    const res = await admin.call(paymentContracts.reserveDiscount, {
      body: { code: 'spring25', account_id: accountB },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().discount.code).toBe('SPRING25');
    expect(await openReservations(accountB, ids.SPRING25)).toBe(1);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'discount.reserved'), eq(auditLog.actorUserId, adminId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      accountId: accountB,
      details: { discountId: ids.SPRING25, reservationId: res.json().reservation_id },
    });
    expect(
      (await admin.call(paymentContracts.reserveDiscount, { body: { code: 'SPRING25', account_id: 999_999 } }))
        .statusCode,
    ).toBe(404);
    expect((await admin.call(paymentContracts.reserveDiscount, { body: { code: 'SPRING25' } })).statusCode).toBe(404);
  });
});

describe('reservations', () => {
  it('reserving again refreshes the one open reservation of the account', async () => {
    const db = t.database.db;
    const t0 = new Date();
    const first = await reserveDiscount(db, accountB, holderB.id, 'halffees', { now: t0 });
    const later = new Date(t0.getTime() + 20 * MIN);
    const second = await reserveDiscount(db, accountB, holderB.id, 'HALFFEES', { now: later });
    expect(first.discount && second.discount).toBeTruthy();
    if (!first.discount || !second.discount) return;
    expect(second.reservation_id).toBe(first.reservation_id);
    expect(Date.parse(second.expires_at)).toBe(later.getTime() + 30 * MIN);
    expect(await openReservations(accountB, ids.HALFFEES)).toBe(1);
  });

  it('findReservedDiscount gives the Discount (cents) only for an unexpired, unredeemed hold of that account', async () => {
    const db = t.database.db;
    const r = await reserveDiscount(db, accountA, holderA.id, 'SPRING25');
    if (!r.discount) throw new Error('expected a reservation');
    const found = await findReservedDiscount(db, accountA, ids.SPRING25);
    expect(found).toMatchObject({
      id: ids.SPRING25,
      code: 'SPRING25',
      currency_value_cents: 2500,
      multiplier: 0,
      is_renewals: true,
      reservationId: r.reservation_id,
    });
    expect(await findReservedDiscount(db, accountA, ids.THIRD + 10_000)).toBeNull();
    expect(await findReservedDiscount(db, accountA, ids.OLDCODE)).toBeNull();
    // Another account holds nothing of it.
    const c = (await createAccount(db, { name: 'Discount Boosters C' })).id;
    expect(await findReservedDiscount(db, c, ids.SPRING25)).toBeNull();
    // After the hold runs out.
    expect(await findReservedDiscount(db, accountA, ids.SPRING25, new Date(Date.now() + 31 * MIN))).toBeNull();
    // The payment step recomputes totals with it (docs/requirements/validation.md): $25 off the renewal line only.
    const summary = billingSummary(
      [
        {
          id: 1,
          balanceCents: 10_000,
          lines: [
            { type: 'renewal', valueCents: 6_000 },
            { type: 'service_fee', valueCents: 4_000 },
          ],
        },
      ],
      found,
    );
    expect(summary).toMatchObject({ subtotal: 10_000, discount_total: 2_500, total: 7_500 });
  });

  it('a discount covering everything settles the renewal, upgrade and fees at 0', async () => {
    const db = t.database.db;
    await reserveDiscount(db, accountB, holderB.id, 'EVERYTHING');
    const found = await findReservedDiscount(db, accountB, ids.EVERYTHING);
    const summary = billingSummary(
      [
        {
          id: 7,
          balanceCents: 50_000,
          lines: [
            { type: 'renewal', valueCents: 30_000 },
            { type: 'upgrade', valueCents: 15_000 },
            { type: 'service_fee', valueCents: 5_000 },
          ],
        },
      ],
      found,
    );
    expect(summary).toMatchObject({ discount_total: 50_000, total: 0 });
  });

  it('redeemReservation redeems once: the second call answers false, the hold is gone and the code is used for the account', async () => {
    const db = t.database.db;
    const r = await reserveDiscount(db, accountA, holderA.id, 'once');
    if (!r.discount) throw new Error('expected a reservation');
    expect(await redeemReservation(db, r.reservation_id, 'payment-1')).toBe(true);
    expect(await redeemReservation(db, r.reservation_id, 'payment-2')).toBe(false);
    const [row] = await db.select().from(discountReservations).where(eq(discountReservations.id, r.reservation_id));
    expect(row.paymentRef).toBe('payment-1');
    expect(row.redeemedAt).toBeInstanceOf(Date);
    expect(await findReservedDiscount(db, accountA, ids.ONCE)).toBeNull();
    expect(await redeemReservation(db, 987_654, 'payment-3')).toBe(false);
    await expect(redeemReservation(db, r.reservation_id, '')).rejects.toThrow();

    // Reserving it again gives nothing (already redeemed by this account); other accounts still may.
    expect(await reserveDiscount(db, accountA, holderA.id, 'ONCE')).toEqual({
      discount: null,
      reason: 'already_redeemed',
    });
    const a = await signedIn(t.app, HOLDER_A);
    expect((await a.call(paymentContracts.reserveDiscount, { body: { code: 'once' } })).json()).toEqual({
      discount: null,
    });
    expect((await reserveDiscount(db, accountB, holderB.id, 'ONCE')).discount?.code).toBe('ONCE');
  });

  it('of two concurrent redemptions exactly one wins', async () => {
    const db = t.database.db;
    const r = await reserveDiscount(db, accountA, holderA.id, 'RACE');
    if (!r.discount) throw new Error('expected a reservation');
    // On PGlite these run one after the other; on PostgreSQL (TEST_DATABASE_URL) they overlap.
    const results = await Promise.all([
      redeemReservation(db, r.reservation_id, 'race-1'),
      redeemReservation(db, r.reservation_id, 'race-2'),
      db.transaction((tx) => redeemReservation(tx, r.reservation_id, 'race-3')),
      db.transaction((tx) => redeemReservation(tx, r.reservation_id, 'race-4')),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const rows = await db.select().from(discountReservations).where(eq(discountReservations.discountId, ids.RACE));
    expect(rows).toHaveLength(1);
    expect(['race-1', 'race-2', 'race-3', 'race-4']).toContain(rows[0].paymentRef);
  });

  it('of two accounts reserving the last place of a capped code at once, exactly one gets it', async () => {
    const db = t.database.db;
    await addDiscount({
      code: 'LASTPLACE',
      description: 'One place',
      currencyValueCents: 100,
      isRenewals: true,
      maxRedemptions: 1,
    });
    const results = await Promise.all([
      reserveDiscount(db, accountA, holderA.id, 'LASTPLACE'),
      reserveDiscount(db, accountB, holderB.id, 'LASTPLACE'),
    ]);
    expect(results.filter((r) => r.discount !== null)).toHaveLength(1);
    expect(results.filter((r) => r.discount === null).map((r) => (r.discount === null ? r.reason : ''))).toEqual([
      'exhausted',
    ]);
  });

  it('a redemption rolled back with its payment leaves the hold open', async () => {
    const db = t.database.db;
    const r = await reserveDiscount(db, accountB, holderB.id, 'THIRD');
    if (!r.discount) throw new Error('expected a reservation');
    await expect(
      db.transaction(async (tx) => {
        expect(await redeemReservation(tx, r.reservation_id, 'failed-payment')).toBe(true);
        throw new Error('gateway declined');
      }),
    ).rejects.toThrow('gateway declined');
    expect((await findReservedDiscount(db, accountB, ids.THIRD))?.reservationId).toBe(r.reservation_id);
  });

  it('the database refuses a second open reservation and a malformed code', async () => {
    const db = t.database.db;
    await reserveDiscount(db, accountA, holderA.id, 'HALFFEES');
    await expect(
      db
        .insert(discountReservations)
        .values({ discountId: ids.HALFFEES, accountId: accountA, expiresAt: new Date(Date.now() + MIN) }),
    ).rejects.toThrow();
    await expect(db.insert(discounts).values({ code: 'lower' })).rejects.toThrow();
    await expect(
      db.insert(discounts).values({ code: 'BOTH', currencyValueCents: 100, multiplier: 0.1 }),
    ).rejects.toThrow();
    await expect(db.insert(discounts).values({ code: 'TOOMUCH', multiplier: 1.5 })).rejects.toThrow();
  });
});

describe('demo discount codes', () => {
  it('seeds RENEW25, FEES50 and WELCOME100 once, however often it runs', async () => {
    const db = t.database.db;
    await seedDemoDiscounts(db);
    await seedDemoDiscounts(db);
    const rows = await db.select().from(discounts).where(eq(discounts.code, 'RENEW25'));
    expect(rows).toHaveLength(1);
    expect(DEMO_DISCOUNTS.map((d) => d.code)).toEqual(['RENEW25', 'FEES50', 'WELCOME100']);
    const a = await signedIn(t.app, HOLDER_A);
    expect(
      (await a.call(paymentContracts.reserveDiscount, { body: { code: 'renew25' } })).json().discount,
    ).toMatchObject({
      currency_value: 25,
      multiplier: 0,
      is_renewals: true,
      is_service_fees: false,
    });
    expect(
      (await a.call(paymentContracts.reserveDiscount, { body: { code: 'fees50' } })).json().discount,
    ).toMatchObject({
      currency_value: 0,
      multiplier: 0.5,
      is_service_fees: true,
      is_renewals: false,
    });
    expect(
      (await a.call(paymentContracts.reserveDiscount, { body: { code: 'welcome100' } })).json().discount,
    ).toMatchObject({
      currency_value: 0,
      multiplier: 1,
      is_new_account: true,
      is_renewals: true,
      is_upgrades: true,
      is_service_fees: true,
    });
  });
});

describe('discount reserve rate limit (an app with 3 reserves a minute)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ config: { rateLimits: { discountPerMinute: 3 } } });
    const account = await createAccount(limited.database.db, { name: 'Limited Boosters' });
    await createUser(limited.database.db, { ...HOLDER_A, accountId: account.id });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('answers 429 after the configured number of reserves, per address', async () => {
    const a = await new Agent(limited.app, '10.9.8.7').start();
    expect((await a.login(HOLDER_A.email, HOLDER_A.password)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await a.call(paymentContracts.reserveDiscount, { body: { code: `GUESS${i}` } })).statusCode).toBe(200);
    const res = await a.call(paymentContracts.reserveDiscount, { body: { code: 'GUESS3' } });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many requests\./);

    const b = await new Agent(limited.app, '10.9.8.6').start();
    expect((await b.login(HOLDER_A.email, HOLDER_A.password)).statusCode).toBe(200);
    expect((await b.call(paymentContracts.reserveDiscount, { body: { code: 'GUESS4' } })).statusCode).toBe(200);
  });
});
