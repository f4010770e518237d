import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, discountReservations, discounts, invoices, payments } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { PAYMENT_MESSAGES } from '../../src/server/modules/payments/pay-with-opaque-data.ts';
import { paymentContracts, billingContracts } from '../../src/shared/contracts/billing.ts';
import { createGatewayTestApp, type GatewayTestApp } from '../helpers/gateway.ts';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';

/**
 * PayPal through Authorize.Net (docs/requirements/product.md tool 14, docs/requirements/behaviour.md "Online wallet", docs/requirements/calls.md GET /app/payments/paypal/init,
 * POST /app/payments/paypal, GET /app/payments/paypal/clear) against the gateway simulator on a
 * real 127.0.0.1 port: the payer's consent is given on the simulator's PayPal page as a browser would.
 */

const HOLDER = { email: 'paypal.a@example.com', password: 'Paypal-pass-123' };
const OTHER = { email: 'paypal.b@example.com', password: 'Paypal-pass-456' };
const ADMIN = { email: 'paypal.admin@example.com', password: 'Admin-pass-789' };

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
  accountA = (await createAccount(db, { name: 'PayPal Boosters A' })).id;
  accountB = (await createAccount(db, { name: 'PayPal Boosters B' })).id;
  await createUser(db, { ...HOLDER, accountId: accountA });
  await createUser(db, { ...OTHER, accountId: accountB });
  await createUser(db, { ...ADMIN, isAdmin: true });
  holder = await signedIn(t.app, HOLDER);
});

afterAll(async () => {
  await gw?.close();
});

const addInvoice = (accountId: number, cents: number, type = 'renewal') =>
  createInvoice(t.database.db, { accountId, cents, type, prefix: 'PP' });
const balanceOf = async (id: number) =>
  (await t.database.db.select({ b: invoices.balanceCents }).from(invoices).where(eq(invoices.id, id)))[0].b;
const paymentByTx = async (txId: string) =>
  (await t.database.db.select().from(payments).where(eq(payments.gatewayTransId, txId)))[0];
const initUrl = (invoiceIds: number[], value: string, extra = '') =>
  `/app/payments/paypal/init?invoices=${invoiceIds.join(',')}&value=${value}&type=paypal&discount_id=${extra}`;

