import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  auditLog,
  discountReservations,
  discounts,
  invoices,
  mailOutbox,
  paymentInvoices,
  payments,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser, createInvoice } from '../../src/server/db/seed/factories.ts';
import { ZERO_PAYMENT_MESSAGES } from '../../src/server/modules/payments/settle-zero-payment.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { zeroPayload } from '../helpers/gateway.ts';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';

/**
 * POST /app/payments/zero-payment (docs/requirements/product.md tool 14, docs/requirements/behaviour.md "Payment method", docs/requirements/validation.md "Settling without payment
 * is offered only when the discount is above 0 and the total is 0", docs/requirements/calls.md): settles the invoices with
 * a reserved discount that covers the whole server total, in one transaction.
 */

// Lets one test make redeemReservation report "already redeemed" to check the rollback.
const redeemControl = vi.hoisted(() => ({ refuse: false }));
vi.mock('../../src/server/modules/discounts/redeem-reservation.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/server/modules/discounts/redeem-reservation.ts')>();
  return {
    ...actual,
    redeemReservation: (...args: Parameters<typeof actual.redeemReservation>) =>
      redeemControl.refuse ? Promise.resolve(false) : actual.redeemReservation(...args),
  };
});

const HOLDER = { email: 'zero.a@example.com', password: 'Zero-pass-123' };
const OTHER = { email: 'zero.b@example.com', password: 'Zero-pass-456' };
const ADMIN = { email: 'zero.admin@example.com', password: 'Admin-pass-789' };
const SETTLED = { message: 'Your invoices were settled with the discount.', redirect: '/app/finances' };

let t: TestApp;
let accountA: number;
let accountB: number;
let holder: Agent;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  accountA = (await createAccount(db, { name: 'Zero Boosters A' })).id;
  accountB = (await createAccount(db, { name: 'Zero Boosters B' })).id;
  await createUser(db, { ...HOLDER, accountId: accountA });
  await createUser(db, { ...OTHER, accountId: accountB });
  await createUser(db, { ...ADMIN, isAdmin: true });
  holder = await signedIn(t.app, HOLDER);
});

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  redeemControl.refuse = false;
});

const addInvoice = (accountId: number, cents: number, type = 'renewal') =>
  createInvoice(t.database.db, { accountId, cents, type, prefix: 'ZP' });

/** A renewal discount: `multiplier` (1 = 100 %) or a fixed value in cents. */
async function addDiscount(
  code: string,
  value: { multiplier: number } | { currencyValueCents: number },
): Promise<number> {
  const [d] = await t.database.db
    .insert(discounts)
    .values({ code, description: `${code} on renewals`, isRenewals: true, ...value })
    .returning();
  return d.id;
}

