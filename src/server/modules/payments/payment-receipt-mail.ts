import { asc, eq, inArray } from 'drizzle-orm';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { accounts, invoiceLines, invoices, paymentInvoices } from '../../db/schema.ts';
import { escapeHtml, mailDateTime, mailLayout, textToHtml } from '../mail/mail-html.ts';
import { typed } from '../mail/mail-words.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { PaymentRow } from './payment-steps.ts';

/** How each method is named on a receipt. */
const METHOD_LABELS: Record<string, string> = {
  card: 'Card',
  bank: 'Bank account',
  paypal: 'PayPal',
  zero: 'Discount (nothing charged)',
};

/**
 * How the payment was made, as the payer recognises it: 'Card, Visa ending in 1111'; never more
 * than the last four digits the gateway masked.
 */
export function paidWith(payment: Pick<PaymentRow, 'method' | 'accountType' | 'accountLast4'>): string {
  const method = METHOD_LABELS[payment.method] ?? payment.method;
  const last4 = payment.accountLast4?.replace(/[^0-9]/g, '').slice(-4);
  const account = [payment.accountType, last4 ? `ending in ${last4}` : ''].filter(Boolean).join(' ');
  return account ? `${method}, ${account}` : method;
}

/** One invoice of a receipt: its lines and what this payment settled on it (cents). */
interface ReceiptInvoice {
  number: string;
  lines: { label: string; valueCents: number }[];
  totalCents: number;
  /** What this payment applied to it; null when nothing was applied (not paid). */
  appliedCents: number | null;
}

/** The invoices of `payment` with their lines, oldest first, only of the payment's own account. */
async function receiptInvoices(tx: DbOrTx, payment: PaymentRow): Promise<ReceiptInvoice[]> {
  if (!payment.invoiceIds.length) return [];
  const found = await tx
    .select({
      id: invoices.id,
      number: invoices.number,
      valueCents: invoices.valueCents,
      accountId: invoices.accountId,
    })
    .from(invoices)
    .where(inArray(invoices.id, payment.invoiceIds))
    .orderBy(asc(invoices.documentAt), asc(invoices.id));
  const own = found.filter((i) => i.accountId === payment.accountId);
  if (!own.length) return [];
  const ids = own.map((i) => i.id);
  const lines = await tx
    .select({ invoiceId: invoiceLines.invoiceId, label: invoiceLines.label, valueCents: invoiceLines.valueCents })
    .from(invoiceLines)
    .where(inArray(invoiceLines.invoiceId, ids))
    .orderBy(asc(invoiceLines.id));
  const applied = await tx
    .select({ invoiceId: paymentInvoices.invoiceId, amountCents: paymentInvoices.amountCents })
    .from(paymentInvoices)
    .where(eq(paymentInvoices.paymentId, payment.id));
  return own.map((i) => ({
    number: i.number,
    lines: lines.filter((l) => l.invoiceId === i.id),
    totalCents: i.valueCents,
    appliedCents: applied.find((a) => a.invoiceId === i.id)?.amountCents ?? null,
  }));
}

/** What {@link paymentReceiptMail} makes: the subject and both parts, for each recipient alike. */
export interface ReceiptMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * The receipt mailed when a payment becomes paid (docs/mail.md "Transactional mails",
 * docs/payments.md "Mail to the account"): `intro` (what happened), the account, the date, the
 * method with the masked last four digits, the gateway's transaction id, each invoice with its
 * lines and what was applied to it, the discount and the amount charged, all in dollars.
 * Reads accounts, invoices, invoice_lines, payment_invoices; writes nothing.
 */
export async function paymentReceiptMail(
  tx: DbOrTx,
  payment: PaymentRow,
  intro: string,
  companyName: string,
): Promise<ReceiptMail> {
  const [account] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, payment.accountId));
  const list = await receiptInvoices(tx, payment);
  const facts: [string, string][] = [
    // As its users typed it (docs/security.md "Mail carries only our links").
    ['Organization', account ? typed(account.name) : ''],
    ['Date', mailDateTime(payment.settledAt ?? payment.createdAt)],
    ['Paid with', paidWith(payment)],
    [
      'Transaction id',
      payment.gatewayTransId ??
        (payment.method === 'zero' ? 'none (nothing was charged)' : 'not given by the payment gateway'),
    ],
    ['Payment reference', String(payment.id)],
  ];
  const totals: [string, string][] = [
    ...(payment.discountCents > 0
      ? [['Discount', `-${formatCurrency(payment.discountCents)}`] as [string, string]]
      : []),
    ['Amount charged', formatCurrency(payment.amountCents)],
  ];
  const outro = `Your payments and receipts are in ${companyName} under Finances, where you can print this receipt.`;

  const text = [
    'Hello,',
    '',
    intro,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    ...list.flatMap((i) => [
      `Invoice ${i.number}`,
      ...i.lines.map((l) => `  ${l.label}: ${formatCurrency(l.valueCents)}`),
      `  Invoice total: ${formatCurrency(i.totalCents)}`,
      ...(i.appliedCents !== null ? [`  Paid on this invoice: ${formatCurrency(i.appliedCents)}`] : []),
      '',
    ]),
    ...totals.map(([k, v]) => `${k}: ${v}`),
    '',
    outro,
    '',
  ].join('\n');

  const cell = 'padding:6px 0;border-bottom:1px solid #e9ecef;vertical-align:top';
  // Amounts never wrap; in the facts (short labels, long values) the label keeps to one line instead.
  const row = (label: string, value: string, strong = false, fact = false) =>
    `<tr><td style="${cell}${fact ? ';white-space:nowrap;padding-right:16px' : ''}">${strong ? `<strong>${escapeHtml(label)}</strong>` : escapeHtml(label)}</td>` +
    `<td style="${cell};text-align:right${fact ? '' : ';white-space:nowrap'}">${strong ? `<strong>${escapeHtml(value)}</strong>` : escapeHtml(value)}</td></tr>`;
  const table = (rows: string) =>
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 16px 0">${rows}</table>`;
  const html = mailLayout(
    `Your payment receipt (${companyName})`,
    [
      textToHtml(`Hello,\n\n${intro}`),
      table(facts.map(([k, v]) => row(k, v, false, true)).join('')),
      ...list.map(
        (i) =>
          `<h2 style="margin:8px 0 4px 0;font-size:16px">Invoice ${escapeHtml(i.number)}</h2>` +
          table(
            [
              ...i.lines.map((l) => row(l.label, formatCurrency(l.valueCents))),
              row('Invoice total', formatCurrency(i.totalCents)),
              ...(i.appliedCents !== null ? [row('Paid on this invoice', formatCurrency(i.appliedCents), true)] : []),
            ].join(''),
          ),
      ),
      table(totals.map(([k, v]) => row(k, v, k === 'Amount charged')).join('')),
      textToHtml(outro),
    ].join('\n'),
  );

  return { subject: `Your payment receipt (${companyName})`, text, html };
}
