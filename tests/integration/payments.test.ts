import { createServer } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import {
  auditLog,
  discountReservations,
  discounts,
  invoices,
  paymentInvoices,
  payments,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser, createInvoice } from '../../src/server/db/seed/factories.ts';
import { simulatorUrls } from '../../src/server/local-peers/gateway-simulator.ts';
import { PAYMENT_MESSAGES } from '../../src/server/modules/payments/pay-with-opaque-data.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { BANK_DECLINED, CARD_DECLINED } from '../../src/shared/rules/payment-refusals.ts';
import {
  bankPayload,
  cardPayload,
  createGatewayTestApp,
  testBankAccount,
  testCard,
  tokenizeAtSimulator,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';
import type { AddressInfo } from 'node:net';

/**
 * Card and bank payments (docs/requirements/product.md tool 14, docs/requirements/calls.md POST /app/payments/credit|bank, docs/requirements/errors.md "Payments"; docs/requirements/platform.md
 * §5.6, §5.8) against the gateway simulator listening on a real 127.0.0.1 port, driven by the real
 * Authorize.Net client the app is given as its payments provider.
 */

const HOLDER = { email: 'payer.a@example.com', password: 'Payer-pass-123' };
const OTHER = { email: 'payer.b@example.com', password: 'Payer-pass-456' };
const ADMIN = { email: 'payments.admin@example.com', password: 'Admin-pass-789' };

let gw: GatewayTestApp;
let sim: GatewayTestApp['sim'];
let urls: GatewayTestApp['urls'];
let t: TestApp;
let accountA: number;
let accountB: number;
let holder: Agent;

beforeAll(async () => {
  gw = await createGatewayTestApp();
  ({ t, sim, urls } = gw);
  const db = t.database.db;
  accountA = (await createAccount(db, { name: 'Paying Boosters A' })).id;
  accountB = (await createAccount(db, { name: 'Paying Boosters B' })).id;
  await createUser(db, { ...HOLDER, accountId: accountA });
  await createUser(db, { ...OTHER, accountId: accountB });
  await createUser(db, { ...ADMIN, isAdmin: true });
  holder = await signedIn(t.app, HOLDER);
});

afterAll(async () => {
  await gw?.close();
});

const addInvoice = (accountId: number, cents: number, type = 'renewal') =>
  createInvoice(t.database.db, { accountId, cents, type, prefix: 'PT' });

const balanceOf = async (id: number) =>
  (await t.database.db.select({ b: invoices.balanceCents }).from(invoices).where(eq(invoices.id, id)))[0].b;
const paymentByKey = async (key: string) =>
  (await t.database.db.select().from(payments).where(eq(payments.idempotencyKey, key)))[0];
const paymentsByKey = async (key: string) =>
  t.database.db.select().from(payments).where(eq(payments.idempotencyKey, key));

const tokenize = (token: Record<string, string>) => tokenizeAtSimulator(urls, token);
const cardToken = (cardNumber?: string) => tokenize(testCard(cardNumber));
const bankToken = (accountNumber = '123456789012') => tokenize(testBankAccount(accountNumber));

describe('POST /app/payments/credit', () => {
  it('charges the server total, marks the payment paid and settles the invoice', async () => {
    const invoiceId = await addInvoice(accountA, 25_000);
    const opaque = await cardToken();
    const body = cardPayload(opaque, [invoiceId], '250.00');
    const res = await holder.call(paymentContracts.credit, { body: body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'This transaction has been approved.',
      redirect: '/app/finances',
      messages: { resultCode: 'Ok' },
    });
    expect(await balanceOf(invoiceId)).toBe(0);

    const payment = await paymentByKey(body.idempotency_key);
    expect(payment).toMatchObject({
      accountId: accountA,
      method: 'card',
      status: 'paid',
      amountCents: 25_000,
      discountCents: 0,
      accountLast4: 'XXXX1111',
      accountType: 'Visa',
    });
    expect(payment.gatewayTransId).toMatch(/^\d+$/);
    expect(payment.settledAt).toBeInstanceOf(Date);
    // No token, card data or key is stored.
    expect(JSON.stringify(payment)).not.toContain(opaque.dataValue);
    expect(JSON.stringify(payment)).not.toContain('4111111111111111');

    const applied = await t.database.db.select().from(paymentInvoices).where(eq(paymentInvoices.paymentId, payment.id));
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ invoiceId, amountCents: 25_000 });

    const charged = sim.listTransactions().find((tx) => tx.transId === payment.gatewayTransId)!;
    expect(charged).toMatchObject({ amountCents: 25_000, status: 'approved', refId: `gs-pay-${payment.id}` });

    // The same attempt sent again answers the same outcome and charges nothing more.
    const before = sim.listTransactions().length;
    const again = await holder.call(paymentContracts.credit, { body: body });
    expect(again.statusCode).toBe(200);
    expect(again.json().payment_id).toBe(payment.id);
    expect(sim.listTransactions().length).toBe(before);
  });

  it("declines (zip 46282) with the next step but not the bank's reason; the same card tried again at once is charged, not refused as a duplicate", async () => {
    const invoiceId = await addInvoice(accountA, 4_200);
    const declined = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken('5424000000000015'), [invoiceId], '42.00', { zip: '46282' }),
    });
    expect(declined.statusCode).toBe(422);
    expect(declined.json()).toMatchObject({
      message: 'Unable to complete payment.',
      errors: { payment: [CARD_DECLINED] },
      status: 'declined',
      messages: { resultCode: 'Error', message: [{ code: 'declined', text: CARD_DECLINED }] },
    });
    expect(declined.body).not.toContain('This transaction has been declined');
    expect(await balanceOf(invoiceId)).toBe(4_200);
    // Staff still see the gateway's own words.
    expect(
      (await t.database.db.select().from(payments).where(eq(payments.id, declined.json().payment_id)))[0],
    ).toMatchObject({ status: 'declined', gatewayCode: '2', gatewayMessage: 'This transaction has been declined.' });

    // Same card, amount and invoice within the gateway's 120 s window, under a new attempt key: charged,
    // because each charge sets duplicateWindow 0 (the simulator refuses it otherwise, see authorize-net.int.test.ts).
    const retry = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken('5424000000000015'), [invoiceId], '42.00'),
    });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ status: 'paid', messages: { resultCode: 'Ok' } });
    expect(await balanceOf(invoiceId)).toBe(0);
    const charges = sim.listTransactions().filter((tx) => tx.accountNumber === 'XXXX0015' && tx.amountCents === 4_200);
    expect(charges.map((tx) => tx.status)).toEqual(['declined', 'approved']);
  });

  it('answers an address mismatch (zip 46203) as any decline, never naming the zip code or the gateway code; staff keep both', async () => {
    const invoiceId = await addInvoice(accountA, 1_700);
    const avs = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [invoiceId], '17.00', { zip: '46203' }),
    });
    expect(avs.statusCode).toBe(422);
    expect(avs.json().errors.payment).toEqual([CARD_DECLINED]);
    expect(avs.json().messages.message).toEqual([{ code: 'declined', text: CARD_DECLINED }]);
    expect(avs.body).not.toMatch(/AVS|"27"|zip code did not match/i);
    expect(await balanceOf(invoiceId)).toBe(1_700);
    const [row] = await t.database.db.select().from(payments).where(eq(payments.id, avs.json().payment_id));
    expect(row).toMatchObject({ status: 'declined', gatewayCode: '27' });
    expect(row.gatewayMessage).toMatch(/AVS mismatch/);
  });

  it('holds for review (zip 46205): payment held, invoice untouched', async () => {
    const invoiceId = await addInvoice(accountA, 3_000);
    const body = cardPayload(await cardToken('4012888818888'), [invoiceId], '30.00', { zip: '46205' });
    const res = await holder.call(paymentContracts.credit, { body: body });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'held', message: PAYMENT_MESSAGES.held });
    expect(await balanceOf(invoiceId)).toBe(3_000);
    const payment = await paymentByKey(body.idempotency_key);
    expect(payment.status).toBe('held');
    expect(payment.settledAt).toBeNull();
    expect(
      await t.database.db.select().from(paymentInvoices).where(eq(paymentInvoices.paymentId, payment.id)),
    ).toHaveLength(0);
  });

  it('refuses a reused opaque token', async () => {
    const opaque = await cardToken('370000000000002');
    const first = await holder.call(paymentContracts.credit, {
      body: cardPayload(opaque, [await addInvoice(accountA, 1_000)], '10.00'),
    });
    expect(first.statusCode).toBe(200);
    const invoiceId = await addInvoice(accountA, 1_100);
    const reused = await holder.call(paymentContracts.credit, { body: cardPayload(opaque, [invoiceId], '11.00') });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({
      message: 'Unable to complete payment.',
      errors: { payment: ['The card details expired before they reached us. Enter them again and press Pay.'] },
      status: 'failed',
    });
    expect(await balanceOf(invoiceId)).toBe(1_100);
  });

  it('leaves a timed-out payment pending and never calls the gateway again for the same key', async () => {
    const invoiceId = await addInvoice(accountA, 1_313);
    const body = cardPayload(await cardToken('6011000000000012'), [invoiceId], '13.13');
    const res = await holder.call(paymentContracts.credit, { body: body });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'pending', message: PAYMENT_MESSAGES.pending });
    expect((await paymentByKey(body.idempotency_key)).status).toBe('pending');
    expect(await balanceOf(invoiceId)).toBe(1_313);

    const before = sim.listTransactions().length;
    const retry = await holder.call(paymentContracts.credit, {
      body: { ...body, ...(await cardToken('6011000000000012')) },
    });
    expect(retry.statusCode).toBe(202);
    expect(retry.json().status).toBe('pending');
    expect(sim.listTransactions().length).toBe(before);
    expect(await paymentsByKey(body.idempotency_key)).toHaveLength(1);
  });

  it('charges once for two concurrent submits with the same key', async () => {
    const invoiceId = await addInvoice(accountA, 2_750);
    const body = cardPayload(await cardToken('2223000010309703'), [invoiceId], '27.50');
    const before = sim.listTransactions().length;
    const [a, b] = await Promise.all([
      holder.call(paymentContracts.credit, { body: body }),
      holder.call(paymentContracts.credit, { body: body }),
    ]);
    expect([a.statusCode, b.statusCode]).toContain(200);
    for (const res of [a, b]) expect([200, 202]).toContain(res.statusCode);
    expect(sim.listTransactions().length).toBe(before + 1);
    expect(await paymentsByKey(body.idempotency_key)).toHaveLength(1);
    expect(await balanceOf(invoiceId)).toBe(0);
  });

  it("answers 404 for another account's invoice and 409 for one with nothing to pay, and charges nothing", async () => {
    const theirs = await addInvoice(accountB, 5_000);
    const mine = await addInvoice(accountA, 5_000);
    const before = sim.listTransactions().length;
    const res = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [mine, theirs], '100.00'),
    });
    expect(res.statusCode).toBe(404);
    await t.database.db.update(invoices).set({ balanceCents: 0 }).where(eq(invoices.id, mine));
    const paid = await holder.call(paymentContracts.credit, { body: cardPayload(await cardToken(), [mine], '50.00') });
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toBe('This invoice has already been paid.');
    expect(sim.listTransactions().length).toBe(before);
    expect(await balanceOf(theirs)).toBe(5_000);
  });

  it('never charges a tampered value: 422 "The amount changed", then the server total goes through', async () => {
    const invoiceId = await addInvoice(accountA, 9_900);
    const before = sim.listTransactions().length;
    const opaque = await cardToken('4007000000027');
    const tampered = cardPayload(opaque, [invoiceId], '1.00');
    const res = await holder.call(paymentContracts.credit, { body: tampered });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The amount changed. Please review and try again.',
      errors: { value: ['The amount changed. Please review and try again.'] },
    });
    expect(sim.listTransactions().length).toBe(before);
    expect(await paymentsByKey(tampered.idempotency_key)).toHaveLength(0);

    const ok = await holder.call(paymentContracts.credit, { body: cardPayload(opaque, [invoiceId], '99.00') });
    expect(ok.statusCode).toBe(200);
    expect(sim.listTransactions().at(-1)).toMatchObject({ amountCents: 9_900, status: 'approved' });
  });

  it('applies a reserved discount, settles the whole invoice and redeems the reservation once', async () => {
    const [d] = await t.database.db
      .insert(discounts)
      .values({ code: 'PAY25', description: '$25 off renewals', currencyValueCents: 2_500, isRenewals: true })
      .returning();
    const reserved = await holder.call(paymentContracts.reserveDiscount, { body: { code: 'pay25' } });
    expect(reserved.json().discount).toMatchObject({ id: d.id });
    const invoiceId = await addInvoice(accountA, 10_000);

    const body = cardPayload(await cardToken(), [invoiceId], '75.00', { discount_id: d.id });
    const res = await holder.call(paymentContracts.credit, { body: body });
    expect(res.statusCode, res.body).toBe(200);
    const payment = await paymentByKey(body.idempotency_key);
    expect(payment).toMatchObject({ status: 'paid', amountCents: 7_500, discountCents: 2_500, discountId: d.id });
    expect(sim.listTransactions().at(-1)).toMatchObject({ amountCents: 7_500 });
    expect(await balanceOf(invoiceId)).toBe(0);
    expect(
      (await t.database.db.select().from(paymentInvoices).where(eq(paymentInvoices.paymentId, payment.id)))[0]
        .amountCents,
    ).toBe(10_000);

    const holds = await t.database.db
      .select()
      .from(discountReservations)
      .where(and(eq(discountReservations.accountId, accountA), eq(discountReservations.discountId, d.id)));
    expect(holds).toHaveLength(1);
    expect(holds[0].redeemedAt).toBeInstanceOf(Date);
    expect(holds[0].paymentRef).toBe(`gs-pay-${payment.id}`);

    // Redeemed once: the code no longer reserves, and a second payment gets no discount.
    expect((await holder.call(paymentContracts.reserveDiscount, { body: { code: 'PAY25' } })).json()).toEqual({
      discount: null,
    });
    const next = await addInvoice(accountA, 10_000);
    const noDiscount = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [next], '75.00', { discount_id: d.id }),
    });
    expect(noDiscount.statusCode).toBe(422);
    expect(noDiscount.json().errors).toEqual({ value: [PAYMENT_MESSAGES.amountChanged] });
  });

  it('lets an admin pay for an account by account_id, audited, and sends them to the admin page', async () => {
    const admin = await signedIn(t.app, ADMIN);
    const invoiceId = await addInvoice(accountB, 1_500);
    const res = await admin.call(paymentContracts.credit, {
      body: {
        ...cardPayload(await cardToken('3088000000000017'), [invoiceId], '15.00'),
        account_id: accountB,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().redirect).toBe(`/admin/payments/latest/${accountB}`);
    expect(await balanceOf(invoiceId)).toBe(0);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.accountId, accountB), eq(auditLog.action, 'payment.submitted_on_behalf')));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0].details)).not.toMatch(/dataValue|opaque/i);

    // An account holder cannot name another account.
    const other = await addInvoice(accountB, 1_600);
    expect(
      (
        await holder.call(paymentContracts.credit, {
          body: {
            ...cardPayload(await cardToken(), [other], '16.00'),
            account_id: accountB,
          },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses a card number sent to the server, and visitors (401)', async () => {
    const invoiceId = await addInvoice(accountA, 1_700);
    const res = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [invoiceId], '17.00', { cardNumber: '4111111111111111' }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toContain('4111111111111111');
    const visitor = await new Agent(t.app).start();
    expect(
      (await visitor.call(paymentContracts.credit, { body: cardPayload(await cardToken(), [invoiceId], '17.00') }))
        .statusCode,
    ).toBe(401);
    expect(
      (await visitor.call(paymentContracts.bank, { body: bankPayload(await bankToken(), [invoiceId], '17.00') }))
        .statusCode,
    ).toBe(401);
    expect(await balanceOf(invoiceId)).toBe(1_700);
  });
});

