import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { payerRefusalText } from '../../../shared/rules/payment-refusals.ts';
import { accounts, invoices, paymentInvoices, payments, users } from '../../db/schema.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { mailDateTime } from '../mail/mail-html.ts';
import { paidWith, paymentReceiptMail } from './payment-receipt-mail.ts';
import {
  applyCreditToInvoices,
  markForReview,
  releaseDiscountClaim,
  REVIEW_REASONS,
  type PaymentRow,
} from './payment-steps.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The moves of a payment between states after its first answer (docs/payments.md "States"), shared
 * by the card, bank and PayPal services, the reconciliation and the staff actions, with what each
 * move does to invoices and discounts. The database allows only the documented transitions
 * (trigger payments_check_transition) and releases the invoices a payment held once it leaves
 * pending and held (trigger payments_release_invoices).
 */

/** A status a payment can be moved to after its first answer. */
export type PaymentMove = 'paid' | 'held' | 'declined' | 'failed' | 'voided';

/** What the gateway said, written onto the payment with the move (never a secret). */
export interface GatewayFacts {
  transId?: string | null;
  authCode?: string | null;
  accountLast4?: string | null;
  accountType?: string | null;
  code?: string | null;
  message?: string | null;
}

/**
 * Moves payment `payment.id` from one of `from` to `to` in `tx`, with its effects:
 * - paid: the amount plus the discount is applied to its invoices oldest first (payment_invoices;
 *   a renewal paid in full is applied); credit that finds no balance puts the payment before staff
 *   (review_reason "Approved, but its invoices were already settled");
 * - declined, failed: the discount claimed for it is given back;
 * - voided (from paid): what it applied to its invoices is taken back off them (the balances owed
 *   again, payment_invoices rows removed) and the discount claimed is given back;
 * - held: nothing else.
 * The payment leaves the staff's list (review_reason cleared) unless the move puts it back.
 * Writes payments (status, gateway facts, settled_at), and as above payment_invoices, invoices,
 * discount_reservations.
 * @returns the moved row and the credit left unapplied (cents), or null when the payment was not
 *   in `from` any more (someone else moved it first: nothing is written)
 */
export async function movePayment(
  tx: DbOrTx,
  payment: Pick<PaymentRow, 'id'>,
  from: readonly string[],
  to: PaymentMove,
  facts: GatewayFacts,
  now: Date,
): Promise<{ row: PaymentRow; unassignedCents: number } | null> {
  // Whatever put it before staff is answered by the move (an unassigned credit puts it back).
  const set: Partial<typeof payments.$inferInsert> = {
    status: to,
    settledAt: to === 'held' ? null : now,
    reviewReason: null,
  };
  if (facts.transId) set.gatewayTransId = facts.transId;
  if (facts.authCode !== undefined) set.authCode = facts.authCode || null;
  if (facts.accountLast4) set.accountLast4 = facts.accountLast4;
  if (facts.accountType) set.accountType = facts.accountType;
  if (facts.code !== undefined) set.gatewayCode = facts.code || null;
  if (facts.message !== undefined) set.gatewayMessage = facts.message || null;
  const [row] = await tx
    .update(payments)
    .set(set)
    .where(and(eq(payments.id, payment.id), inArray(payments.status, [...from])))
    .returning();
  if (!row) return null;
  let unassignedCents = 0;
  if (to === 'paid') {
    unassignedCents = await applyCreditToInvoices(tx, row, row.amountCents + row.discountCents);
    if (unassignedCents > 0) await markForReview(tx, row.id, REVIEW_REASONS.unassigned);
  } else if (to === 'declined' || to === 'failed') {
    await releaseDiscountClaim(tx, row);
  } else if (to === 'voided') {
    await takeBackCredit(tx, row.id);
    await releaseDiscountClaim(tx, row);
  }
  return { row, unassignedCents };
}

