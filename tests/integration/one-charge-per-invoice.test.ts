import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountReservations, discounts, invoices, payments } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { ALREADY_PROCESSING, DISCOUNT_ALREADY_USED } from '../../src/server/modules/payments/payment-steps.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import {
  bankPayload,
  cardPayload,
  createGatewayTestApp,
  testBankAccount,
  testCard,
  tokenizeAtSimulator,
  zeroPayload,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { Agent, createSecondServer, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * docs/payments.md "One charge per invoice" and "Discounts": while a payment of an invoice is in
 * flight, held for review or pending, no other payment (any method, any idempotency key, any
 * server) reaches the gateway for it; a once-per-account code is claimed before the gateway is
 * called and given back when the charge is declined. Driven through the routes, with the real
 * Authorize.Net client against the gateway simulator on 127.0.0.1.
 */

const HOLDER = { email: 'once.holder@example.com', password: 'Once-pass-123' };

let gw: GatewayTestApp;
let t: TestApp;
let accountId: number;
let holder: Agent;

beforeAll(async () => {
  gw = await createGatewayTestApp(1500);
  t = gw.t;
  accountId = (await createAccount(t.database.db, { name: 'Once Only Boosters' })).id;
  await createUser(t.database.db, { ...HOLDER, accountId });
  holder = await signedIn(t.app, HOLDER);
});

afterAll(async () => {
  await gw?.close();
});

const db = () => t.database.db;
const addInvoice = (cents: number) => createInvoice(db(), { accountId, cents, type: 'renewal', prefix: 'OC' });
const cardToken = () => tokenizeAtSimulator(gw.urls, testCard());
const bankToken = () => tokenizeAtSimulator(gw.urls, testBankAccount());
const balanceOf = async (id: number) =>
  (await db().select({ b: invoices.balanceCents }).from(invoices).where(eq(invoices.id, id)))[0].b;
const heldBy = async (id: number) =>
  (await db().select({ h: invoices.heldByPaymentId }).from(invoices).where(eq(invoices.id, id)))[0].h;
const paymentsOf = (invoiceId: number) =>
  db()
    .select()
    .from(payments)
    .where(eq(payments.invoiceIds, [invoiceId]));
/** Transactions the gateway recorded for invoice number `number`. */
const chargesFor = async (invoiceId: number) => {
  const [{ number }] = await db().select({ number: invoices.number }).from(invoices).where(eq(invoices.id, invoiceId));
  return gw.sim.listTransactions().filter((tx) => tx.invoiceNumber === number);
};

async function addDiscount(
  code: string,
  value: { multiplier: number } | { currencyValueCents: number },
): Promise<number> {
  const [d] = await db()
    .insert(discounts)
    .values({ code, description: `${code} on renewals`, isRenewals: true, ...value })
    .returning();
  return d.id;
}
async function reserve(code: string) {
  const res = await holder.call(paymentContracts.reserveDiscount, { body: { code } });
  expect(res.json().discount, `reserve ${code}`).not.toBeNull();
}
const reservationOf = async (discountId: number) =>
  (
    await db()
      .select()
      .from(discountReservations)
      .where(and(eq(discountReservations.accountId, accountId), eq(discountReservations.discountId, discountId)))
  )[0];

describe('one charge per invoice', () => {
  it('a payment held for review holds the invoice: card, bank, zero and PayPal attempts answer 409 and never reach the gateway', async () => {
    const invoiceId = await addInvoice(8_000);
    const held = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [invoiceId], '80.00', { zip: '46205' }),
    });
    expect(held.statusCode, held.body).toBe(202);
    expect(held.json().status).toBe('held');
    expect(await heldBy(invoiceId)).toBe(held.json().payment_id);
    const charges = (await chargesFor(invoiceId)).length;

    const card = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [invoiceId], '80.00'),
    });
    expect(card.statusCode).toBe(409);
    expect(card.json()).toEqual({ message: ALREADY_PROCESSING });
    const bank = await holder.call(paymentContracts.bank, {
      body: bankPayload(await bankToken(), [invoiceId], '80.00'),
    });
    expect(bank.statusCode).toBe(409);
    expect(bank.json().message).toBe('A payment for this invoice is already being processed.');
    const paypal = await holder.call(paymentContracts.paypalInit, {
      query: { invoices: invoiceId, value: '80.00', type: 'paypal', discount_id: '' },
    });
    expect(paypal.statusCode).toBe(409);
    expect(paypal.json().message).toBe(ALREADY_PROCESSING);

    expect((await chargesFor(invoiceId)).length).toBe(charges);
    expect(await balanceOf(invoiceId)).toBe(8_000);
    // Only the held payment was written.
    expect((await paymentsOf(invoiceId)).map((p) => p.status)).toEqual(['held']);

    // The billing screen shows it as being processed, so it is not offered for payment.
    const screen = (await holder.call(paymentContracts.screen)).json();
    expect(screen.invoices.find((i: { id: number }) => i.id === invoiceId)).toMatchObject({ is_processing: true });
  });

  it('a charge whose answer never came (pending) holds the invoice too', async () => {
    const invoiceId = await addInvoice(1_313);
    const lost = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [invoiceId], '13.13'),
    });
    expect(lost.statusCode).toBe(202);
    expect(lost.json().status).toBe('pending');
    const again = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [invoiceId], '13.13'),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ALREADY_PROCESSING);
    expect((await chargesFor(invoiceId)).length).toBe(1);
  });

  it('a declined charge releases the invoice and it can be paid', async () => {
    const invoiceId = await addInvoice(3_300);
    const declined = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [invoiceId], '33.00', { zip: '46282' }),
    });
    expect(declined.statusCode).toBe(422);
    expect(await heldBy(invoiceId)).toBeNull();
    const paid = await holder.call(paymentContracts.bank, {
      body: bankPayload(await bankToken(), [invoiceId], '33.00'),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(invoiceId)).toBe(0);
    expect(await heldBy(invoiceId)).toBeNull();
  });
});

