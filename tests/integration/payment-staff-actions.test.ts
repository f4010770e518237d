import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  discountReservations,
  discounts,
  invoices,
  mailOutbox,
  paymentInvoices,
  paymentRefunds,
  payments,
} from '../../src/server/db/schema.ts';
import { createInvoice } from '../../src/server/db/seed/factories.ts';
import { authorizeNetGateway } from '../../src/server/providers/payments/authorize-net.ts';
import { adminPaymentContracts } from '../../src/shared/contracts/admin-payments.ts';
import { paymentContracts, billingContracts } from '../../src/shared/contracts/billing.ts';
import {
  cardPayload,
  createPaymentsFixture,
  testCard,
  tokenizeAtSimulator,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { Agent, createSecondServer, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * docs/payments.md "Staff actions": staff approve or decline a held payment, void a paid one
 * before it settles and refund a settled one in full or in part, each with a reason, audited, the
 * invoices and receipts updated and the account mailed. Driven through the routes, with the real
 * Authorize.Net client against the gateway simulator on 127.0.0.1.
 */

const HOLDER = { email: 'staffact.holder@example.com', password: 'Holder-pass-123' };
const ADMIN = { email: 'staffact.admin@example.com', password: 'Admin-pass-789' };

let gw: GatewayTestApp;
let t: TestApp;
let accountId: number;
let holder: Agent;
let admin: Agent;

beforeAll(async () => {
  ({ gw, accountId, holder, admin } = await createPaymentsFixture('Staff Action Boosters', HOLDER, ADMIN));
  t = gw.t;
});

afterAll(async () => {
  await gw?.close();
});

const db = () => t.database.db;
let cards = 0;
/** The sandbox cards in turn, so two payments never look like a duplicate to the gateway. */
const nextCard = () =>
  ['4111111111111111', '5424000000000015', '4007000000027', '370000000000002', '6011000000000012'][cards++ % 5];
const addInvoice = (cents: number) => createInvoice(db(), { accountId, cents, type: 'renewal', prefix: 'SA' });
const payCard = async (invoiceId: number, value: string, extra: Record<string, unknown> = {}) => {
  const res = await holder.call(paymentContracts.credit, {
    body: cardPayload(await tokenizeAtSimulator(gw.urls, testCard(nextCard())), [invoiceId], value, extra),
  });
  expect([200, 202], res.body).toContain(res.statusCode);
  return res.json().payment_id as number;
};
const paymentOf = async (id: number) => (await db().select().from(payments).where(eq(payments.id, id)))[0];
const balanceOf = async (id: number) =>
  (await db().select({ b: invoices.balanceCents }).from(invoices).where(eq(invoices.id, id)))[0].b;
const auditOf = async (action: string, paymentId: number) =>
  (await db().select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id))).filter(
    (a) => (a.details as { paymentId?: number }).paymentId === paymentId,
  );
const lastMail = async (kind: string) =>
  (await db().select().from(mailOutbox).where(eq(mailOutbox.kind, kind)).orderBy(desc(mailOutbox.id)))[0];

