import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { levels } from '../../src/server/db/schema.ts';
import { DEMO_SERVICE_FEE_CENTS, seedDemo } from '../../src/server/db/seed/seed.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { billingContracts, paymentContracts } from '../../src/shared/contracts/billing.ts';
import { billingSummary, fromDiscountPayload } from '../../src/shared/rules/billing.ts';
import { createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';

/**
 * The demo seed (docs/try-it.md): the demo account holder has two unpaid invoices at
 * /app/payments, a renewal and a service fee, which the demo discount codes apply to
 * (docs/requirements/validation.md: a discount applies only to invoice lines whose type matches its flags).
 */

const DEMO = { email: 'demo.seed@example.com', password: 'Demo-seed-pass-1' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.database.db, {
    demoEmail: DEMO.email,
    demoPassword: DEMO.password,
    adminPassword: 'Admin-seed-pass-1',
  });
});
afterAll(async () => {
  await t?.close();
});

interface Unpaid {
  id: number;
  number: string;
  balance_cents: number;
  value_cents: number;
  order_details: { label: string; type: string; value_cents: number }[];
}

describe('seedDemo', () => {
  it('gives the demo holder two unpaid invoices: a renewal at the level’s early-bird price and a $50.00 service fee', async () => {
    const [maintain] = await t.database.db.select().from(levels).where(eq(levels.slug, 'maintain'));
    const holder = await signedIn(t.app, DEMO);
    const res = await holder.call(billingContracts.unpaidInvoices);
    expect(res.statusCode).toBe(200);
    const unpaid: Unpaid[] = res.json().invoices;
    expect(unpaid).toHaveLength(2);
    const renewal = unpaid.find((i) => i.order_details[0]?.type === 'renewal')!;
    const fee = unpaid.find((i) => i.order_details[0]?.type === 'service_fee')!;
    expect(renewal.order_details).toEqual([
      { label: `Annual renewal — ${maintain.name}`, type: 'renewal', value_cents: maintain.priceDiscountCents },
    ]);
    expect(renewal).toMatchObject({
      value_cents: maintain.priceDiscountCents,
      balance_cents: maintain.priceDiscountCents,
      number: expect.stringMatching(/^GS-\d{6}$/),
    });
    expect(fee.order_details).toEqual([{ label: 'State filing service fee', type: 'service_fee', value_cents: 5_000 }]);
    expect(fee).toMatchObject({
      value_cents: DEMO_SERVICE_FEE_CENTS,
      balance_cents: 5_000,
      number: expect.stringMatching(/^GS-\d{6}$/),
    });
    // Nothing paid yet: the finances page shows no payments and both invoices as open.
    const finances = (await holder.call(billingContracts.finances)).json();
    expect(finances.payments.total).toBe(0);
    expect(finances.invoices.open.map((i: { id: number }) => i.id).sort()).toEqual([renewal.id, fee.id].sort());
    // The renewal form shows the renewal invoice waiting for payment instead of offering another renewal.
    const form = (await holder.call(accountOverviewContracts.renewal)).json();
    expect(form.open_invoice).toMatchObject({ id: renewal.id, balance_cents: renewal.balance_cents });
  });

  it('lets each demo code apply to its own line: RENEW25 the renewal, FEES50 the fee, WELCOME100 both', async () => {
    const holder = await signedIn(t.app, DEMO);
    const unpaid: Unpaid[] = (await holder.call(billingContracts.unpaidInvoices)).json().invoices;
    const invoicesForSummary = unpaid.map((i) => ({
      id: i.id,
      balanceCents: i.balance_cents,
      lines: i.order_details.map((l) => ({ type: l.type, valueCents: l.value_cents })),
    }));
    const renewalCents = unpaid.find((i) => i.order_details[0]?.type === 'renewal')!.balance_cents;
    const discountOff = async (code: string) => {
      const res = await holder.call(paymentContracts.reserveDiscount, { body: { code } });
      expect(res.statusCode, code).toBe(200);
      return billingSummary(invoicesForSummary, fromDiscountPayload(res.json().discount)).discount_total;
    };
    expect(await discountOff('RENEW25')).toBe(2_500);
    expect(await discountOff('FEES50')).toBe(2_500);
    expect(await discountOff('WELCOME100')).toBe(renewalCents + 5_000);
  });
});
