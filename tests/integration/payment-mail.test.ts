import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, payments } from '../../src/server/db/schema.ts';
import { createInvoice } from '../../src/server/db/seed/factories.ts';
import { deliverPendingMail } from '../../src/server/modules/mail/deliver-pending-mail.ts';
import { smtpTransport } from '../../src/server/providers/mail/transport.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { CARD_DECLINED } from '../../src/shared/rules/payment-refusals.ts';
import {
  createPaymentsFixture,
  cardPayload,
  testCard,
  tokenizeAtSimulator,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { mailParts, startSmtpPeer } from '../helpers/local-peers.ts';
import type { Agent, TestApp } from '../helpers/test-app.ts';

/**
 * docs/mail.md "Transactional mails": the payer's own card payment mails the receipt when it is
 * approved and the failed-payment notice when it is declined, once, each read here from a real
 * SMTP peer with its plain-text and HTML parts.
 */

const HOLDER = { email: 'receipt.holder@example.com', password: 'Receipt-pass-123' };
const ADMIN = { email: 'receipt.admin@example.com', password: 'Admin-pass-789' };

let gw: GatewayTestApp;
let t: TestApp;
let accountId: number;
let holder: Agent;

beforeAll(async () => {
  ({ gw, accountId, holder } = await createPaymentsFixture('Receipt Boosters', HOLDER, ADMIN));
  t = gw.t;
});
afterAll(async () => {
  await gw?.close();
});

const db = () => t.database.db;

/** Sends what the outbox holds to a fresh SMTP peer and answers the messages it received. */
async function deliverAll() {
  const peer = await startSmtpPeer();
  const transport = smtpTransport(peer.url);
  try {
    await deliverPendingMail(db(), transport, 'GoodStanding <no-reply@goodstanding.local>');
    return peer.received.map((m) => ({ to: m.to, subject: m.subject, ...mailParts(m.body) }));
  } finally {
    transport.close();
    await peer.close();
  }
}

describe('payment mails', () => {
  it('mails the payer a receipt with the invoice lines, amount, method, last four and transaction id, in both parts', async () => {
    await deliverAll();
    const invoiceId = await createInvoice(db(), {
      accountId,
      prefix: 'RCPT',
      lines: [
        { label: 'Annual renewal', type: 'renewal', cents: 10_000 },
        { label: 'Service fee', type: 'service_fee', cents: 2_550 },
      ],
    });
    const payload = cardPayload(await tokenizeAtSimulator(gw.urls, testCard()), [invoiceId], '125.50');
    const res = await holder.call(paymentContracts.credit, { body: payload });
    expect(res.statusCode, res.body).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.id, res.json().payment_id));
    expect(payment.gatewayTransId).toMatch(/^\d+$/);

    const mails = await deliverAll();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.to).toEqual([HOLDER.email]);
    expect(mail.subject).toMatch(/^Your payment receipt \(/);
    expect(mail.contentType).toMatch(/^multipart\/alternative/);
    expect(mail.text).toContain('Thank you: your payment of $125.50 was received and applied to your invoices.');
    expect(mail.text).toContain('Organization: “Receipt Boosters”');
    expect(mail.text).toContain(`Paid with: Card, ${payment.accountType} ending in 1111`);
    expect(mail.text).toContain(`Transaction id: ${payment.gatewayTransId}`);
    expect(mail.text).toContain(`Payment reference: ${payment.id}`);
    expect(mail.text).toMatch(
      /Invoice RCPT-[^\n]+\n {2}Annual renewal: \$100\.00\n {2}Service fee: \$25\.50\n {2}Invoice total: \$125\.50\n {2}Paid on this invoice: \$125\.50/,
    );
    expect(mail.text).toContain('Amount charged: $125.50');
    expect(mail.text).not.toMatch(/4111111111111111|dataValue/);
    for (const shown of [
      'Annual renewal',
      '$100.00',
      'Service fee',
      '$25.50',
      '$125.50',
      `${payment.accountType} ending in 1111`,
      payment.gatewayTransId!,
      'Receipt Boosters',
    ]) {
      expect(mail.html, shown).toContain(shown);
    }
    expect(mail.html).toContain('<h1');

    // The same payment sent again (a retry with its key) answers its outcome and mails nothing more.
    const retry = await holder.call(paymentContracts.credit, { body: payload });
    expect(retry.json()).toMatchObject({ status: 'paid', payment_id: payment.id });
    expect(await deliverAll()).toEqual([]);
  });

  it("mails a failed-payment notice with the next step but not the bank's reason when the card is declined, and no receipt", async () => {
    await deliverAll();
    const invoiceId = await createInvoice(db(), { accountId, cents: 4_000, prefix: 'DECL' });
    const res = await holder.call(paymentContracts.credit, {
      body: cardPayload(await tokenizeAtSimulator(gw.urls, testCard()), [invoiceId], '40.00', { zip: '46282' }),
    });
    expect(res.statusCode).toBe(422);
    const [payment] = await db().select().from(payments).where(eq(payments.id, res.json().payment_id));
    expect(payment.status).toBe('declined');

    const mails = await deliverAll();
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Your payment did not go through \(/)]);
    const [mail] = mails;
    expect(mail.to).toEqual([HOLDER.email]);
    expect(mail.text).toContain(`Your payment of $40.00 (Card${payment.accountType ? `, ${payment.accountType}` : ''}`);
    expect(mail.text).toContain(
      `was not accepted. ${CARD_DECLINED} Your invoices are still open and can be paid again.`,
    );
    expect(mail.text).not.toContain(String(payment.gatewayMessage));
    expect(mail.text).toMatch(/Invoices: DECL-/);
    expect(mail.html).toContain('The card was declined and nothing was charged.');
    expect(mail.html).toContain('<h1');
    const kinds = (await db().select({ kind: mailOutbox.kind, text: mailOutbox.textBody }).from(mailOutbox))
      .filter((m) => m.text.includes(`Payment reference: ${payment.id}\n`))
      .map((m) => m.kind);
    expect(kinds).toEqual(['payment.failed']);
  });

  it('tells the payer a payment held for review is being reviewed, once', async () => {
    await deliverAll();
    const invoiceId = await createInvoice(db(), { accountId, cents: 6_000, prefix: 'HELD' });
    const res = await holder.call(paymentContracts.credit, {
      body: cardPayload(await tokenizeAtSimulator(gw.urls, testCard()), [invoiceId], '60.00', { zip: '46205' }),
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ status: 'held' });
    const paymentId = res.json().payment_id;

    const mails = await deliverAll();
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Your payment is being reviewed \(/)]);
    expect(mails[0].to).toEqual([HOLDER.email]);
    expect(mails[0].text).toContain('Your payment of $60.00 (Card');
    expect(mails[0].text).toContain(
      'is held for review by the payment gateway before it is settled. You need do nothing',
    );
    expect(mails[0].text).toContain(`Payment reference: ${paymentId}`);
    expect(mails[0].html).toContain('held for review');

    // Asking the same payment again mails nothing more.
    await holder.call(paymentContracts.credit, {
      body: cardPayload(await tokenizeAtSimulator(gw.urls, testCard()), [invoiceId], '60.00', { zip: '46205' }),
    });
    expect((await deliverAll()).filter((m) => m.text.includes(`Payment reference: ${paymentId}\n`))).toEqual([]);
  });
});