describe('approve and decline a held payment', () => {
  it('approve: the gateway captures it, the invoice is settled, the receipt shows it paid, audited and mailed', async () => {
    const invoiceId = await addInvoice(6_500);
    const paymentId = await payCard(invoiceId, '65.00', { zip: '46205' });
    expect((await paymentOf(paymentId)).status).toBe('held');

    const missing = await admin.post(`/api/admin/payments/${paymentId}/approve`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.reason).toEqual(['The reason field is required.']);

    const res = await admin.post(`/api/admin/payments/${paymentId}/approve`, {
      reason: 'Called the treasurer; the order is genuine.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'The payment was approved and applied to its invoices.',
      payment: { id: paymentId, status: 'paid', actions: ['void', 'refund'] },
    });
    expect(await balanceOf(invoiceId)).toBe(0);
    expect(gw.sim.getTransaction((await paymentOf(paymentId)).gatewayTransId!)?.status).toBe('approved');
    const receipt = (await holder.call(billingContracts.receipt, { params: { id: paymentId } })).json();
    expect(receipt.payment).toMatchObject({ status: 'paid', invoices: [{ id: invoiceId, amount_cents: 6_500 }] });
    expect((await auditOf('payment.approved', paymentId))[0]).toMatchObject({
      accountId,
      details: { reason: 'Called the treasurer; the order is genuine.' },
    });
    const mail = await lastMail('payment.receipt');
    expect(mail.textBody).toContain(`held for review, was approved`);
    expect(mail.textBody).toContain(`Payment reference: ${paymentId}\n`);
    expect(mail.toAddress).toBe(HOLDER.email);
    expect(mail.textBody).not.toContain('treasurer');

    // Decided once: a second decision is refused and nothing is sent to the gateway.
    const again = await admin.post(`/api/admin/payments/${paymentId}/decline`, { reason: 'changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'Only a payment held for review, or one the gateway has no record of, can be declined.',
    );
  });

  it('decline: nothing is charged, the invoice is open again and the discount given back', async () => {
    const [d] = await db()
      .insert(discounts)
      .values({ code: 'STAFFDECLINE', description: 'Renewal', isRenewals: true, currencyValueCents: 500 })
      .returning();
    expect(
      (await holder.call(paymentContracts.reserveDiscount, { body: { code: 'STAFFDECLINE' } })).json().discount,
    ).not.toBeNull();
    const invoiceId = await addInvoice(3_000);
    const paymentId = await payCard(invoiceId, '25.00', { zip: '46205', discount_id: d.id });
    const claimed = await db().select().from(discountReservations).where(eq(discountReservations.discountId, d.id));
    expect(claimed[0].paymentRef).toBe(`gs-pay-${paymentId}`);

    const res = await admin.post(`/api/admin/payments/${paymentId}/decline`, { reason: 'Card reported stolen.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payment.status).toBe('declined');
    expect(await balanceOf(invoiceId)).toBe(3_000);
    expect(
      (await db().select().from(discountReservations).where(eq(discountReservations.discountId, d.id)))[0],
    ).toMatchObject({ redeemedAt: null, paymentRef: null });
    expect((await lastMail('payment.declined')).textBody).toContain('Nothing was charged');
    expect(await auditOf('payment.declined', paymentId)).toHaveLength(1);
  });
});

describe('void a paid payment', () => {
  it('before settlement: nothing is charged, the invoice is owed again, audited and mailed; a second void is refused', async () => {
    const invoiceId = await addInvoice(4_800);
    const paymentId = await payCard(invoiceId, '48.00');
    expect(await balanceOf(invoiceId)).toBe(0);

    const res = await admin.post(`/api/admin/payments/${paymentId}/void`, { reason: 'Paid twice by mistake.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'The payment was voided: nothing was charged, and the invoices it paid are open again.',
      payment: { status: 'voided', actions: [] },
    });
    expect(await balanceOf(invoiceId)).toBe(4_800);
    expect(await db().select().from(paymentInvoices).where(eq(paymentInvoices.paymentId, paymentId))).toHaveLength(0);
    expect(gw.sim.getTransaction((await paymentOf(paymentId)).gatewayTransId!)?.status).toBe('voided');
    expect((await holder.call(billingContracts.receipt, { params: { id: paymentId } })).statusCode).toBe(404);
    expect((await lastMail('payment.voided')).textBody).toContain('no money was taken');
    expect(await auditOf('payment.voided', paymentId)).toHaveLength(1);
    expect((await admin.post(`/api/admin/payments/${paymentId}/void`, { reason: 'again' })).statusCode).toBe(409);
    // The invoice can be paid again.
    await payCard(invoiceId, '48.00');
    expect(await balanceOf(invoiceId)).toBe(0);
  });

  it('after settlement it is refused with a hint to refund, and nothing changes', async () => {
    const invoiceId = await addInvoice(5_500);
    const paymentId = await payCard(invoiceId, '55.00');
    gw.sim.settle();
    const res = await admin.post(`/api/admin/payments/${paymentId}/void`, { reason: 'Too late' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      'This payment has settled at the gateway and can no longer be voided. Refund it instead.',
    );
    expect((await paymentOf(paymentId)).status).toBe('paid');
    expect(await balanceOf(invoiceId)).toBe(0);
    expect(await auditOf('payment.void_refused', paymentId)).toHaveLength(1);
  });
});

describe('refund a settled payment', () => {
  it('in part, then the rest: the receipt lists the refunds, the payment ends refunded, the invoice stays settled', async () => {
    const invoiceId = await addInvoice(10_000);
    const paymentId = await payCard(invoiceId, '100.00');

    const early = await admin.call(adminPaymentContracts.refund, {
      params: { id: paymentId },
      body: { amount: '10.00', reason: 'Early' },
    });
    expect(early.statusCode).toBe(422);
    expect(early.json().errors.amount).toEqual([
      'This payment has not settled at the gateway yet. Void it instead, or refund it once it has settled.',
    ]);
    gw.sim.settle();

    const tooMuch = await admin.call(adminPaymentContracts.refund, {
      params: { id: paymentId },
      body: {
        amount: '100.01',
        reason: 'Too much',
      },
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount).toEqual([
      'The amount may not be more than $100.00, what is left of this payment.',
    ]);

    const part = await admin.call(adminPaymentContracts.refund, {
      params: { id: paymentId },
      body: {
        amount: '30.00',
        reason: 'The incorporation package was not needed.',
      },
    });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({
      message: '$30.00 was refunded.',
      payment: { status: 'paid', refunded_cents: 3_000 },
    });
    const mail = await lastMail('payment.refunded');
    expect(mail.textBody).toContain('$30.00 of your payment of $100.00');
    expect(mail.textBody).not.toContain('incorporation package');

    const rest = await admin.call(adminPaymentContracts.refund, {
      params: { id: paymentId },
      body: {
        amount: 70,
        reason: 'Group dissolved.',
      },
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().payment).toMatchObject({ status: 'refunded', refunded_cents: 10_000, actions: [] });
    const receipt = (await holder.call(billingContracts.receipt, { params: { id: paymentId } })).json();
    expect(receipt.payment).toMatchObject({ status: 'refunded', refunded_cents: 10_000 });
    expect(receipt.payment.refunds.map((r: { amount_cents: number }) => r.amount_cents)).toEqual([3_000, 7_000]);
    expect(await balanceOf(invoiceId)).toBe(0);
    const refunds = await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));
    expect(refunds.map((r) => r.status)).toEqual(['failed', 'refunded', 'refunded']);
    expect(gw.sim.getTransaction((await paymentOf(paymentId)).gatewayTransId!)?.refundedCents).toBe(10_000);
    expect(await auditOf('payment.refunded', paymentId)).toHaveLength(2);
    expect(
      (
        await admin.call(adminPaymentContracts.refund, {
          params: { id: paymentId },
          body: { amount: '1.00', reason: 'more' },
        })
      ).statusCode,
    ).toBe(409);
  });

  it('when the gateway does not answer: 202, the refund waits, and the reconciliation records it as not made', async () => {
    const invoiceId = await addInvoice(2_000);
    const paymentId = await payCard(invoiceId, '20.00');
    gw.sim.settle();
    const offline = await createSecondServer(t, {
      payments: authorizeNetGateway({
        endpoint: 'http://127.0.0.1:9/xml/v1/request.api',
        apiLoginId: 'x',
        transactionKey: 'y',
        timeoutMs: 300,
      }),
    });
    try {
      const staff = await signedIn(offline.app, ADMIN);
      const res = await staff.call(adminPaymentContracts.refund, {
        params: { id: paymentId },
        body: { amount: '5.00', reason: 'Goodwill' },
      });
      expect(res.statusCode).toBe(202);
      expect(res.json().message).toMatch(/did not answer/);
      // One refund at a time.
      expect(
        (
          await admin.call(adminPaymentContracts.refund, {
            params: { id: paymentId },
            body: { amount: '5.00', reason: 'Goodwill' },
          })
        ).statusCode,
      ).toBe(409);
      const attention = (await admin.call(adminPaymentContracts.attention)).json();
      expect(attention.payments.find((p: { id: number }) => p.id === paymentId)).toMatchObject({
        pending_refund_cents: 500,
      });
    } finally {
      await offline.close();
    }
    await db()
      .update(paymentRefunds)
      .set({ createdAt: new Date(Date.now() - 10 * 60_000) })
      .where(and(eq(paymentRefunds.paymentId, paymentId), eq(paymentRefunds.status, 'pending')));
    expect((await admin.call(adminPaymentContracts.reconcile)).json().summary.refunds).toBe(1);
    const [refund] = await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));
    expect(refund).toMatchObject({
      status: 'failed',
      gatewayMessage: 'The payment gateway has no record of this refund.',
    });
    expect((await paymentOf(paymentId)).refundedCents).toBe(0);
  });

  it('a zero payment or an unpaid one cannot be refunded or voided (409), and an unknown id is 404', async () => {
    const [row] = await db()
      .insert(payments)
      .values({
        accountId,
        method: 'card',
        status: 'declined',
        amountCents: 100,
        invoiceIds: [],
        idempotencyKey: 'sa-declined',
      })
      .returning();
    expect(
      (
        await admin.call(adminPaymentContracts.refund, {
          params: { id: row.id },
          body: { amount: '1.00', reason: 'x' },
        })
      ).statusCode,
    ).toBe(409);
    expect((await admin.post(`/api/admin/payments/${row.id}/void`, { reason: 'x' })).statusCode).toBe(409);
    expect((await admin.post('/api/admin/payments/999999/void', { reason: 'x' })).statusCode).toBe(404);
    expect((await admin.post('/api/admin/payments/abc/void', { reason: 'x' })).statusCode).toBe(404);
  });

  it('account users cannot act on payments, even their own (403), and nothing changes', async () => {
    const invoiceId = await addInvoice(1_900);
    const paymentId = await payCard(invoiceId, '19.00');
    for (const action of ['approve', 'decline', 'void', 'resolve']) {
      expect((await holder.post(`/api/admin/payments/${paymentId}/${action}`, { reason: 'mine' })).statusCode).toBe(
        403,
      );
    }
    expect(
      (
        await holder.call(adminPaymentContracts.refund, {
          params: { id: paymentId },
          body: { amount: '19.00', reason: 'mine' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await paymentOf(paymentId)).status).toBe('paid');
    expect(await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId))).toHaveLength(0);
  });
});
