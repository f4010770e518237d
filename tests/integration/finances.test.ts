import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, paymentInvoices, payments } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { billingContracts } from '../../src/shared/contracts/billing.ts';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';

/**
 * Where payments land (docs/requirements/product.md tool 14; docs/requirements/screens.md /app/finances, /admin/payments/latest/{accountId}; docs/requirements/entities.md
 * "Search results page"; docs/requirements/permissions.md): GET /api/finances and GET /api/payments/:id/receipt.
 */

const HOLDER = { email: 'finances.a@example.com', password: 'Finance-pass-123' };
const OTHER = { email: 'finances.b@example.com', password: 'Finance-pass-456' };
const ADMIN = { email: 'finances.admin@example.com', password: 'Admin-pass-789' };
const NO_ACCOUNT = { email: 'finances.none@example.com', password: 'Nobody-pass-012' };

let t: TestApp;
let accountA: number;
let accountB: number;
let holder: Agent;
let other: Agent;
let admin: Agent;
const db = () => t.database.db;

type Status = 'awaiting_consent' | 'cancelled' | 'pending' | 'paid' | 'held' | 'declined' | 'failed';

/**
 * A payment row as the payment services leave it, written directly. A paid one settles
 * `applied` (invoice id → cents) on its invoices like applyCreditToInvoices does.
 */
async function addPayment(
  accountId: number,
  status: Status,
  opts: {
    method?: 'card' | 'bank' | 'paypal' | 'zero';
    amountCents?: number;
    discountCents?: number;
    invoiceIds?: number[];
    applied?: [number, number][];
    createdAt?: Date;
    accountType?: string | null;
    accountLast4?: string | null;
  } = {},
): Promise<number> {
  const settled = status !== 'pending' && status !== 'awaiting_consent';
  const [row] = await db()
    .insert(payments)
    .values({
      accountId,
      method: opts.method ?? 'card',
      status,
      amountCents: opts.amountCents ?? 10_000,
      discountCents: opts.discountCents ?? 0,
      invoiceIds: opts.invoiceIds ?? [],
      idempotencyKey: randomUUID(),
      gatewayTransId: opts.method === 'zero' ? null : `6000${Math.floor(Math.random() * 1e6)}`,
      authCode: status === 'paid' || status === 'held' ? 'ABC123' : null,
      accountType: opts.accountType === undefined ? 'Visa' : opts.accountType,
      accountLast4: opts.accountLast4 === undefined ? 'XXXX1111' : opts.accountLast4,
      createdAt: opts.createdAt ?? new Date(),
      settledAt: settled ? (opts.createdAt ?? new Date()) : null,
    })
    .returning({ id: payments.id });
  for (const [invoiceId, cents] of opts.applied ?? []) {
    await db().insert(paymentInvoices).values({ paymentId: row.id, invoiceId, amountCents: cents });
    const [inv] = await db().select({ b: invoices.balanceCents }).from(invoices).where(eq(invoices.id, invoiceId));
    await db()
      .update(invoices)
      .set({ balanceCents: inv.b - cents })
      .where(eq(invoices.id, invoiceId));
  }
  return row.id;
}

const numberOf = async (id: number) =>
  (await db().select({ n: invoices.number }).from(invoices).where(eq(invoices.id, id)))[0].n;

