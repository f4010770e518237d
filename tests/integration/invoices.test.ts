import { eq, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceLines, invoices, levels } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { sampleAnswers } from '../../src/server/db/seed/wizard-schemas.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { paymentContracts, billingContracts } from '../../src/shared/contracts/billing.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let level: { id: number; name: string; priceCents: number; priceDiscountCents: number };
beforeAll(async () => {
  t = await createTestApp();
  [level] = await t.database.db
    .select({
      id: levels.id,
      name: levels.name,
      priceCents: levels.priceCents,
      priceDiscountCents: levels.priceDiscountCents,
    })
    .from(levels)
    .where(eq(levels.slug, 'start-up'));
});
afterAll(async () => {
  await t.close();
});

let n = 0;
/** A visitor who starts a start-up application (signed in, no account yet). */
async function applicant(): Promise<{ a: Agent; token: string }> {
  const a = await new Agent(t.app).start();
  const res = await a.call(applicationWizardContracts.start, {
    body: {
      email: `invoice.holder${++n}@example.com`,
      password: 'Booster-club-2026',
      level_id: level.id,
    },
  });
  expect(res.statusCode).toBe(201);
  a.csrfToken = res.json().csrfToken;
  return { a, token: res.json().token };
}

/** An account holder: submits the seeded start-up wizard in one go, which bills the new account. */
async function holder(name: string): Promise<{ a: Agent; invoiceId: number; accountId: number }> {
  const { a, token } = await applicant();
  const res = await a.call(applicationWizardContracts.savePage, {
    params: { token: token },
    body: {
      submit: 1,
      ...sampleAnswers('start-up', { account___name: name }),
    },
  });
  expect(res.statusCode).toBe(200);
  return { a, invoiceId: res.json().invoice_id, accountId: res.json().account_id };
}

const price = () =>
  level.priceDiscountCents > 0 && level.priceDiscountCents < level.priceCents
    ? level.priceDiscountCents
    : level.priceCents;