describe('POST /app/payments/bank', () => {
  it('approves an eCheck up to $100 and declines one above', async () => {
    const small = await addInvoice(accountA, 8_000);
    const body = bankPayload(await bankToken(), [small], '80.00');
    const ok = await holder.call(paymentContracts.bank, { body: body });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe('This transaction has been approved.');
    expect(await paymentByKey(body.idempotency_key)).toMatchObject({
      method: 'bank',
      status: 'paid',
      accountType: 'eCheck',
      accountLast4: 'XXXX9012',
    });
    expect(await balanceOf(small)).toBe(0);

    const large = await addInvoice(accountA, 15_000);
    const declined = await holder.call(paymentContracts.bank, {
      body: bankPayload(await bankToken('998877665544'), [large], '150.00'),
    });
    expect(declined.statusCode).toBe(422);
    expect(declined.json()).toMatchObject({
      message: 'Unable to complete payment.',
      status: 'declined',
      errors: { payment: [BANK_DECLINED] },
    });
    expect(await balanceOf(large)).toBe(15_000);
  });

  it('refuses account and routing numbers sent to the server', async () => {
    const invoiceId = await addInvoice(accountA, 2_000);
    const res = await holder.call(paymentContracts.bank, {
      body: bankPayload(await bankToken(), [invoiceId], '20.00', {
        accountNumber: '123456789012',
        routingNumber: '121042882',
      }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toContain('123456789012');
    expect(await balanceOf(invoiceId)).toBe(2_000);
  });
});

describe('simulator mode (PAYMENT_GATEWAY=simulator, the default)', () => {
  it('serves the simulator from the app and the default provider charges through it', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const config = loadConfig({ PORT: String(port) } as NodeJS.ProcessEnv);
    expect(config.payments.gateway).toBe('simulator');
    const own = await createTestApp({ config: { payments: config.payments } });
    try {
      await own.app.listen({ host: '127.0.0.1', port });
      const db = own.database.db;
      const accountId = (await createAccount(db, { name: 'Simulator Mode Boosters' })).id;
      await createUser(db, { email: 'simmode@example.com', password: 'Simmode-pass-1', accountId });
      const agent = await new Agent(own.app).start();
      expect((await agent.login('simmode@example.com', 'Simmode-pass-1')).statusCode).toBe(200);
      const [inv] = await db
        .insert(invoices)
        .values({ accountId, number: 'SIM-1', valueCents: 4_500, balanceCents: 4_500 })
        .returning({ id: invoices.id });

      const ownUrls = simulatorUrls(`http://127.0.0.1:${port}`, '/gateway-simulator');
      const opaque = await tokenizeAtSimulator(ownUrls, testCard(), config.payments);
      const res = await agent.call(paymentContracts.credit, { body: cardPayload(opaque, [inv.id], '45.00') });
      expect(res.statusCode, res.body).toBe(200);
      expect((await db.select({ b: invoices.balanceCents }).from(invoices).where(eq(invoices.id, inv.id)))[0].b).toBe(
        0,
      );
    } finally {
      await own.close();
    }
  });
});