/** The payer presses Approve or Cancel on the PayPal page; returns where PayPal sends the browser back. */
async function consent(secureAcceptanceUrl: string, action: 'approve' | 'cancel'): Promise<URL> {
  const page = await fetch(secureAcceptanceUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('PayPal (simulator)');
  const token = new URL(secureAcceptanceUrl).searchParams.get('token')!;
  const res = await fetch(`${urls.endpoint.replace('/xml/v1/request.api', '')}/paypal/consent/${action}`, {
    method: 'POST',
    body: new URLSearchParams({ token }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

describe('PayPal', () => {
  it('starts, returns to the billing screen with the session, and pays once on continue', async () => {
    const invoiceId = await addInvoice(accountA, 12_500);
    const started = await holder.get(initUrl([invoiceId], '125.00'));
    expect(started.statusCode, started.body).toBe(200);
    const { messages, transactionResponse } = started.json();
    expect(messages.resultCode).toBe('Ok');
    const { secureAcceptanceUrl } = transactionResponse.secureAcceptance;
    const txId: string = transactionResponse.transId;
    expect(await paymentByTx(txId)).toMatchObject({
      method: 'paypal',
      status: 'awaiting_consent',
      amountCents: 12_500,
    });

    const back = await consent(secureAcceptanceUrl, 'approve');
    expect(back.pathname).toBe('/app/payments');
    expect(back.searchParams.get('paypal')).toBe('return');
    const token = back.searchParams.get('token')!;
    const payerId = back.searchParams.get('PayerID')!;
    expect(payerId).not.toBe('');

    // The billing screen restores the session: its invoices and value.
    const screen = (await holder.call(paymentContracts.screen)).json();
    expect(screen.paypal).toMatchObject({ tx_id: txId, invoices: [invoiceId], value: 125, discount: null });

    const body = {
      tx_id: txId,
      token,
      payer_id: payerId,
      value: '125.00',
      invoices: [invoiceId],
      discount_id: null,
      type: 'paypal',
    };
    const paid = await holder.call(paymentContracts.paypal, { body: body });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      messages: { resultCode: 'Ok' },
      message: 'This transaction has been approved.',
      redirect: '/app/finances',
    });
    expect(await balanceOf(invoiceId)).toBe(0);
    expect(await paymentByTx(txId)).toMatchObject({ status: 'paid', accountType: 'PayPal' });
    expect((await holder.call(paymentContracts.screen)).json().paypal).toBeNull();
    // The invoice page lists the payment applied to it.
    const invoice = (await holder.call(billingContracts.invoice, { params: { id: invoiceId } })).json();
    expect(invoice).toMatchObject({
      balance_cents: 0,
      payments: [{ id: paid.json().payment_id, type: 'paypal', amount_cents: 12_500 }],
    });

    // Sent again (a double click, a second tab): the same answer; the gateway is not asked again.
    const again = await holder.call(paymentContracts.paypal, { body: body });
    expect(again.statusCode).toBe(200);
    expect(again.json().messages.resultCode).toBe('Ok');
    expect(again.json().payment_id).toBe(paid.json().payment_id);
    // A second continue at the gateway would have failed ('not continuable'): the payment is still paid.
    expect(sim.listTransactions().find((x) => x.transId === txId)).toMatchObject({ status: 'captured' });
    expect(await paymentByTx(txId)).toMatchObject({ status: 'paid' });
  });

  it('cancel at PayPal, then clear: the session ends and nothing is charged', async () => {
    const invoiceId = await addInvoice(accountA, 3_000);
    const started = (await holder.get(initUrl([invoiceId], '30.00'))).json();
    const back = await consent(started.transactionResponse.secureAcceptance.secureAcceptanceUrl, 'cancel');
    expect(back.searchParams.get('paypal')).toBe('cancel');

    const cleared = await holder.call(paymentContracts.paypalClear);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ cleared: 1 });
    expect((await holder.call(paymentContracts.screen)).json().paypal).toBeNull();
    expect(await paymentByTx(started.transactionResponse.transId)).toMatchObject({ status: 'cancelled' });
    expect(await balanceOf(invoiceId)).toBe(3_000);

    // Continuing a cancelled session is refused with the recorded reason; nothing is captured.
    const late = await holder.call(paymentContracts.paypal, {
      body: {
        tx_id: started.transactionResponse.transId,
        token: 'x',
        payer_id: 'y',
        value: '30.00',
        invoices: [invoiceId],
        type: 'paypal',
      },
    });
    expect(late.statusCode).toBe(422);
    expect(late.json().messages.resultCode).toBe('Error');
  });

  it('restores and keeps the discount of the session, and redeems it on continue', async () => {
    const invoiceId = await addInvoice(accountA, 10_000, 'service_fee');
    const [discount] = await t.database.db
      .insert(discounts)
      .values({
        code: 'PAYPALHALF',
        description: 'Half off service fees',
        currencyValueCents: 0,
        multiplier: 0.5,
        isServiceFees: true,
      })
      .returning();
    const reserved = await holder.call(paymentContracts.reserveDiscount, { body: { code: 'paypalhalf' } });
    expect(reserved.json().discount.id).toBe(discount.id);

    const started = (await holder.get(initUrl([invoiceId], '50.00', String(discount.id)))).json();
    expect(started.messages.resultCode).toBe('Ok');
    const back = await consent(started.transactionResponse.secureAcceptance.secureAcceptanceUrl, 'approve');
    const session = (await holder.call(paymentContracts.screen)).json().paypal;
    expect(session).toMatchObject({
      value: 50,
      discount_id: discount.id,
      discount: { code: 'PAYPALHALF', multiplier: 0.5 },
    });

    const paid = await holder.call(paymentContracts.paypal, {
      body: {
        tx_id: session.tx_id,
        token: back.searchParams.get('token'),
        payer_id: back.searchParams.get('PayerID'),
        value: '50.00',
        invoices: [invoiceId],
        discount_id: discount.id,
        type: 'paypal',
      },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(invoiceId)).toBe(0);
    const [reservation] = await t.database.db
      .select()
      .from(discountReservations)
      .where(eq(discountReservations.discountId, discount.id));
    expect(reservation.redeemedAt).toBeInstanceOf(Date);
  });

  it("refuses a tampered value at init and at continue, and another account's session", async () => {
    const invoiceId = await addInvoice(accountA, 8_000);
    const tampered = await holder.get(initUrl([invoiceId], '1.00'));
    expect(tampered.statusCode).toBe(422);
    expect(tampered.json().errors.value).toEqual([PAYMENT_MESSAGES.amountChanged]);

    const started = (await holder.get(initUrl([invoiceId], '80.00'))).json();
    const back = await consent(started.transactionResponse.secureAcceptance.secureAcceptanceUrl, 'approve');
    const body = {
      tx_id: started.transactionResponse.transId,
      token: back.searchParams.get('token'),
      payer_id: back.searchParams.get('PayerID'),
      invoices: [invoiceId],
      type: 'paypal',
    };

    const cheaper = await holder.call(paymentContracts.paypal, { body: { ...body, value: '8.00' } });
    expect(cheaper.statusCode).toBe(422);
    expect(cheaper.json().errors.value).toEqual([PAYMENT_MESSAGES.amountChanged]);

    const other = await signedIn(t.app, OTHER);
    const stolen = await other.call(paymentContracts.paypal, { body: { ...body, value: '80.00' } });
    expect(stolen.statusCode).toBe(404);
    expect((await other.get(initUrl([invoiceId], '80.00'))).statusCode).toBe(404);

    const paid = await holder.call(paymentContracts.paypal, { body: { ...body, value: '80.00' } });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('continues once for two concurrent submits', async () => {
    const invoiceId = await addInvoice(accountA, 6_000);
    const started = (await holder.get(initUrl([invoiceId], '60.00'))).json();
    const back = await consent(started.transactionResponse.secureAcceptance.secureAcceptanceUrl, 'approve');
    const txId = started.transactionResponse.transId;
    const body = {
      tx_id: txId,
      token: back.searchParams.get('token'),
      payer_id: back.searchParams.get('PayerID'),
      value: '60.00',
      invoices: [invoiceId],
      type: 'paypal',
    };
    const [a, b] = await Promise.all([
      holder.call(paymentContracts.paypal, { body: body }),
      holder.call(paymentContracts.paypal, { body: body }),
    ]);
    // One continues; its twin answers what is recorded: paid, or still being confirmed (202).
    expect([a.statusCode, b.statusCode]).toContain(200);
    for (const res of [a, b]) expect([200, 202]).toContain(res.statusCode);
    expect(await paymentByTx(txId)).toMatchObject({ status: 'paid' });
    expect(await balanceOf(invoiceId)).toBe(0);
    const tx = sim.listTransactions().find((x) => x.transId === txId)!;
    expect(tx.status).toBe('captured');
  });

  it('a new start cancels the earlier unfinished session', async () => {
    const invoiceId = await addInvoice(accountA, 2_000);
    const first = (await holder.get(initUrl([invoiceId], '20.00'))).json();
    const second = (await holder.get(initUrl([invoiceId], '20.00'))).json();
    expect(await paymentByTx(first.transactionResponse.transId)).toMatchObject({ status: 'cancelled' });
    expect((await holder.call(paymentContracts.screen)).json().paypal.tx_id).toBe(second.transactionResponse.transId);
    await holder.call(paymentContracts.paypalClear);
  });

  it("lets an admin start PayPal for an account (audited) and return to that account's screen", async () => {
    const invoiceId = await addInvoice(accountB, 4_400);
    const admin = await signedIn(t.app, ADMIN);
    const started = await admin.get(`${initUrl([invoiceId], '44.00')}&account_id=${accountB}`);
    expect(started.statusCode, started.body).toBe(200);
    const back = await consent(started.json().transactionResponse.secureAcceptance.secureAcceptanceUrl, 'approve');
    expect(back.searchParams.get('account_id')).toBe(String(accountB));
    const screen = (await admin.call(paymentContracts.screen, { query: { account_id: accountB } })).json();
    expect(screen).toMatchObject({ account: { id: accountB, name: 'PayPal Boosters B' }, on_behalf: true });
    expect(screen.paypal.invoices).toEqual([invoiceId]);
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'payment.paypal_started_on_behalf'));
    expect(audited.some((r) => r.accountId === accountB)).toBe(true);
    await admin.call(paymentContracts.paypalClear, { query: { account_id: accountB } });
  });

  it('requires the CSRF header on the state-changing GETs, and a signed-in user', async () => {
    const invoiceId = await addInvoice(accountA, 1_000);
    const noHeader = await holder.request('GET', initUrl([invoiceId], '10.00'), undefined, {}, false);
    expect(noHeader.statusCode).toBe(419);
    expect((await holder.request('GET', '/app/payments/paypal/clear', undefined, {}, false)).statusCode).toBe(419);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.get(initUrl([invoiceId], '10.00'))).statusCode).toBe(401);
    expect((await visitor.call(paymentContracts.screen)).statusCode).toBe(401);
  });

  it('answers the tokenizer settings on the screen, never the transaction key', async () => {
    const screen = await holder.call(paymentContracts.screen);
    expect(screen.statusCode).toBe(200);
    expect(screen.json().gateway).toMatchObject({ api_login_id: expect.any(String), client_key: expect.any(String) });
    expect(screen.body).not.toContain(t.app.config.payments.transactionKey);
  });
});