describe('GET /api/invoices/:id (docs/requirements/product.md tool 14, docs/requirements/entities.md "Invoice")', () => {
  it('gives the account holder their invoice with its order details, in cents', async () => {
    const { a, invoiceId, accountId } = await holder('Kenai Hockey Boosters');
    const res = await a.call(billingContracts.invoice, { params: { id: invoiceId } });
    expect(res.statusCode).toBe(200);
    const invoice = res.json();
    expect(invoice).toEqual({
      id: invoiceId,
      number: expect.stringMatching(/^GS-\d{6}$/),
      document_at: expect.any(String),
      public_notes: `${level.name}: first year of membership.`,
      value_cents: price(),
      balance_cents: price(),
      organization: expect.objectContaining({ id: accountId, name: 'Kenai Hockey Boosters' }),
      order_details: [
        { label: `${level.name} (new account)`, type: 'new_account', value_cents: level.priceCents },
        ...(price() < level.priceCents
          ? [{ label: 'Early-bird discount', type: 'new_account', value_cents: price() - level.priceCents }]
          : []),
      ],
      payments: [],
    });
    expect(Math.abs(Date.parse(invoice.document_at) - Date.now())).toBeLessThan(60_000);
    // The same invoice is in the unpaid list, which links to this page.
    const unpaid = (await a.call(billingContracts.unpaidInvoices)).json().invoices;
    expect(unpaid).toEqual([
      expect.objectContaining({ id: invoiceId, number: invoice.number, balance_cents: price() }),
    ]);
  });

  it('lists several order details in the order they were billed', async () => {
    const { a, invoiceId } = await holder('Homer Swim Boosters');
    await t.database.db
      .insert(invoiceLines)
      .values({ invoiceId, label: 'Processing fee', type: 'service_fee', valueCents: 1250 });
    await t.database.db
      .update(invoices)
      .set({ valueCents: price() + 1250, balanceCents: price() + 1250 })
      .where(eq(invoices.id, invoiceId));
    const invoice = (await a.call(billingContracts.invoice, { params: { id: invoiceId } })).json();
    expect(invoice.order_details.map((l: { type: string }) => l.type)).toEqual([
      'new_account',
      'new_account',
      'service_fee',
    ]);
    expect(invoice.order_details[2]).toEqual({ label: 'Processing fee', type: 'service_fee', value_cents: 1250 });
    expect(invoice.value_cents).toBe(price() + 1250);
  });

  it('answers 404, never 403, for another account’s invoice and for an unknown or malformed id', async () => {
    const owner = await holder('Seward Rowing Boosters');
    const other = await holder('Valdez Band Boosters');
    const theirs = await other.a.call(billingContracts.invoice, { params: { id: owner.invoiceId } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: 'The invoice could not be found.' });
    // Someone still filling in an application has no account and no invoices.
    const { a: noAccount } = await applicant();
    expect((await noAccount.call(billingContracts.invoice, { params: { id: owner.invoiceId } })).statusCode).toBe(404);

    const [{ maxId }] = await t.database.db.select({ maxId: max(invoices.id) }).from(invoices);
    const unknown = await owner.a.get(`/api/invoices/${(maxId ?? 0) + 100_000}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(theirs.json());
    for (const id of ['abc', '0', '-1', '1.5', '99999999999', '2147483648', `${owner.invoiceId}%00`]) {
      expect((await owner.a.call(billingContracts.invoice, { params: { id: id } })).statusCode, id).toBe(404);
    }
  });

  it('answers 401 to a visitor', async () => {
    const { invoiceId } = await holder('Sitka Soccer Boosters');
    const visitor = await new Agent(t.app).start();
    const res = await visitor.call(billingContracts.invoice, { params: { id: invoiceId } });
    expect(res.statusCode).toBe(401);
    expect((await visitor.call(billingContracts.unpaidInvoices)).statusCode).toBe(401);
  });

  it('lets an admin read any account’s invoice', async () => {
    const { a, invoiceId } = await holder('Nome Debate Boosters');
    await createUser(t.database.db, { email: 'staff@invoices.test', password: 'Staff-pass-123', isAdmin: true });
    const admin = await new Agent(t.app).start();
    expect((await admin.login('staff@invoices.test', 'Staff-pass-123')).statusCode).toBe(200);
    const res = await admin.call(billingContracts.invoice, { params: { id: invoiceId } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await a.call(billingContracts.invoice, { params: { id: invoiceId } })).json());
    expect((await admin.call(billingContracts.invoice, { params: { id: '2147483647' } })).statusCode).toBe(404);
  });

  it('serves the invoice page shell to signed-in users and sends visitors to sign in', async () => {
    const { a, invoiceId } = await holder('Barrow Chess Boosters');
    const page = await a.request('GET', `/app/invoices/show/${invoiceId}`, undefined, { accept: 'text/html' });
    expect(page.statusCode).toBe(200);
    const visitor = await new Agent(t.app).start();
    const res = await visitor.request('GET', `/app/invoices/show/${invoiceId}`, undefined, { accept: 'text/html' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/login?next=${encodeURIComponent(`/app/invoices/show/${invoiceId}`)}`);
  });
});

describe('GET /api/payments/screen for a user with no organization yet (docs/payments.md "No organization yet")', () => {
  it('answers an empty screen: no account, nothing to pay', async () => {
    const { a } = await applicant();
    const res = await a.call(paymentContracts.screen);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ account: null, on_behalf: false, invoices: [], gateway: null, paypal: null });
  });

  it('still refuses another account named by a user who is not staff, and a visitor', async () => {
    const { a } = await applicant();
    const other = await holder('Homer Hockey Boosters');
    expect((await a.call(paymentContracts.screen, { query: { account_id: other.accountId } })).statusCode).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(paymentContracts.screen)).statusCode).toBe(401);
  });
});