/**
 * Takes what payment `paymentId` applied to its invoices back off them: each invoice's balance
 * rises by the amount applied and the payment_invoices rows go (a voided charge paid nothing).
 * A renewal it applied stays applied (docs/payments.md "Staff actions"). Writes invoices,
 * payment_invoices. @returns the cents put back on the invoices
 */
async function takeBackCredit(tx: DbOrTx, paymentId: number): Promise<number> {
  const applied = await tx
    .select({ invoiceId: paymentInvoices.invoiceId, amountCents: paymentInvoices.amountCents })
    .from(paymentInvoices)
    .where(eq(paymentInvoices.paymentId, paymentId))
    .orderBy(asc(paymentInvoices.invoiceId));
  let total = 0;
  for (const a of applied) {
    await tx
      .update(invoices)
      .set({ balanceCents: sql`${invoices.balanceCents} + ${a.amountCents}` })
      .where(eq(invoices.id, a.invoiceId));
    total += a.amountCents;
  }
  await tx.delete(paymentInvoices).where(eq(paymentInvoices.paymentId, paymentId));
  return total;
}

/**
 * Who is told about a payment of the account: its primary user (else the account's own address),
 * and the user who paid when that is someone else of the account. Lower-case addresses, no repeats.
 */
async function accountRecipients(tx: DbOrTx, payment: Pick<PaymentRow, 'accountId' | 'userId'>): Promise<string[]> {
  const [account] = await tx
    .select({ email: accounts.email, primaryUserId: accounts.primaryUserId })
    .from(accounts)
    .where(eq(accounts.id, payment.accountId));
  const people = await tx
    .select({ id: users.id, email: users.email, isPrimary: users.isPrimary })
    .from(users)
    .where(eq(users.accountId, payment.accountId));
  const primary = people.find((u) => u.isPrimary || u.id === account?.primaryUserId);
  const payer = people.find((u) => u.id === payment.userId);
  const list = [primary?.email ?? account?.email ?? null, payer?.email ?? null]
    .filter((e): e is string => !!e)
    .map((e) => e.toLowerCase());
  return [...new Set(list)];
}

/** The words of each notice about a payment's outcome (docs/payments.md "Mail to the account"). */
const NOTICES = {
  // paid and approved are receipts (paymentReceiptMail): these are their opening sentences.
  received: {
    subject: 'Your payment receipt',
    body: (p: string) => `Thank you: your payment of ${p} was received and applied to your invoices.`,
  },
  settled: {
    subject: 'Your payment receipt',
    body: () => 'Your invoices were settled with your discount code. Nothing was charged.',
  },
  paid: {
    subject: 'Your payment receipt',
    body: (p: string) => `Your payment of ${p} was confirmed by the payment gateway and applied to your invoices.`,
  },
  approved: {
    subject: 'Your payment receipt',
    body: (p: string) => `Your payment of ${p}, held for review, was approved and applied to your invoices.`,
  },
  held: {
    subject: 'Your payment is being reviewed',
    body: (p: string) =>
      `Your payment of ${p} was received and is held for review by the payment gateway before it is settled. You need do nothing: we will write again when it is approved or declined. Until then your invoices stay reserved for this payment.`,
  },
  refused: {
    subject: 'Your payment did not go through',
    body: (p: string, _amount?: string, reason?: string) =>
      `Your payment of ${p} was not accepted.${reason ? ` ${reason}` : ' Nothing was charged.'} Your invoices are still open and can be paid again.`,
  },
  declined: {
    subject: 'Your payment was declined',
    body: (p: string) =>
      `Your payment of ${p}, held for review, was declined. Nothing was charged; your invoices are still open and can be paid again.`,
  },
  failed: {
    subject: 'Your payment did not go through',
    body: (p: string) =>
      `Your payment of ${p} could not be confirmed with the payment gateway and was not charged. Your invoices are still open and can be paid again.`,
  },
  voided: {
    subject: 'Your payment was cancelled',
    body: (p: string) =>
      `Your payment of ${p} was cancelled before it was settled, so no money was taken. The invoices it paid are open again.`,
  },
  refunded: {
    subject: 'A refund of your payment',
    body: (p: string, amount?: string) =>
      `${amount} of your payment of ${p} was refunded to the account it was paid from. It may take a few business days to appear.`,
  },
} as const;

