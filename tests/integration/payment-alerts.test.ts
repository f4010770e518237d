import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, paymentAlerts, payments } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { adminPaymentContracts } from '../../src/shared/contracts/admin-payments.ts';
import { billingContracts, paymentContracts } from '../../src/shared/contracts/billing.ts';
import { CARD_DECLINED } from '../../src/shared/rules/payment-refusals.ts';
import {
  cardPayload,
  createGatewayTestApp,
  testCard,
  tokenizeAtSimulator,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { Agent, signedIn } from '../helpers/test-app.ts';
import type {
  AdminMoneyTotals,
  AdminPaymentsPage,
  PaymentsAttention,
} from '../../src/shared/schemas/admin-payments.ts';

/**
 * docs/payments.md "Card testing": an account holder sends card payments with fresh tokens past
 * the account's attempts per hour; the attempt past the limit is refused with 429 saying when to
 * try again and never reaches the gateway; exactly one 'possible_card_testing' alert is raised for
 * staff, shown in the attention answer, counted in the money totals and in /metrics
 * (`goodstanding_payment_alerts_open`), until a staff user marks it reviewed with a note (audited;
 * 409 the second time; 403 for an account holder, 401 for a visitor). Staff keep the gateway's code
 * and words of each decline in their lists and export; the payer's finances never carry them.
 */

const HOLDER = { email: 'card.tester@example.com', password: 'Tester-pass-123' };
const ADMIN = { email: 'alerts.admin@example.com', password: 'Admin-pass-789' };
const METRICS_TOKEN = 'alerts-metrics-token-0123456789abcdef01';
/** The address the attacker's requests come from. */
const ATTACKER_IP = '203.0.113.9';
/** The limit under test; every other stays out of reach (createTestApp). */
const ATTEMPTS_PER_HOUR = 2;

let gw: GatewayTestApp;
let holder: Agent;
let admin: Agent;
let accountId: number;
let adminId: number;
let invoiceId: number;
const db = () => gw.t.database.db;

beforeAll(async () => {
  gw = await createGatewayTestApp(1500, {
    config: { limits: { payment_attempts_per_account: ATTEMPTS_PER_HOUR }, metricsToken: METRICS_TOKEN },
  });
  accountId = (await createAccount(db(), { name: 'Quick Fingers Boosters' })).id;
  await createUser(db(), { ...HOLDER, accountId });
  adminId = (await createUser(db(), { ...ADMIN, isAdmin: true })).id;
  invoiceId = await createInvoice(db(), { accountId, cents: 4_200, prefix: 'CT' });
  holder = await new Agent(gw.t.app, ATTACKER_IP).start();
  expect((await holder.login(HOLDER.email, HOLDER.password)).statusCode).toBe(200);
  admin = await signedIn(gw.t.app, ADMIN);
});
afterAll(async () => {
  await gw?.close();
});

/** A card payment of the invoice with a token never used before, on a card the simulator declines (zip 46282). */
const declinedAttempt = async () =>
  holder.call(paymentContracts.credit, {
    body: cardPayload(await tokenizeAtSimulator(gw.urls, testCard('5424000000000015')), [invoiceId], '42.00', {
      zip: '46282',
    }),
  });

const staffGet = async <T>(url: string) => {
  const res = await admin.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const attention = () => staffGet<PaymentsAttention>('/api/admin/payments/attention');
const totals = () => staffGet<AdminMoneyTotals>('/api/admin/money-totals');
const openAlertsMetric = async () => {
  const res = await gw.t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  const line = /^goodstanding_payment_alerts_open\{kind="possible_card_testing"\} (\d+)$/m.exec(res.body);
  expect(line, 'the gauge is reported even at 0').not.toBeNull();
  return Number(line![1]);
};
const reviewAudits = () => db().select().from(auditLog).where(eq(auditLog.action, 'payment_alert.reviewed'));

describe('possible card testing', () => {
  it('refuses the attempt past the limit with 429 saying when to try again, and raises one alert for staff', async () => {
    expect(await openAlertsMetric()).toBe(0);
    expect((await attention()).alerts).toEqual([]);

    for (let i = 0; i < ATTEMPTS_PER_HOUR; i++) {
      const declined = await declinedAttempt();
      expect(declined.statusCode, declined.body).toBe(422);
      expect(declined.json().errors.payment).toEqual([CARD_DECLINED]);
    }
    const charged = gw.sim.listTransactions().length;

    const refused = await declinedAttempt();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(
      /^For your security, payments are paused after too many attempts\. Please try again after .+ UTC \(in \d+ minutes\)\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_000);
    // Refused again in the same window: still one alert, and the gateway is never asked.
    expect((await declinedAttempt()).statusCode).toBe(429);
    expect(gw.sim.listTransactions().length).toBe(charged);
    expect(await db().select().from(payments).where(eq(payments.accountId, accountId))).toHaveLength(ATTEMPTS_PER_HOUR);

    const { alerts } = await attention();
    expect(alerts).toEqual([
      {
        id: expect.any(Number),
        kind: 'possible_card_testing',
        rule: 'payment_attempts_per_account',
        account: { id: accountId, name: 'Quick Fingers Boosters' },
        ip: ATTACKER_IP,
        count: ATTEMPTS_PER_HOUR + 1,
        max_count: ATTEMPTS_PER_HOUR,
        summary: `${ATTEMPTS_PER_HOUR + 1} payment attempts in an hour from this account (limit ${ATTEMPTS_PER_HOUR})`,
        created_at: expect.any(String),
      },
    ]);
    expect(Date.now() - new Date(alerts[0]!.created_at).getTime()).toBeLessThan(60_000);
    expect((await totals()).open_payment_alerts).toBe(1);
    expect(await openAlertsMetric()).toBe(1);
    // The refusal itself is audited once.
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'limit.reached'))).toHaveLength(1);
  });

  it("keeps the gateway's code and words for staff (list, export) and never shows them to the payer", async () => {
    const list = await staffGet<AdminPaymentsPage>('/api/admin/payments?status=declined');
    expect(list.data).toHaveLength(ATTEMPTS_PER_HOUR);
    for (const row of list.data)
      expect(row).toMatchObject({
        account: { id: accountId },
        status: 'declined',
        gateway_code: '2',
        gateway_message: 'This transaction has been declined.',
      });
    const csv = (await admin.call(adminPaymentContracts.exportCsv, { query: { status: 'declined' } })).body
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe(
      'Date,Account,Account id,Method,Status,Amount,Discount,Refunded,Invoices,Gateway transaction id,Gateway code,Gateway message,Payment id',
    );
    expect(csv[1]).toMatch(/,Declined,\$42\.00,.*,\d+,2,This transaction has been declined\.,\d+$/);

    const finances = await holder.call(billingContracts.finances);
    expect(finances.statusCode).toBe(200);
    const mine = finances.json().payments.data as { id: number; status: string }[];
    expect(mine.map((p) => p.id).sort()).toEqual(list.data.map((p) => p.id).sort());
    expect(finances.body).not.toContain('gateway_code');
    expect(finances.body).not.toContain('gateway_message');
    expect(finances.body).not.toContain('This transaction has been declined');
  });

  it('lets only staff mark the alert reviewed, with a note: audited, off the list, counted 0; a second review is 409', async () => {
    const [alert] = (await attention()).alerts;
    const url = `/api/admin/payments/alerts/${alert!.id}/review`;

    expect((await holder.post(url, { note: 'It was me.' })).statusCode).toBe(403);
    const visitor = await new Agent(gw.t.app).start();
    expect((await visitor.post(url, { note: 'Nobody.' })).statusCode).toBe(401);
    const noNote = await admin.post(url, { note: '   ' });
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json()).toMatchObject({ errors: { note: ['The note field is required.'] } });
    expect(
      (await admin.call(adminPaymentContracts.reviewAlert, { params: { id: 999999 }, body: { note: 'x' } })).statusCode,
    ).toBe(404);
    expect(
      (await admin.call(adminPaymentContracts.reviewAlert, { params: { id: 'abc' }, body: { note: 'x' } })).statusCode,
    ).toBe(404);
    expect(await reviewAudits()).toEqual([]);

    const note = 'Called the treasurer: she retried her own card. Told her to wait an hour.';
    const done = await admin.post(url, { note });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ message: 'The alert was marked reviewed.' });

    const [row] = await db().select().from(paymentAlerts).where(eq(paymentAlerts.id, alert!.id));
    expect(row!.reviewedBy).toBe(adminId);
    expect(Date.now() - row!.reviewedAt!.getTime()).toBeLessThan(60_000);
    const audits = await reviewAudits();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorUserId: adminId,
      accountId,
      details: {
        alertId: alert!.id,
        kind: 'possible_card_testing',
        rule: 'payment_attempts_per_account',
        clientAddress: ATTACKER_IP,
        count: ATTEMPTS_PER_HOUR + 1,
        limit: ATTEMPTS_PER_HOUR,
        note,
      },
    });

    expect((await attention()).alerts).toEqual([]);
    expect((await totals()).open_payment_alerts).toBe(0);
    expect(await openAlertsMetric()).toBe(0);

    const again = await admin.post(url, { note: 'Looked again.' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This alert was already reviewed.' });
    expect(await reviewAudits()).toHaveLength(1);
    // The limit still holds until its window ends: reviewing lifts nothing.
    expect((await declinedAttempt()).statusCode).toBe(429);
  });

  it('lists open alerts newest first, at most 100, each in words, with "no account" when none is known', async () => {
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const other = (await createAccount(db(), { name: 'Declined Often Band' })).id;
    await db()
      .insert(paymentAlerts)
      .values([
        {
          kind: 'possible_card_testing',
          rule: 'payment_declines_per_ip',
          accountId: other,
          ip: '198.51.100.7',
          count: 5,
          maxCount: 5,
          windowKey: 'test:declines-ip',
          createdAt: at(1),
        },
        {
          kind: 'possible_card_testing',
          rule: 'payment_declines_per_account',
          accountId: null,
          ip: '198.51.100.8',
          count: 1,
          maxCount: 1,
          windowKey: 'test:declines-account',
          createdAt: at(2),
        },
        {
          kind: 'possible_card_testing',
          rule: 'payment_attempts_per_ip',
          accountId: other,
          ip: '',
          count: 21,
          maxCount: 20,
          windowKey: 'test:attempts-ip',
          createdAt: at(3),
        },
        ...Array.from({ length: 100 }, (_, i) => ({
          kind: 'possible_card_testing',
          rule: 'payment_attempts_per_account',
          accountId: other,
          ip: '198.51.100.9',
          count: 11,
          maxCount: 10,
          windowKey: `test:older-${i}`,
          createdAt: at(60 + i),
        })),
      ]);
    const { alerts } = await attention();
    expect(alerts).toHaveLength(100);
    expect(alerts.slice(0, 4).map((a) => [a.account?.name ?? null, a.summary])).toEqual([
      ['Declined Often Band', '5 declined payments in a day from 198.51.100.7 (limit 5)'],
      [null, '1 declined payment in a day from this account (limit 1)'],
      ['Declined Often Band', '21 payment attempts in an hour from one client address (limit 20)'],
      ['Declined Often Band', '11 payment attempts in an hour from this account (limit 10)'],
    ]);
    const times = alerts.map((a) => new Date(a.created_at).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The totals and the gauge count every open alert, not only the 100 listed.
    expect((await totals()).open_payment_alerts).toBe(103);
    expect(await openAlertsMetric()).toBe(103);
  });
});