async function reserve(agent: Agent, code: string, extra: Record<string, unknown> = {}) {
  const res = await agent.call(paymentContracts.reserveDiscount, { body: { code, ...extra } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().discount, `reserve ${code}`).not.toBeNull();
}

const db = () => t.database.db;
const balanceOf = async (id: number) =>
  (await db().select({ b: invoices.balanceCents }).from(invoices).where(eq(invoices.id, id)))[0].b;
const paymentsByKey = async (key: string) => db().select().from(payments).where(eq(payments.idempotencyKey, key));
const appliedTo = async (invoiceId: number) =>
  db().select().from(paymentInvoices).where(eq(paymentInvoices.invoiceId, invoiceId));
const holdsOf = async (accountId: number, discountId: number) =>
  db()
    .select()
    .from(discountReservations)
    .where(and(eq(discountReservations.accountId, accountId), eq(discountReservations.discountId, discountId)));

describe('POST /app/payments/zero-payment', () => {
  it('settles the invoices with a 100 % discount: balances 0, a paid zero payment, the reservation redeemed', async () => {
    const discountId = await addDiscount('ZEROALL', { multiplier: 1 });
    await reserve(holder, 'zeroall');
    const first = await addInvoice(accountA, 12_000);
    const second = await addInvoice(accountA, 3_050);

    const body = zeroPayload([first, second], discountId, '150.50');
    const res = await holder.call(paymentContracts.zeroPayment, { body: body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ...SETTLED, messages: { resultCode: 'Ok' } });
    expect(await balanceOf(first)).toBe(0);
    expect(await balanceOf(second)).toBe(0);

    const [payment] = await paymentsByKey(body.idempotency_key);
    expect(payment).toMatchObject({
      accountId: accountA,
      method: 'zero',
      status: 'paid',
      amountCents: 0,
      discountCents: 15_050,
      discountId,
      gatewayTransId: null,
    });
    expect(payment.settledAt).toBeInstanceOf(Date);
    expect(res.json().payment_id).toBe(payment.id);
    const applied = await db().select().from(paymentInvoices).where(eq(paymentInvoices.paymentId, payment.id));
    expect(applied.map((a) => [a.invoiceId, a.amountCents]).sort()).toEqual(
      [
        [first, 12_000],
        [second, 3_050],
      ].sort(),
    );

    const holds = await holdsOf(accountA, discountId);
    expect(holds).toHaveLength(1);
    expect(holds[0].redeemedAt).toBeInstanceOf(Date);
    expect(holds[0].paymentRef).toBe(`gs-pay-${payment.id}`);
    expect(payment.discountReservationId).toBe(holds[0].id);
    // Redeemed once: the code no longer reserves for this account.
    expect((await holder.call(paymentContracts.reserveDiscount, { body: { code: 'ZEROALL' } })).json()).toEqual({
      discount: null,
    });
    // The receipt (docs/mail.md "Transactional mails"): discount, nothing charged, no transaction.
    const receipts = (await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'payment.receipt'))).filter((m) =>
      m.textBody.includes(`Payment reference: ${payment.id}\n`),
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0].textBody).toContain('Your invoices were settled with your discount code. Nothing was charged.');
    expect(receipts[0].textBody).toContain('Paid with: Discount (nothing charged)');
    expect(receipts[0].textBody).toContain('Discount: -$150.50\nAmount charged: $0.00');
    expect(receipts[0].htmlBody).toContain('Discount (nothing charged)');
  });

  it('answers a repeated idempotency key with the first outcome and settles once', async () => {
    const discountId = await addDiscount('ZEROTWICE', { multiplier: 1 });
    await reserve(holder, 'ZEROTWICE');
    const invoiceId = await addInvoice(accountA, 4_000);
    const body = zeroPayload([invoiceId], discountId, '40.00');

    const first = await holder.call(paymentContracts.zeroPayment, { body: body });
    expect(first.statusCode, first.body).toBe(200);
    const again = await holder.call(paymentContracts.zeroPayment, { body: body });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());

    expect(await paymentsByKey(body.idempotency_key)).toHaveLength(1);
    expect(await appliedTo(invoiceId)).toHaveLength(1);
    expect(await balanceOf(invoiceId)).toBe(0);

    // The key cannot be reused by another account.
    const other = await signedIn(t.app, OTHER);
    const theirs = await addInvoice(accountB, 1_000);
    const reused = await other.call(paymentContracts.zeroPayment, { body: { ...body, invoices: [theirs] } });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors).toEqual({ idempotency_key: [ZERO_PAYMENT_MESSAGES.keyUsed] });
    expect(await balanceOf(theirs)).toBe(1_000);
  });

  it('refuses a partial discount (server total above 0) with 422 and writes nothing', async () => {
    const discountId = await addDiscount('ZEROPART', { currencyValueCents: 2_500 });
    await reserve(holder, 'ZEROPART');
    const invoiceId = await addInvoice(accountA, 10_000);

    // The client claims the discount covers everything; the server recomputes $75.00 left to pay.
    const body = zeroPayload([invoiceId], discountId, '100.00');
    const res = await holder.call(paymentContracts.zeroPayment, { body: body });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: ZERO_PAYMENT_MESSAGES.notCovered,
      errors: { value: [ZERO_PAYMENT_MESSAGES.notCovered] },
    });

    expect(await paymentsByKey(body.idempotency_key)).toHaveLength(0);
    expect(await balanceOf(invoiceId)).toBe(10_000);
    expect(await appliedTo(invoiceId)).toHaveLength(0);
    const holds = await holdsOf(accountA, discountId);
    expect(holds).toHaveLength(1);
    expect(holds[0].redeemedAt).toBeNull();
  });

  it('refuses without a reservation (never reserved, or an unknown discount) with 422 and writes nothing', async () => {
    const discountId = await addDiscount('ZERONOHOLD', { multiplier: 1 });
    const invoiceId = await addInvoice(accountA, 5_000);
    for (const id of [discountId, 999_999]) {
      const body = zeroPayload([invoiceId], id, '50.00');
      const res = await holder.call(paymentContracts.zeroPayment, { body: body });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ discount_id: [ZERO_PAYMENT_MESSAGES.noDiscount] });
      expect(await paymentsByKey(body.idempotency_key)).toHaveLength(0);
    }
    // A missing discount_id or a non-zero value is refused by the schema.
    const noDiscount = await holder.call(paymentContracts.zeroPayment, {
      body: zeroPayload([invoiceId], null, '50.00'),
    });
    expect(noDiscount.statusCode).toBe(422);
    expect(noDiscount.json().errors.discount_id).toBeDefined();
    const withValue = await holder.call(paymentContracts.zeroPayment, {
      body: zeroPayload([invoiceId], discountId, '50.00', { value: '50.00' }),
    });
    expect(withValue.statusCode).toBe(422);
    expect(withValue.json().errors.value).toBeDefined();
    expect(await balanceOf(invoiceId)).toBe(5_000);
  });

  it('rolls everything back with 422 when the reservation cannot be redeemed', async () => {
    const discountId = await addDiscount('ZERORACE', { multiplier: 1 });
    await reserve(holder, 'ZERORACE');
    const invoiceId = await addInvoice(accountA, 6_000);
    redeemControl.refuse = true;
    const body = zeroPayload([invoiceId], discountId, '60.00');
    const res = await holder.call(paymentContracts.zeroPayment, { body: body });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ discount_id: [ZERO_PAYMENT_MESSAGES.alreadyRedeemed] });
    expect(await paymentsByKey(body.idempotency_key)).toHaveLength(0);
    expect(await balanceOf(invoiceId)).toBe(6_000);
    expect(await appliedTo(invoiceId)).toHaveLength(0);
    expect((await holdsOf(accountA, discountId))[0].redeemedAt).toBeNull();

    // The hold is still open: the same attempt goes through once redemption works.
    redeemControl.refuse = false;
    const retry = await holder.call(paymentContracts.zeroPayment, { body: body });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await balanceOf(invoiceId)).toBe(0);
  });

  it("answers 404 for another account's invoice, 409 for one already paid, and writes nothing", async () => {
    const discountId = await addDiscount('ZEROMINE', { multiplier: 1 });
    await reserve(holder, 'ZEROMINE');
    const mine = await addInvoice(accountA, 2_000);
    const theirs = await addInvoice(accountB, 2_000);

    const body = zeroPayload([mine, theirs], discountId, '40.00');
    expect((await holder.call(paymentContracts.zeroPayment, { body: body })).statusCode).toBe(404);
    expect(
      (await holder.call(paymentContracts.zeroPayment, { body: zeroPayload([theirs], discountId, '20.00') }))
        .statusCode,
    ).toBe(404);
    // An account holder cannot name another account either.
    expect(
      (
        await holder.call(paymentContracts.zeroPayment, {
          body: zeroPayload([theirs], discountId, '20.00', { account_id: accountB }),
        })
      ).statusCode,
    ).toBe(404);
    const paid = await addInvoice(accountA, 2_000);
    await db().update(invoices).set({ balanceCents: 0 }).where(eq(invoices.id, paid));
    const again = await holder.call(paymentContracts.zeroPayment, { body: zeroPayload([paid], discountId, '20.00') });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This invoice has already been paid.');

    expect(await paymentsByKey(body.idempotency_key)).toHaveLength(0);
    expect(await balanceOf(mine)).toBe(2_000);
    expect(await balanceOf(theirs)).toBe(2_000);
    expect((await holdsOf(accountA, discountId))[0].redeemedAt).toBeNull();
  });

  it('lets an admin settle for an account by account_id, audited, and still sends them to /app/finances', async () => {
    const admin = await signedIn(t.app, ADMIN);
    const discountId = await addDiscount('ZEROADMIN', { multiplier: 1 });
    await reserve(admin, 'ZEROADMIN', { account_id: accountB });
    const invoiceId = await addInvoice(accountB, 7_700);
    const res = await admin.call(paymentContracts.zeroPayment, {
      body: zeroPayload([invoiceId], discountId, '77.00', { account_id: accountB }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject(SETTLED);
    expect(await balanceOf(invoiceId)).toBe(0);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.accountId, accountB), eq(auditLog.action, 'payment.submitted_on_behalf')));
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ method: 'zero', amountCents: 0, discountCents: 7_700 });
  });

  it('refuses visitors (401)', async () => {
    const invoiceId = await addInvoice(accountA, 1_000);
    const visitor = await new Agent(t.app).start();
    const res = await visitor.call(paymentContracts.zeroPayment, { body: zeroPayload([invoiceId], 1, '10.00') });
    expect(res.statusCode).toBe(401);
    expect(await balanceOf(invoiceId)).toBe(1_000);
  });
});