/** Which notice {@link notifyPaymentOutcome} sends. */
export type PaymentNotice = keyof typeof NOTICES;

/** The notices that are receipts: the payment became paid. */
const RECEIPTS: readonly PaymentNotice[] = ['received', 'settled', 'paid', 'approved'];

/** The kind of a notice's outbox rows: every receipt is 'payment.receipt', 'refused' is a 'payment.failed'. */
const PAYMENT_MAIL_KINDS: Record<PaymentNotice, string> = {
  received: 'payment.receipt',
  settled: 'payment.receipt',
  paid: 'payment.receipt',
  approved: 'payment.receipt',
  refused: 'payment.failed',
  failed: 'payment.failed',
  held: 'payment.held',
  declined: 'payment.declined',
  voided: 'payment.voided',
  refunded: 'payment.refunded',
};

/**
 * Tells the account about a payment's outcome through the outbox, in `tx` (docs/payments.md "Mail
 * to the account", docs/mail.md "Transactional mails"): to its primary user and the payer, once
 * per move (callers send it only after their own move of the payment succeeded).
 * - received (the payer's own request was approved), settled (a zero payment), paid (confirmed
 *   later), approved (after review): the receipt of paymentReceiptMail, kind 'payment.receipt';
 * - refused (the payer's own request was declined or failed): the failed-payment notice with the
 *   gateway's reason, kind 'payment.failed';
 * - held (held for review at the gateway, the payer's request or found by the reconciliation),
 *   declined, failed, voided, refunded: a short notice, kind 'payment.{notice}'.
 * Each names the amount, the method with the masked last four digits and the invoices; never a
 * card or bank number, never the staff's reason.
 * Writes mail_outbox rows. @param refundCents the amount given back, for 'refunded'
 */
export async function notifyPaymentOutcome(
  tx: DbOrTx,
  payment: PaymentRow,
  notice: PaymentNotice,
  companyName: string,
  refundCents?: number,
): Promise<void> {
  const to = await accountRecipients(tx, payment);
  if (!to.length) return;
  const kind = PAYMENT_MAIL_KINDS[notice];
  const { subject, body } = NOTICES[notice];
  if (RECEIPTS.includes(notice)) {
    const receipt = await paymentReceiptMail(tx, payment, body(formatCurrency(payment.amountCents)), companyName);
    await enqueueMail(
      tx,
      to.map((address) => ({ kind, to: address, ...receipt })),
    );
    return;
  }
  const numbers = payment.invoiceIds.length
    ? (
        await tx
          .select({ number: invoices.number })
          .from(invoices)
          .where(inArray(invoices.id, payment.invoiceIds))
          .orderBy(asc(invoices.id))
      ).map((r) => r.number)
    : [];
  const paid = `${formatCurrency(payment.amountCents)} (${paidWith(payment)})`;
  // What to do next, as the billing screen said it: never the bank's reason (docs/payments.md).
  const reason = notice === 'refused' ? payerRefusalText(payment) : undefined;
  const lines = [
    'Hello,',
    '',
    body(paid, refundCents === undefined ? undefined : formatCurrency(refundCents), reason),
    '',
  ];
  if (numbers.length) lines.push(`Invoices: ${numbers.join(', ')}`);
  lines.push(`Date: ${mailDateTime(payment.settledAt ?? payment.createdAt)}`);
  if (payment.gatewayTransId) lines.push(`Transaction id: ${payment.gatewayTransId}`);
  lines.push(
    `Payment reference: ${payment.id}`,
    '',
    `Your payments and receipts are in ${companyName} under Finances.`,
    '',
  );
  const text = lines.join('\n');
  await enqueueMail(
    tx,
    to.map((address) => ({ kind, to: address, subject: `${subject} (${companyName})`, text })),
  );
}
