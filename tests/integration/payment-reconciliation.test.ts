import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, gatewayDiscrepancies, invoices, mailOutbox, payments } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { REVIEW_REASONS } from '../../src/server/modules/payments/payment-steps.ts';
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
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * docs/payments.md "Reconciliation": the job (run here through staff's "Check with the gateway now",
 * POST /api/admin/payments/reconcile) asks the gateway about every payment held or pending and
 * settles, declines or flags it, and finds charges no payment accounts for. The real Authorize.Net
 * client talks to the gateway simulator on 127.0.0.1; a pending payment is made old enough to be
 * asked about by moving its created_at back.
 */

const HOLDER = { email: 'recon.holder@example.com', password: 'Recon-pass-123' };
const ADMIN = { email: 'recon.admin@example.com', password: 'Admin-pass-789' };

let gw: GatewayTestApp;
let t: TestApp;
let accountId: number;
let holder: Agent;
let admin: Agent;

beforeAll(async () => {
  ({ gw, accountId, holder, admin } = await createPaymentsFixture('Reconciled Boosters', HOLDER, ADMIN));
  t = gw.t;
});

afterAll(async () => {
  await gw?.close();
});

const db = () => t.database.db;
const addInvoice = (cents: number) => createInvoice(db(), { accountId, cents, type: 'renewal', prefix: 'RC' });
const paymentOf = async (id: number) => (await db().select().from(payments).where(eq(payments.id, id)))[0];
const invoiceOf = async (id: number) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0];
const payCard = async (invoiceId: number, value: string, extra: Record<string, unknown> = {}, card?: string) =>
  holder.call(paymentContracts.credit, {
    body: cardPayload(await tokenizeAtSimulator(gw.urls, testCard(card)), [invoiceId], value, extra),
  });
/** Makes a payment look `minutes` old, past the wait before the reconciliation asks about it. */
const age = (paymentId: number, minutes = 5) =>
  db()
    .update(payments)
    .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(payments.id, paymentId));
const reconcile = async () => {
  const res = await admin.call(adminPaymentContracts.reconcile);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().summary;
};
const mailsAbout = async (kind: string) =>
  db().select().from(mailOutbox).where(eq(mailOutbox.kind, kind)).orderBy(desc(mailOutbox.id));
/** The receipts mailed for one payment (every move to paid mails one). */
const receiptsOf = async (paymentId: number) =>
  (await mailsAbout('payment.receipt')).filter((m) => m.textBody.includes(`Payment reference: ${paymentId}\n`));
const attention = async () => (await admin.call(adminPaymentContracts.attention)).json();