let ids: Record<'paid' | 'held' | 'declined' | 'failed' | 'pending' | 'awaiting' | 'cancelled' | 'otherPaid', number>;
let inv: Record<'renewal' | 'fee' | 'open' | 'otherInvoice', number>;
const base = Date.parse('2026-03-01T12:00:00Z');
const at = (minutes: number) => new Date(base + minutes * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  accountA = (await createAccount(db(), { name: 'Finance Boosters A', ein: '123456789' })).id;
  accountB = (await createAccount(db(), { name: 'Finance Boosters B' })).id;
  await createUser(db(), { ...HOLDER, accountId: accountA });
  await createUser(db(), { ...OTHER, accountId: accountB });
  await createUser(db(), { ...ADMIN, isAdmin: true });
  await createUser(db(), NO_ACCOUNT);
  [holder, other, admin] = await Promise.all([signedIn(t.app, HOLDER), signedIn(t.app, OTHER), signedIn(t.app, ADMIN)]);

  inv = {
    renewal: await createInvoice(db(), { accountId: accountA, cents: 29_500, type: 'renewal', prefix: 'FN' }),
    fee: await createInvoice(db(), { accountId: accountA, cents: 5_000, type: 'service_fee', prefix: 'FN' }),
    open: await createInvoice(db(), { accountId: accountA, cents: 12_000, type: 'renewal', prefix: 'FN' }),
    otherInvoice: await createInvoice(db(), { accountId: accountB, cents: 7_000, prefix: 'FN' }),
  };
  ids = {
    // A paid card payment with a discount: 29,500 + 5,000 settled = 32,000 charged + 2,500 off.
    paid: await addPayment(accountA, 'paid', {
      amountCents: 32_000,
      discountCents: 2_500,
      invoiceIds: [inv.renewal, inv.fee],
      applied: [
        [inv.renewal, 29_500],
        [inv.fee, 5_000],
      ],
      createdAt: at(1),
    }),
    held: await addPayment(accountA, 'held', {
      method: 'bank',
      amountCents: 12_000,
      invoiceIds: [inv.open],
      createdAt: at(2),
      accountType: 'eCheck',
      accountLast4: 'XXXX1234',
    }),
    declined: await addPayment(accountA, 'declined', { amountCents: 12_000, invoiceIds: [inv.open], createdAt: at(3) }),
    failed: await addPayment(accountA, 'failed', { amountCents: 12_000, invoiceIds: [inv.open], createdAt: at(4) }),
    pending: await addPayment(accountA, 'pending', {
      amountCents: 12_000,
      invoiceIds: [inv.open],
      createdAt: at(5),
      accountType: null,
      accountLast4: null,
    }),
    awaiting: await addPayment(accountA, 'awaiting_consent', {
      method: 'paypal',
      amountCents: 12_000,
      invoiceIds: [inv.open],
      createdAt: at(6),
      accountType: null,
      accountLast4: null,
    }),
    cancelled: await addPayment(accountA, 'cancelled', {
      method: 'paypal',
      amountCents: 12_000,
      invoiceIds: [inv.open],
      createdAt: at(7),
      accountType: null,
      accountLast4: null,
    }),
    otherPaid: await addPayment(accountB, 'paid', {
      amountCents: 7_000,
      invoiceIds: [inv.otherInvoice],
      applied: [[inv.otherInvoice, 7_000]],
      createdAt: at(8),
    }),
  };
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/finances (docs/requirements/product.md tool 14, docs/requirements/screens.md /app/finances)', () => {
  it('gives the holder their own payments, newest first, with the invoices each one paid', async () => {
    const res = await holder.call(billingContracts.finances);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.account).toEqual({ id: accountA, name: 'Finance Boosters A' });
    expect(body.payments.data.map((p: { id: number }) => p.id)).toEqual([
      ids.pending,
      ids.failed,
      ids.declined,
      ids.held,
      ids.paid,
    ]);
    const paid = body.payments.data.find((p: { id: number }) => p.id === ids.paid);
    expect(paid).toEqual({
      id: ids.paid,
      method: 'card',
      status: 'paid',
      amount_cents: 32_000,
      discount_cents: 2_500,
      account_type: 'Visa',
      account_last4: 'XXXX1111',
      auth_code: 'ABC123',
      gateway_trans_id: expect.any(String),
      created_at: at(1).toISOString(),
      settled_at: at(1).toISOString(),
      refunded_cents: 0,
      refunds: [],
      invoices: [
        { id: inv.renewal, number: await numberOf(inv.renewal), amount_cents: 29_500 },
        { id: inv.fee, number: await numberOf(inv.fee), amount_cents: 5_000 },
      ],
    });
    // Not paid: the invoices it was meant for, with nothing applied.
    const held = body.payments.data.find((p: { id: number }) => p.id === ids.held);
    expect(held).toMatchObject({ method: 'bank', status: 'held', account_type: 'eCheck', account_last4: 'XXXX1234' });
    expect(held.invoices).toEqual([{ id: inv.open, number: await numberOf(inv.open), amount_cents: null }]);
    const pending = body.payments.data.find((p: { id: number }) => p.id === ids.pending);
    expect(pending).toMatchObject({ status: 'pending', settled_at: null, auth_code: null, account_last4: null });
  });

  it('leaves out PayPal sessions that never completed (awaiting consent, cancelled) but lists declined and failed attempts', async () => {
    const body = (await holder.call(billingContracts.finances)).json();
    const statuses = body.payments.data.map((p: { status: string }) => p.status);
    expect(statuses).not.toContain('awaiting_consent');
    expect(statuses).not.toContain('cancelled');
    expect(statuses).toEqual(expect.arrayContaining(['declined', 'failed', 'held', 'paid', 'pending']));
    expect(body.payments.total).toBe(5);
  });

  it('answers the docs/requirements/entities.md page shape, and the unpaid invoices for the "Pay now" notice', async () => {
    const body = (await holder.call(billingContracts.finances)).json();
    expect(body.payments).toMatchObject({
      current_page: 1,
      from: 1,
      to: 5,
      last_page: 1,
      per_page: 20,
      total: 5,
      next_page_url: null,
      prev_page_url: null,
    });
    expect(body.invoices).toEqual({
      open: [
        { id: inv.open, number: await numberOf(inv.open), document_at: expect.any(String), balance_cents: 12_000 },
      ],
    });
  });

  it('pages 20 at a time, newest first', async () => {
    const account = (await createAccount(db(), { name: 'Paged Boosters' })).id;
    const user = { email: 'finances.paged@example.com', password: 'Paged-pass-345' };
    await createUser(db(), { ...user, accountId: account });
    const made: number[] = [];
    for (let i = 0; i < 23; i++)
      made.push(await addPayment(account, i % 2 ? 'declined' : 'failed', { createdAt: at(100 + i) }));
    await addPayment(account, 'awaiting_consent', { method: 'paypal', createdAt: at(200) });
    const a = await signedIn(t.app, user);

    const first = (await a.call(billingContracts.finances)).json().payments;
    expect(first).toMatchObject({
      current_page: 1,
      from: 1,
      to: 20,
      last_page: 2,
      per_page: 20,
      total: 23,
      prev_page_url: null,
    });
    expect(first.next_page_url).toBe(`/api/finances?account_id=${account}&page=2`);
    expect(first.data.map((p: { id: number }) => p.id)).toEqual([...made].reverse().slice(0, 20));

    const second = (await a.get(first.next_page_url)).json().payments;
    expect(second).toMatchObject({ current_page: 2, from: 21, to: 23, last_page: 2, total: 23, next_page_url: null });
    expect(second.prev_page_url).toBe(`/api/finances?account_id=${account}&page=1`);
    expect(second.data.map((p: { id: number }) => p.id)).toEqual([...made].reverse().slice(20));

    // Past the end: an empty page; an unreadable page number is page 1.
    expect((await a.call(billingContracts.finances, { query: { page: 9 } })).json().payments).toMatchObject({
      current_page: 9,
      data: [],
      from: null,
      to: null,
      total: 23,
    });
    expect((await a.call(billingContracts.finances, { query: { page: 'abc' } })).json().payments.current_page).toBe(1);
  });

  it('answers an account with no payments with an empty page', async () => {
    const body = (await other.call(billingContracts.finances)).json();
    expect(body.account.id).toBe(accountB);
    expect(body.payments.data.map((p: { id: number }) => p.id)).toEqual([ids.otherPaid]);
    const empty = await createAccount(db(), { name: 'Quiet Boosters' });
    const user = { email: 'finances.quiet@example.com', password: 'Quiet-pass-678' };
    await createUser(db(), { ...user, accountId: empty.id });
    const quiet = (await (await signedIn(t.app, user)).get('/api/finances')).json();
    expect(quiet).toEqual({
      account: { id: empty.id, name: 'Quiet Boosters' },
      payments: {
        current_page: 1,
        data: [],
        from: null,
        to: null,
        last_page: 1,
        per_page: 20,
        total: 0,
        next_page_url: null,
        prev_page_url: null,
      },
      invoices: { open: [] },
    });
  });

  it('ignores the account_id of a holder: they only ever see their own account', async () => {
    for (const q of [`account_id=${accountB}`, 'account_id=999999', 'account_id=abc']) {
      const res = await holder.get(`/api/finances?${q}`);
      expect(res.statusCode, q).toBe(200);
      expect(res.json().account.id, q).toBe(accountA);
      expect(
        res.json().payments.data.map((p: { id: number }) => p.id),
        q,
      ).not.toContain(ids.otherPaid);
    }
  });

  it('lets an admin read any account with account_id', async () => {
    const a = (await admin.call(billingContracts.finances, { query: { account_id: accountA } })).json();
    expect(a.account).toEqual({ id: accountA, name: 'Finance Boosters A' });
    expect(a.payments.total).toBe(5);
    const b = (await admin.call(billingContracts.finances, { query: { account_id: accountB } })).json();
    expect(b.payments.data.map((p: { id: number }) => p.id)).toEqual([ids.otherPaid]);
    expect(b.payments.data[0].invoices).toEqual([
      { id: inv.otherInvoice, number: await numberOf(inv.otherInvoice), amount_cents: 7_000 },
    ]);
  });

  it('asks an admin without an account for account_id (422), and answers 404 for an unknown account', async () => {
    const missing = await admin.call(billingContracts.finances);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ account_id: ['The account id field is required.'] });
    const bad = await admin.call(billingContracts.finances, { query: { account_id: 'abc' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.account_id).toBeDefined();
    const unknown = await admin.call(billingContracts.finances, { query: { account_id: 999999 } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'The account could not be found.' });
  });

  it('answers 404 to a signed-in user without an account, and 401 to visitors', async () => {
    const none = await signedIn(t.app, NO_ACCOUNT);
    expect((await none.call(billingContracts.finances)).statusCode).toBe(404);
    const visitor = await new Agent(t.app).start();
    const res = await visitor.call(billingContracts.finances);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Please sign in first.' });
  });
});

