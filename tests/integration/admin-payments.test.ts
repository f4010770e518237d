import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, paymentInvoices, payments } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { adminInvoicesContracts } from '../../src/shared/contracts/admin-invoices.ts';
import { adminPaymentContracts } from '../../src/shared/contracts/admin-payments.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import type {
  AdminMoneyTotals,
  AdminOpenInvoicesPage,
  AdminPaymentsPage,
} from '../../src/shared/schemas/admin-payments.ts';

/**
 * The staff's view of money (/admin/payments): GET /api/admin/payments (every account's
 * payments, newest first, by status and method; never unfinished PayPal sessions) and
 * GET /api/admin/invoices/open (open invoices, oldest first, overdue > 30 days), docs/requirements/entities.md page
 * objects of 25 with whole-site totals; admins only.
 */

const DAY = 86_400_000;
const ADMIN = { email: 'payments.admin@example.com', password: 'Admin-pass-789' };
const HOLDER = { email: 'payments.holder@example.com', password: 'Holder-pass-123' };

let t: TestApp;
let admin: Agent;
const db = () => t.database.db;
const ids: Record<string, number> = {};
const now = Date.now();
const ago = (days: number) => new Date(now - days * DAY);

type Status = 'awaiting_consent' | 'cancelled' | 'pending' | 'paid' | 'held' | 'declined' | 'failed';