describe('real Authorize.Net settings', () => {
  it('let the billing page load Accept.js and reach the Authorize.Net API (CSP), and answer them to the screen', async () => {
    const live = await createTestApp({
      config: {
        payments: {
          gateway: 'authorize-net',
          endpoint: 'https://apitest.authorize.net/xml/v1/request.api',
          acceptJsUrl: 'https://jstest.authorize.net/v1/Accept.js',
          apiLoginId: 'merchantLogin',
          transactionKey: 'never-sent-key',
          clientKey: 'publicClientKey',
          timeoutMs: 1000,
          reconcileIntervalMinutes: 0,
        },
      },
    });
    try {
      const accountId = (await createAccount(live.database.db, { name: 'Live Gateway Boosters' })).id;
      await createUser(live.database.db, { email: 'live.gateway@example.com', password: 'Live-pass-123', accountId });
      const agent = await signedIn(live.app, { email: 'live.gateway@example.com', password: 'Live-pass-123' });
      const screen = await agent.call(paymentContracts.screen);
      expect(screen.json().gateway).toEqual({
        accept_js_url: 'https://jstest.authorize.net/v1/Accept.js',
        api_login_id: 'merchantLogin',
        client_key: 'publicClientKey',
      });
      expect(screen.body).not.toContain('never-sent-key');
      const csp = String((await agent.get('/app/payments')).headers['content-security-policy']);
      expect(csp).toMatch(/script-src [^;]*https:\/\/jstest\.authorize\.net/);
      expect(csp).toMatch(/connect-src [^;]*https:\/\/apitest\.authorize\.net/);
    } finally {
      await live.close();
    }
  });
});