describe('GET /api/payments/:id/receipt (docs/requirements/product.md tool 14, /app/payments/receipt/{id})', () => {
  it('gives the holder the receipt of a paid payment: the payment, the account with its EIN, the company', async () => {
    const res = await holder.call(billingContracts.receipt, { params: { id: ids.paid } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const listed = (await holder.call(billingContracts.finances))
      .json()
      .payments.data.find((p: { id: number }) => p.id === ids.paid);
    expect(body.payment).toEqual(listed);
    expect(body.account).toEqual({ id: accountA, name: 'Finance Boosters A', ein: '12-3456789' });
    expect(body.company).toEqual({ name: 'GoodStanding', phone: expect.any(String), email: expect.any(String) });
    expect(body.company.phone).not.toBe('');
  });

  it('has a receipt for a held payment too, with nothing applied yet', async () => {
    const res = await holder.call(billingContracts.receipt, { params: { id: ids.held } });
    expect(res.statusCode).toBe(200);
    expect(res.json().payment).toMatchObject({
      id: ids.held,
      status: 'held',
      invoices: [{ id: inv.open, amount_cents: null }],
    });
  });

  it('answers 404 for payments without a receipt: declined, failed, pending, awaiting consent, cancelled', async () => {
    for (const key of ['declined', 'failed', 'pending', 'awaiting', 'cancelled'] as const) {
      const res = await holder.call(billingContracts.receipt, { params: { id: ids[key] } });
      expect(res.statusCode, key).toBe(404);
      expect(res.json(), key).toEqual({ message: 'The receipt could not be found.' });
    }
  });

  it('answers 404, never 403, for another account’s receipt and for unknown or malformed ids', async () => {
    const theirs = await holder.call(billingContracts.receipt, { params: { id: ids.otherPaid } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: 'The receipt could not be found.' });
    expect((await other.call(billingContracts.receipt, { params: { id: ids.paid } })).statusCode).toBe(404);
    for (const id of ['999999', '0', '-1', 'abc', '1e3', '99999999999']) {
      expect((await holder.call(billingContracts.receipt, { params: { id: id } })).statusCode, id).toBe(404);
    }
    const none = await signedIn(t.app, NO_ACCOUNT);
    expect((await none.call(billingContracts.receipt, { params: { id: ids.paid } })).statusCode).toBe(404);
  });

  it('lets an admin read any account’s receipt, and 401s visitors', async () => {
    const res = await admin.call(billingContracts.receipt, { params: { id: ids.otherPaid } });
    expect(res.statusCode).toBe(200);
    expect(res.json().account).toEqual({ id: accountB, name: 'Finance Boosters B', ein: '' });
    expect((await admin.call(billingContracts.receipt, { params: { id: ids.declined } })).statusCode).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(billingContracts.receipt, { params: { id: ids.paid } })).statusCode).toBe(401);
  });

  it('shows a zero payment as settled by the discount alone', async () => {
    const account = accountB;
    const invoiceId = await createInvoice(db(), {
      accountId: account,
      cents: 4_000,
      type: 'service_fee',
      prefix: 'FN',
    });
    const id = await addPayment(account, 'paid', {
      method: 'zero',
      amountCents: 0,
      discountCents: 4_000,
      invoiceIds: [invoiceId],
      applied: [[invoiceId, 4_000]],
      accountType: null,
      accountLast4: null,
    });
    const body = (await other.call(billingContracts.receipt, { params: { id: id } })).json();
    expect(body.payment).toMatchObject({
      method: 'zero',
      amount_cents: 0,
      discount_cents: 4_000,
      gateway_trans_id: null,
      invoices: [{ id: invoiceId, amount_cents: 4_000 }],
    });
  });
});