/** A payment row written directly, as the payment services leave it; a paid one settles `applied`. */
async function addPayment(
  accountId: number,
  status: Status,
  opts: {
    method?: 'card' | 'bank' | 'paypal' | 'zero';
    amountCents?: number;
    discountCents?: number;
    invoiceIds?: number[];
    applied?: [number, number][];
    createdAt: Date;
  },
): Promise<number> {
  const [row] = await db()
    .insert(payments)
    .values({
      accountId,
      status,
      method: opts.method ?? 'card',
      amountCents: opts.amountCents ?? 10_000,
      discountCents: opts.discountCents ?? 0,
      invoiceIds: opts.invoiceIds ?? [],
      idempotencyKey: randomUUID(),
      accountType: opts.method === 'bank' ? 'eCheck' : opts.method === 'card' || !opts.method ? 'Visa' : null,
      accountLast4: opts.method === 'bank' ? 'XXXX4321' : opts.method === 'card' || !opts.method ? 'XXXX1111' : null,
      createdAt: opts.createdAt,
      settledAt: status === 'pending' ? null : opts.createdAt,
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

/** An unpaid invoice of `cents`, dated `daysAgo` days ago. */
async function addInvoice(accountId: number, cents: number, daysAgo: number) {
  const id = await createInvoice(db(), { accountId, cents, prefix: 'AP' });
  await db()
    .update(invoices)
    .set({ documentAt: ago(daysAgo) })
    .where(eq(invoices.id, id));
  return id;
}

const get = async <T>(path: string) => {
  const res = await admin.get(path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const paymentsPage = (q = '') => get<AdminPaymentsPage>(`/api/admin/payments${q}`);
const openPage = (q = '') => get<AdminOpenInvoicesPage>(`/api/admin/invoices/open${q}`);
const moneyTotals = () => get<AdminMoneyTotals>('/api/admin/money-totals');

beforeAll(async () => {
  t = await createTestApp();
  await createUser(db(), { ...ADMIN, isAdmin: true });
  ids.alpha = (await createAccount(db(), { name: 'Alpha Boosters' })).id;
  ids.bravo = (await createAccount(db(), { name: 'Bravo Band' })).id;
  await createUser(db(), { ...HOLDER, accountId: ids.alpha });

  ids.a1 = await addInvoice(ids.alpha, 10_000, 60); // partly paid below: 60.00 open, overdue
  ids.a2 = await addInvoice(ids.alpha, 5_000, 10);
  ids.b1 = await addInvoice(ids.bravo, 20_000, 40); // paid in full below: not open
  ids.b2 = await addInvoice(ids.bravo, 3_000, 0);

  ids.paidA = await addPayment(ids.alpha, 'paid', {
    invoiceIds: [ids.a1],
    applied: [[ids.a1, 4_000]],
    amountCents: 4_000,
    createdAt: ago(9),
  });
  ids.paidB = await addPayment(ids.bravo, 'paid', {
    method: 'bank',
    invoiceIds: [ids.b1],
    applied: [[ids.b1, 20_000]],
    amountCents: 19_000,
    discountCents: 1_000,
    createdAt: ago(8),
  });
  ids.held = await addPayment(ids.alpha, 'held', { invoiceIds: [ids.a2], amountCents: 5_000, createdAt: ago(7) });
  ids.pending = await addPayment(ids.bravo, 'pending', { invoiceIds: [ids.b2], amountCents: 3_000, createdAt: ago(6) });
  ids.declined = await addPayment(ids.alpha, 'declined', { method: 'bank', invoiceIds: [ids.a2], createdAt: ago(5) });
  // A stray invoice id of another account is never shown on this payment.
  ids.failed = await addPayment(ids.bravo, 'failed', { invoiceIds: [ids.b2, ids.a2], createdAt: ago(4) });
  ids.zero = await addPayment(ids.alpha, 'paid', {
    method: 'zero',
    amountCents: 0,
    discountCents: 500,
    createdAt: ago(3),
  });
  ids.awaiting = await addPayment(ids.alpha, 'awaiting_consent', {
    method: 'paypal',
    invoiceIds: [ids.a2],
    createdAt: ago(2),
  });
  ids.cancelled = await addPayment(ids.bravo, 'cancelled', {
    method: 'paypal',
    invoiceIds: [ids.b2],
    createdAt: ago(1),
  });
  admin = await signedIn(t.app, ADMIN);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/payments', () => {
  it('lists every account’s payments newest first, leaving out unfinished PayPal sessions; the whole-site totals come from their own route', async () => {
    const p = await paymentsPage();
    expect(p.data.map((r) => r.id)).toEqual([
      ids.zero,
      ids.failed,
      ids.declined,
      ids.pending,
      ids.held,
      ids.paidB,
      ids.paidA,
    ]);
    expect(p).toMatchObject({
      current_page: 1,
      per_page: 25,
      total: 7,
      from: 1,
      to: 7,
      last_page: 1,
      next_page_url: null,
      prev_page_url: null,
    });
    expect(p).not.toHaveProperty('totals');
    expect(await moneyTotals()).toEqual({
      open_balance_cents: 6_000 + 5_000 + 3_000,
      open_invoices: 3,
      held_payments: 1,
      pending_payments: 1,
      open_payment_alerts: 0,
    });

    const paidB = p.data.find((r) => r.id === ids.paidB)!;
    expect(paidB).toMatchObject({
      account: { id: ids.bravo, name: 'Bravo Band' },
      method: 'bank',
      status: 'paid',
      amount_cents: 19_000,
      discount_cents: 1_000,
      account_type: 'eCheck',
      account_last4: 'XXXX4321',
      invoices: [{ id: ids.b1, amount_cents: 20_000 }],
    });
    expect(p.data.find((r) => r.id === ids.held)).toMatchObject({
      account: { id: ids.alpha, name: 'Alpha Boosters' },
      invoices: [{ id: ids.a2, amount_cents: null }],
    });
    expect(p.data.find((r) => r.id === ids.failed)!.invoices.map((i) => i.id)).toEqual([ids.b2]);
    expect(p.data.find((r) => r.id === ids.zero)).toMatchObject({
      method: 'zero',
      amount_cents: 0,
      discount_cents: 500,
      invoices: [],
    });
  });

  it('filters by status and by method', async () => {
    expect((await paymentsPage('?status=paid')).data.map((r) => r.id)).toEqual([ids.zero, ids.paidB, ids.paidA]);
    expect((await paymentsPage('?status=held')).data.map((r) => r.id)).toEqual([ids.held]);
    expect((await paymentsPage('?status=pending')).data.map((r) => r.id)).toEqual([ids.pending]);
    expect((await paymentsPage('?status=declined')).data.map((r) => r.id)).toEqual([ids.declined]);
    expect((await paymentsPage('?status=failed')).data.map((r) => r.id)).toEqual([ids.failed]);
    expect((await paymentsPage('?method=bank')).data.map((r) => r.id)).toEqual([ids.declined, ids.paidB]);
    expect((await paymentsPage('?method=zero&status=paid')).data.map((r) => r.id)).toEqual([ids.zero]);
    // Unfinished PayPal sessions are never listed, not even when asking for PayPal.
    const paypal = await paymentsPage('?method=paypal');
    expect(paypal).toMatchObject({ total: 0, data: [], from: null, to: null, last_page: 1 });
    // Empty values mean any.
    expect((await paymentsPage('?status=&method=&page=')).total).toBe(7);
  });

  it('sorts by each sortable column title, both ways, ties by id', async () => {
    const order = async (q: string) => (await paymentsPage(q)).data.map((r) => r.id);
    expect(await order('?sort=created_at')).toEqual([
      ids.paidA,
      ids.paidB,
      ids.held,
      ids.pending,
      ids.declined,
      ids.failed,
      ids.zero,
    ]);
    expect(await order('?sort=amount_cents')).toEqual([
      ids.zero,
      ids.pending,
      ids.paidA,
      ids.held,
      ids.declined,
      ids.failed,
      ids.paidB,
    ]);
    expect(await order('?sort=-amount_cents')).toEqual([
      ids.paidB,
      ids.failed,
      ids.declined,
      ids.held,
      ids.paidA,
      ids.pending,
      ids.zero,
    ]);
    expect(await order('?sort=method')).toEqual([
      ids.paidB,
      ids.declined,
      ids.paidA,
      ids.held,
      ids.pending,
      ids.failed,
      ids.zero,
    ]);
    expect(await order('?sort=-status')).toEqual([
      ids.pending,
      ids.zero,
      ids.paidB,
      ids.paidA,
      ids.held,
      ids.failed,
      ids.declined,
    ]);
    expect(await order('?sort=status&method=bank')).toEqual([ids.declined, ids.paidB]);
    const bad = await admin.call(adminPaymentContracts.list, { query: { sort: 'account' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      errors: {
        sort: [
          'The sort must be one of: created_at, -created_at, amount_cents, -amount_cents, method, -method, status, -status.',
        ],
      },
    });
  });

  it('exports every payment the filters match, in the list order, as CSV with dollars and cents', async () => {
    const res = await admin.call(adminPaymentContracts.exportCsv, {
      query: { method: 'card', sort: 'amount_cents', page: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Date,Account,Account id,Method,Status,Amount,Discount,Refunded,Invoices,Gateway transaction id,Gateway code,Gateway message,Payment id',
    );
    const shown = (await paymentsPage('?method=card&sort=amount_cents')).data;
    expect(lines.slice(1).map((l) => Number(l.split(',').at(-1)))).toEqual(shown.map((r) => r.id));
    expect(shown.map((r) => r.id)).toEqual([ids.pending, ids.paidA, ids.held, ids.failed]);
    const paidA = shown[1]!;
    expect(lines[2]).toBe(
      `${paidA.created_at.slice(0, 19).replace('T', ' ')} UTC,Alpha Boosters,${ids.alpha},Card Visa XXXX1111,Paid,$40.00,$0.00,$0.00,${paidA.invoices[0]!.number},,,,${ids.paidA}`,
    );
    const bank = (await admin.call(adminPaymentContracts.exportCsv, { query: { method: 'bank', status: 'paid' } })).body
      .trimEnd()
      .split('\r\n');
    expect(bank).toHaveLength(2);
    expect(bank[1]).toContain(',Bravo Band,');
    expect(bank[1]).toContain(',Bank account eCheck XXXX4321,Paid,$190.00,$10.00,$0.00,');
    expect((await admin.call(adminPaymentContracts.exportCsv, { query: { sort: 'nope' } })).statusCode).toBe(422);
    expect((await admin.call(adminPaymentContracts.exportCsv, { query: { status: 'cancelled' } })).statusCode).toBe(
      422,
    );
  });

  it('refuses statuses and methods it does not know (422), including the unlisted PayPal ones', async () => {
    for (const q of ['?status=awaiting_consent', '?status=cancelled', '?status=bogus', '?method=cash']) {
      expect((await admin.get(`/api/admin/payments${q}`)).statusCode, q).toBe(422);
    }
    expect((await admin.call(adminPaymentContracts.list, { query: { status: 'bogus' } })).json()).toMatchObject({
      errors: { status: ['The selected status is invalid.'] },
    });
  });
});

describe('GET /api/admin/invoices/open', () => {
  it('lists invoices with a balance, oldest first, with their accounts (no totals on each page)', async () => {
    const p = await openPage();
    expect(p.data.map((r) => r.id)).toEqual([ids.a1, ids.a2, ids.b2]);
    expect(p).toMatchObject({
      current_page: 1,
      per_page: 25,
      total: 3,
      from: 1,
      to: 3,
      last_page: 1,
      next_page_url: null,
      prev_page_url: null,
    });
    expect(p.data[0]).toMatchObject({
      account: { id: ids.alpha, name: 'Alpha Boosters' },
      value_cents: 10_000,
      balance_cents: 6_000,
    });
    expect(new Date(p.data[0].document_at).getTime()).toBe(ago(60).getTime());
    expect(p).not.toHaveProperty('totals');
  });

  it('sorts by invoice, date and balance, and exports every matching open invoice as CSV', async () => {
    const order = async (q: string) => (await openPage(q)).data.map((r) => r.id);
    expect(await order('?sort=-balance_cents')).toEqual([ids.a1, ids.a2, ids.b2]);
    expect(await order('?sort=-document_at')).toEqual([ids.b2, ids.a2, ids.a1]);
    expect(await order('?sort=number')).toEqual([ids.a1, ids.a2, ids.b2]);
    expect((await admin.call(adminInvoicesContracts.open, { query: { sort: 'value_cents' } })).statusCode).toBe(422);
    const res = await admin.call(adminInvoicesContracts.openCsv, {
      query: { search: 'alpha', sort: '-balance_cents', page: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="open-invoices-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Invoice,Account,Account id,Date,Value,Balance,Invoice id');
    const shown = (await openPage('?search=alpha&sort=-balance_cents')).data;
    expect(shown.map((r) => r.id)).toEqual([ids.a1, ids.a2]);
    expect(lines.slice(1)).toEqual(
      shown.map(
        (r) =>
          `${r.number},Alpha Boosters,${ids.alpha},${r.document_at.slice(0, 10)},$${(r.value_cents / 100).toFixed(2)},$${(r.balance_cents / 100).toFixed(2)},${r.id}`,
      ),
    );
    expect(lines[1]).toContain(',$100.00,$60.00,');
    expect((await admin.call(adminInvoicesContracts.openCsv, { query: { overdue: 7 } })).statusCode).toBe(422);
  });

  it('keeps only invoices dated more than 30 days ago with overdue=30', async () => {
    const p = await openPage('?overdue=30');
    expect(p.data.map((r) => r.id)).toEqual([ids.a1]);
    // The whole-site totals never follow the filters.
    expect((await moneyTotals()).open_invoices).toBe(3);
    expect((await admin.call(adminInvoicesContracts.open, { query: { overdue: 7 } })).statusCode).toBe(422);
  });
});

describe('paging', () => {
  it('pages payments and open invoices 25 at a time with links that keep the filters', async () => {
    const charlie = (await createAccount(db(), { name: 'Charlie Chess' })).id;
    for (let i = 0; i < 27; i++) {
      const inv = await addInvoice(charlie, 100 + i, 100 + i); // older than all the others
      await addPayment(charlie, 'declined', { invoiceIds: [inv], createdAt: ago(20 + i) });
    }
    const p1 = await paymentsPage('?status=declined');
    expect(p1).toMatchObject({
      total: 28,
      from: 1,
      to: 25,
      last_page: 2,
      prev_page_url: null,
      next_page_url: '/api/admin/payments?status=declined&page=2',
    });
    expect(p1.data[0].id).toBe(ids.declined);
    const p2 = await paymentsPage('?status=declined&page=2');
    expect(p2).toMatchObject({
      current_page: 2,
      from: 26,
      to: 28,
      next_page_url: null,
      prev_page_url: '/api/admin/payments?status=declined&page=1',
    });
    expect(new Set([...p1.data, ...p2.data].map((r) => r.id)).size).toBe(28);
    expect((await paymentsPage('?status=declined&page=9')).data).toEqual([]);

    const o1 = await openPage('?overdue=30');
    expect(o1).toMatchObject({
      total: 28,
      to: 25,
      last_page: 2,
      next_page_url: '/api/admin/invoices/open?overdue=30&page=2',
    });
    expect(o1.data[0]).toMatchObject({ account: { id: charlie, name: 'Charlie Chess' }, balance_cents: 126 });
    const o2 = await openPage('?overdue=30&page=2');
    expect(o2.data.map((r) => r.id).at(-1)).toBe(ids.a1);
    expect(await moneyTotals()).toEqual({
      open_balance_cents: 14_000 + 27 * 100 + (26 * 27) / 2,
      open_invoices: 30,
      held_payments: 1,
      pending_payments: 1,
      open_payment_alerts: 0,
    });
  });
});

describe('who may read the payments', () => {
  it('answers 403 to an account holder and 401 to a visitor, for the API and the page', async () => {
    const holder = await signedIn(t.app, HOLDER);
    for (const path of [
      '/api/admin/payments',
      '/api/admin/payments/export.csv',
      '/api/admin/invoices/open',
      '/api/admin/invoices/open/export.csv',
      '/admin/payments',
    ]) {
      expect((await holder.get(path)).statusCode, path).toBe(403);
    }
    const visitor = await new Agent(t.app).start();
    for (const path of [
      '/api/admin/payments',
      '/api/admin/payments/export.csv',
      '/api/admin/invoices/open',
      '/api/admin/invoices/open/export.csv',
    ]) {
      expect((await visitor.get(path)).statusCode, path).toBe(401);
    }
    expect((await admin.get('/admin/payments')).statusCode).toBe(200);
  });
});
