import { must } from '../../../shared/must.ts';
import { dollarsToCents } from '../../../shared/rules/billing.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { paymentRefunds } from '../../db/schema.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import { clearReview, type PaymentRow } from '../payments/payment-steps.ts';
import { recordRefundOutcome, refundRefId } from '../payments/refund-outcome.ts';
import {
  assertState,
  auditPaymentAction,
  findPayment,
  GATEWAY_SILENT,
  type StaffActionAnswer,
  type StaffPaymentDeps,
} from './staff-payment-deps.ts';
import type { Actor } from '../../actor.ts';
import type { RefundPayment } from '../../providers/payments/authorize-net.ts';

const REFUND_MESSAGES = {
  refunded: (cents: number) => `${formatCurrency(cents)} was refunded.`,
  notRefundable: 'Only a paid card, bank or PayPal payment can be refunded.',
  tooMuch: (left: number) => `The amount may not be more than ${formatCurrency(left)}, what is left of this payment.`,
  inProgress: 'A refund of this payment is already being processed.',
  notSettled: 'This payment has not settled at the gateway yet. Void it instead, or refund it once it has settled.',
} as const;

/** How the refund names the account the charge came from: what the gateway masked, nothing more. */
function refundPaymentOf(payment: PaymentRow): RefundPayment {
  if (payment.method === 'paypal') return { kind: 'paypal' };
  if (payment.method === 'bank') return { kind: 'bank', last4: payment.accountLast4 ?? '' };
  return { kind: 'card', last4: payment.accountLast4 ?? '' };
}

/**
 * POST /api/admin/payments/{id}/refund (docs/payments.md "Staff actions"; staff only): gives back
 * `amount` (decimal dollars; part or all of what is left) of a settled card, bank or PayPal
 * payment (refundTransaction). The refund is written pending first (one at a time per payment),
 * then refunded or failed with the gateway's answer; the payment's refunded_cents grows, and it
 * becomes refunded when all of it is given back. The invoices stay settled. Audited with the
 * reason; the account is mailed the amount.
 * Writes payment_refunds, payments, audit_log, mail_outbox.
 * @throws HttpError 404 unknown payment; 409 not refundable or a refund already in progress
 * @throws ValidationError 422 on `amount` past what is left, or with the gateway's refusal
 *   (not settled yet: "Void it instead")
 * @returns 200, or 202 when the gateway did not answer (the refund stays pending; the
 *   reconciliation records it)
 */
export async function refundPayment(
  deps: StaffPaymentDeps,
  req: { paymentId: number; amount: number; reason: string; actor: Pick<Actor, 'userId' | 'ip'> },
): Promise<StaffActionAnswer> {
  const now = deps.now ?? (() => new Date());
  const amountCents = dollarsToCents(req.amount);
  const payment = await findPayment(deps.db, req.paymentId);
  assertState(
    payment.status === 'paid' && payment.method !== 'zero' && payment.gatewayTransId !== null,
    REFUND_MESSAGES.notRefundable,
  );
  const left = payment.amountCents - payment.refundedCents;
  if (amountCents > left) throw ValidationError.field('amount', REFUND_MESSAGES.tooMuch(left));

  let refund: typeof paymentRefunds.$inferSelect;
  try {
    refund = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(paymentRefunds)
        .values({ paymentId: payment.id, amountCents, reason: req.reason, userId: req.actor.userId })
        .returning();
      await auditPaymentAction(tx, req.actor, payment, 'refund_requested', {
        reason: req.reason,
        amountCents,
        refundId: row.id,
      });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, REFUND_MESSAGES.inProgress);
    throw err;
  }

  const outcome = await deps.gateway.refundTransaction({
    transId: must(payment.gatewayTransId, 'the charge to refund'),
    amountCents,
    payment: refundPaymentOf(payment),
    refId: refundRefId(refund.id),
  });
  if (outcome.status === 'unknown') return { statusCode: 202, message: GATEWAY_SILENT, paymentId: payment.id };
  if (outcome.status !== 'approved') {
    const code = 'code' in outcome ? outcome.code : null;
    const text =
      code === '54' && payment.settledAt && !(await settledAtGateway(deps, payment))
        ? REFUND_MESSAGES.notSettled
        : ('text' in outcome && outcome.text) || 'The payment gateway refused the refund.';
    await recordRefundOutcome(deps.db, refund, { status: 'failed', code, text }, deps.companyName, now());
    throw new ValidationError({ amount: [text] }, text);
  }
  await deps.db.transaction(async (tx) => {
    await recordRefundOutcome(tx, refund, { status: 'refunded', transId: outcome.transId }, deps.companyName, now());
    await clearReview(tx, payment.id);
    await auditPaymentAction(tx, req.actor, payment, 'refunded', {
      reason: req.reason,
      amountCents,
      refundId: refund.id,
      transId: outcome.transId,
    });
  });
  return { statusCode: 200, message: REFUND_MESSAGES.refunded(amountCents), paymentId: payment.id };
}

/** Whether the gateway reports the charge settled (a refund refused with 54 for an unsettled one says so). */
async function settledAtGateway(deps: StaffPaymentDeps, payment: PaymentRow): Promise<boolean> {
  const lookup = await deps.gateway.getTransactionDetails(must(payment.gatewayTransId, 'the charge to look up'));
  return lookup.status === 'found' && lookup.transaction.transactionStatus === 'settledSuccessfully';
}