describe('the reconciliation', () => {
  it('records a charge whose answer never came as paid, once, and tells the account', async () => {
    const invoiceId = await addInvoice(1_313);
    const lost = await payCard(invoiceId, '13.13');
    expect(lost.json().status).toBe('pending');
    const paymentId = lost.json().payment_id;

    // Too recent: its call may still be in flight, so it is left alone.
    await reconcile();
    expect((await paymentOf(paymentId)).status).toBe('pending');

    await age(paymentId);
    const summary = await reconcile();
    expect(summary.moved).toMatchObject({ paid: 1 });
    const charged = gw.sim.listTransactions().find((tx) => tx.refId === `gs-pay-${paymentId}`)!;
    expect(await paymentOf(paymentId)).toMatchObject({
      status: 'paid',
      gatewayTransId: charged.transId,
      accountLast4: 'XXXX1111',
      reviewReason: null,
    });
    expect(await invoiceOf(invoiceId)).toMatchObject({ balanceCents: 0, heldByPaymentId: null });
    const [mail] = await receiptsOf(paymentId);
    expect(mail).toMatchObject({ toAddress: HOLDER.email, subject: expect.stringContaining('Your payment receipt') });
    expect(mail.textBody).toContain('Your payment of $13.13 was confirmed by the payment gateway');
    expect(mail.textBody).not.toMatch(/4111|dataValue/);

    // A second run changes nothing and mails nothing more.
    const again = await reconcile();
    expect(again.moved).toEqual({});
    expect(await receiptsOf(paymentId)).toHaveLength(1);
    // The holder's finances show it paid, with a receipt.
    expect((await holder.call(billingContracts.receipt, { params: { id: paymentId } })).statusCode).toBe(200);
  });

  it('settles a held payment the gateway approved, and declines one it declined, releasing the invoice', async () => {
    const approvedInvoice = await addInvoice(2_100);
    const declinedInvoice = await addInvoice(2_200);
    const a = (await payCard(approvedInvoice, '21.00', { zip: '46205' })).json();
    const b = (await payCard(declinedInvoice, '22.00', { zip: '46205' })).json();
    expect([a.status, b.status]).toEqual(['held', 'held']);
    // Someone decides in the gateway's own console.
    const console_ = authorizeNetGateway({
      endpoint: gw.urls.endpoint,
      apiLoginId: 'payTestLogin',
      transactionKey: 'payTestTransactionKey01',
    });
    await console_.updateHeldTransaction({
      transId: (await paymentOf(a.payment_id)).gatewayTransId!,
      action: 'approve',
    });
    await console_.updateHeldTransaction({
      transId: (await paymentOf(b.payment_id)).gatewayTransId!,
      action: 'decline',
    });

    const summary = await reconcile();
    expect(summary.moved).toMatchObject({ paid: 1, declined: 1 });
    expect((await paymentOf(a.payment_id)).status).toBe('paid');
    expect(await invoiceOf(approvedInvoice)).toMatchObject({ balanceCents: 0, heldByPaymentId: null });
    expect((await paymentOf(b.payment_id)).status).toBe('declined');
    expect(await invoiceOf(declinedInvoice)).toMatchObject({ balanceCents: 2_200, heldByPaymentId: null });
    expect((await receiptsOf(a.payment_id))[0].textBody).toContain('held for review, was approved');
    expect(await receiptsOf(b.payment_id)).toEqual([]);
    expect((await mailsAbout('payment.declined'))[0].textBody).toContain('Nothing was charged');
    // The declined invoice can be paid again (with another card: the gateway refuses the same
    // card, amount and invoice within two minutes as a duplicate).
    expect((await payCard(declinedInvoice, '22.00', {}, '5424000000000015')).statusCode).toBe(200);
  });

  it('puts a pending payment the gateway has no record of before staff, keeps its invoice held, and staff mark it not charged', async () => {
    const invoiceId = await addInvoice(4_400);
    // A server stopped between writing the payment and calling the gateway.
    const [row] = await db()
      .insert(payments)
      .values({
        accountId,
        method: 'card',
        status: 'pending',
        amountCents: 4_400,
        invoiceIds: [invoiceId],
        idempotencyKey: `crash-${invoiceId}`,
        createdAt: new Date(Date.now() - 10 * 60_000),
      })
      .returning();
    await db().update(invoices).set({ heldByPaymentId: row.id }).where(eq(invoices.id, invoiceId));

    const summary = await reconcile();
    expect(summary.flagged).toBe(1);
    expect(await paymentOf(row.id)).toMatchObject({ status: 'pending', reviewReason: REVIEW_REASONS.noRecord });
    expect((await invoiceOf(invoiceId)).heldByPaymentId).toBe(row.id);
    const listed = (await attention()).payments.find((p: { id: number }) => p.id === row.id);
    expect(listed).toMatchObject({ review_reason: REVIEW_REASONS.noRecord, actions: ['decline', 'resolve'] });

    const declined = await admin.post(`/api/admin/payments/${row.id}/decline`, {
      reason: 'Checked the gateway: never charged.',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({
      message: 'The payment was marked as not charged. Its invoices can be paid again.',
      payment: { status: 'failed' },
    });
    expect(await invoiceOf(invoiceId)).toMatchObject({ balanceCents: 4_400, heldByPaymentId: null });
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.marked_not_charged'), eq(auditLog.accountId, accountId)));
    expect(audit.details).toMatchObject({ paymentId: row.id, reason: 'Checked the gateway: never charged.' });
    expect((await attention()).payments.find((p: { id: number }) => p.id === row.id)).toBeUndefined();
  });

  it("finds a charge with our refId that no payment accounts for, once, and staff resolve it; someone else's charges are left out", async () => {
    const gateway = t.app.providers.payments;
    const stray = await gateway.chargeOpaqueData({
      amountCents: 9_900,
      opaqueData: await tokenizeAtSimulator(gw.urls, testCard('5424000000000015')),
      refId: 'gs-pay-987654',
      invoiceNumber: 'RC-STRAY',
    });
    const foreign = await gateway.chargeOpaqueData({
      amountCents: 1_200,
      opaqueData: await tokenizeAtSimulator(gw.urls, testCard('4007000000027')),
      refId: 'shop-42',
      invoiceNumber: 'SHOP-42',
    });
    expect([stray.status, foreign.status]).toEqual(['approved', 'approved']);

    expect((await reconcile()).discrepancies).toBe(1);
    expect((await reconcile()).discrepancies).toBe(0);
    const open = (await attention()).discrepancies;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      trans_ref_id: 'gs-pay-987654',
      amount_cents: 9_900,
      payment_id: null,
      account_last4: 'XXXX0015',
      transaction_status: 'capturedPendingSettlement',
    });

    const empty = await admin.call(adminPaymentContracts.resolveDiscrepancy, {
      params: { id: open[0].id },
      body: { resolution: '' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.resolution).toEqual(['The resolution field is required.']);
    const resolved = await admin.call(adminPaymentContracts.resolveDiscrepancy, {
      params: { id: open[0].id },
      body: {
        resolution: 'Voided in the Authorize.Net console.',
      },
    });
    expect(resolved.statusCode).toBe(200);
    expect((await attention()).discrepancies).toHaveLength(0);
    expect(
      (
        await admin.call(adminPaymentContracts.resolveDiscrepancy, {
          params: { id: open[0].id },
          body: { resolution: 'again' },
        })
      ).statusCode,
    ).toBe(409);
    const noted = await db().select().from(gatewayDiscrepancies).where(eq(gatewayDiscrepancies.transRefId, 'shop-42'));
    expect(noted[0].resolution).toBe('Not a charge of this site.');
  });

  it('is for staff only: account users get 403 and visitors 401, and nothing runs', async () => {
    for (const path of [
      '/api/admin/payments/reconcile',
      '/api/admin/payments/1/approve',
      '/api/admin/payments/1/refund',
      '/api/admin/payments/discrepancies/1/resolve',
    ]) {
      expect((await holder.post(path, { reason: 'x', amount: '1.00', resolution: 'x' })).statusCode, path).toBe(403);
      const visitor = await new Agent(t.app).start();
      expect((await visitor.post(path, { reason: 'x' })).statusCode, path).toBe(401);
    }
    expect((await holder.call(adminPaymentContracts.attention)).statusCode).toBe(403);
  });
});

describe('when the gateway cannot be reached', () => {
  let offline: TestApp;
  beforeAll(async () => {
    offline = await createTestApp({
      config: {
        payments: {
          gateway: 'authorize-net',
          endpoint: 'http://127.0.0.1:9/xml/v1/request.api',
          acceptJsUrl: 'http://127.0.0.1:9/Accept.js',
          apiLoginId: 'offlineLogin',
          transactionKey: 'offline-key-0000',
          clientKey: 'offlineClient',
          timeoutMs: 500,
          reconcileIntervalMinutes: 0,
        },
      },
    });
  });
  afterAll(async () => {
    await offline?.close();
  });

  it('leaves every payment as it was and says the list could not be read', async () => {
    const db2 = offline.database.db;
    const acct = (await createAccount(db2, { name: 'Offline Boosters' })).id;
    await createUser(db2, { ...ADMIN, isAdmin: true });
    const invoiceId = await createInvoice(db2, { accountId: acct, cents: 5_000, type: 'renewal', prefix: 'OFF' });
    const [row] = await db2
      .insert(payments)
      .values({
        accountId: acct,
        method: 'card',
        status: 'pending',
        amountCents: 5_000,
        invoiceIds: [invoiceId],
        idempotencyKey: 'offline-1',
        createdAt: new Date(Date.now() - 10 * 60_000),
      })
      .returning();
    const staff = await signedIn(offline.app, ADMIN);
    const res = await staff.call(adminPaymentContracts.reconcile);
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toMatchObject({ listUnavailable: true, flagged: 0, moved: {} });
    expect((await db2.select().from(payments).where(eq(payments.id, row.id)))[0]).toMatchObject({
      status: 'pending',
      reviewReason: null,
    });
  });
});