describe('a discount limited per account', () => {
  it('is claimed before the gateway is called: a card payment and a zero payment sent together use it once', async () => {
    const discountId = await addDiscount('ONCEPERACCT', { currencyValueCents: 5_000 });
    await reserve('ONCEPERACCT');
    const byCard = await addInvoice(9_000);
    const byZero = await addInvoice(4_000);
    const card = cardPayload(await cardToken(), [byCard], '40.00', { discount_id: discountId });
    const zero = zeroPayload([byZero], discountId, '40.00');
    const [a, b] = await Promise.all([
      holder.call(paymentContracts.credit, { body: card }),
      holder.call(paymentContracts.zeroPayment, { body: zero }),
    ]);

    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 422]);
    // The one that came second finds the code taken: as a claim refused, a hold no longer there, or
    // a total without the discount; each a 422 with a readable message, nothing written.
    const refused = a.statusCode === 422 ? a : b;
    expect(Object.values(refused.json().errors).flat()[0]).toMatch(
      new RegExp([DISCOUNT_ALREADY_USED, 'no longer reserved', 'The amount changed'].join('|')),
    );
    // Exactly one payment carries the discount, and the gateway charged only if the card won.
    const used = (await db().select().from(payments).where(eq(payments.discountId, discountId))).filter(
      (p) => p.status === 'paid',
    );
    expect(used).toHaveLength(1);
    expect((await chargesFor(byCard)).length).toBe(a.statusCode === 200 ? 1 : 0);
    expect((await reservationOf(discountId)).paymentRef).toBe(`gs-pay-${used[0].id}`);
  });

  it('is given back when the charge is declined, and can then be used', async () => {
    const discountId = await addDiscount('BACKAGAIN', { currencyValueCents: 1_000 });
    await reserve('BACKAGAIN');
    const invoiceId = await addInvoice(6_000);
    const declined = await holder.call(paymentContracts.credit, {
      body: cardPayload(await cardToken(), [invoiceId], '50.00', { discount_id: discountId, zip: '46282' }),
    });
    expect(declined.statusCode).toBe(422);
    expect(await reservationOf(discountId)).toMatchObject({ redeemedAt: null, paymentRef: null });

    const paid = await holder.call(paymentContracts.bank, {
      body: bankPayload(await bankToken(), [invoiceId], '50.00', { discount_id: discountId }),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(invoiceId)).toBe(0);
    expect((await reservationOf(discountId)).paymentRef).toBe(`gs-pay-${paid.json().payment_id}`);
  });
});

describe('twenty concurrent payments of one invoice on two app servers', () => {
  let second: TestApp;
  beforeAll(async () => {
    second = await createSecondServer(t, { payments: t.app.providers.payments });
  });
  afterAll(async () => {
    await second?.close();
  });

  async function race(withZero: boolean) {
    const invoiceId = await addInvoice(7_500);
    let discountId: number | null = null;
    if (withZero) {
      discountId = await addDiscount(`RACE${invoiceId}`, { multiplier: 1 });
      await reserve(`RACE${invoiceId}`);
    }
    // Each server has its own signed-in browser of the same account.
    const agents = [holder, await signedIn(second.app, HOLDER)];
    const attempts = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const agent = agents[i % 2];
        const kind = withZero ? (['card', 'bank', 'zero'] as const)[i % 3] : (['card', 'bank'] as const)[i % 2];
        if (kind === 'zero')
          return {
            kind,
            send: () =>
              agent.call(paymentContracts.zeroPayment, { body: zeroPayload([invoiceId], discountId, '75.00') }),
          };
        if (kind === 'card') {
          const body = cardPayload(await cardToken(), [invoiceId], '75.00');
          return { kind, send: () => agent.call(paymentContracts.credit, { body: body }) };
        }
        const body = bankPayload(await bankToken(), [invoiceId], '75.00');
        return { kind, send: () => agent.call(paymentContracts.bank, { body: body }) };
      }),
    );
    const answers = await Promise.all(attempts.map(async (a) => ({ kind: a.kind, res: await a.send() })));

    const won = answers.filter((a) => a.res.statusCode === 200);
    expect(won, answers.map((a) => `${a.kind} ${a.res.statusCode} ${a.res.body}`).join('\n')).toHaveLength(1);
    for (const lost of answers.filter((a) => a.res.statusCode !== 200)) {
      expect(lost.res.statusCode, lost.res.body).toBe(409);
      expect([ALREADY_PROCESSING, 'This invoice has already been paid.']).toContain(lost.res.json().message);
    }
    const rows = await paymentsOf(invoiceId);
    expect(rows.filter((p) => p.status === 'paid')).toHaveLength(1);
    expect(rows).toHaveLength(1);
    expect(await balanceOf(invoiceId)).toBe(0);
    expect(await heldBy(invoiceId)).toBeNull();
    return { winner: won[0].kind, charges: (await chargesFor(invoiceId)).length };
  }

  it('card and bank: exactly one charge at the gateway and one paid invoice', async () => {
    const { charges } = await race(false);
    expect(charges).toBe(1);
  });

  it('card, bank and zero mixed: one payment wins, and the gateway is charged only if it was a card or bank', async () => {
    const { winner, charges } = await race(true);
    expect(charges).toBe(winner === 'zero' ? 0 : 1);
  });
});
