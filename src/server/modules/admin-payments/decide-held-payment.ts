import { ValidationError } from '../../errors.ts';
import { paymentRefId, REVIEW_REASONS } from '../payments/payment-steps.ts';
import { movePayment, notifyPaymentOutcome } from '../payments/payment-transitions.ts';
import {
  assertState,
  auditPaymentAction,
  findPayment,
  GATEWAY_SILENT,
  type StaffActionAnswer,
  type StaffPaymentDeps,
} from './staff-payment-deps.ts';
import type { Actor } from '../../actor.ts';

/** Answers of the decisions on held and unconfirmed payments. */
const DECISION_MESSAGES = {
  approved: 'The payment was approved and applied to its invoices.',
  declined: 'The payment was declined. Nothing was charged and its invoices can be paid again.',
  notCharged: 'The payment was marked as not charged. Its invoices can be paid again.',
  notHeld: 'This payment is not held for review.',
  notDeclinable: 'Only a payment held for review, or one the gateway has no record of, can be declined.',
} as const;

/**
 * POST /api/admin/payments/{id}/approve and /decline (docs/payments.md "Staff actions"; staff only):
 * decides a payment held for review at the gateway with updateHeldTransactionRequest. Approved:
 * the payment becomes paid and is applied to its invoices. Declined: it becomes declined, its
 * invoices are released and its discount given back. A pending payment the reconciliation found no
 * record of (review_reason) may be declined without a gateway call: it becomes failed. Each
 * decision is audited with the reason and mailed to the account (never the reason).
 * Writes payments, payment_invoices, invoices, discount_reservations, audit_log, mail_outbox.
 * @throws HttpError 404 for an unknown payment; 409 when the payment is not in a state to decide
 * @throws ValidationError 422 with the gateway's text when it refuses
 * @returns 200, or 202 when the gateway did not answer (nothing is recorded; the reconciliation will)
 */
export async function decideHeldPayment(
  deps: StaffPaymentDeps,
  req: { paymentId: number; action: 'approve' | 'decline'; reason: string; actor: Pick<Actor, 'userId' | 'ip'> },
): Promise<StaffActionAnswer> {
  const now = deps.now ?? (() => new Date());
  const payment = await findPayment(deps.db, req.paymentId);

  if (req.action === 'decline' && payment.status === 'pending') {
    assertState(payment.reviewReason === REVIEW_REASONS.noRecord, DECISION_MESSAGES.notDeclinable);
    const done = await deps.db.transaction(async (tx) => {
      const moved = await movePayment(
        tx,
        payment,
        ['pending'],
        'failed',
        { message: 'Not charged: the payment gateway has no record of it.' },
        now(),
      );
      if (!moved) return false;
      await auditPaymentAction(tx, req.actor, payment, 'marked_not_charged', { reason: req.reason });
      await notifyPaymentOutcome(tx, moved.row, 'failed', deps.companyName);
      return true;
    });
    assertState(done, DECISION_MESSAGES.notDeclinable);
    return { statusCode: 200, message: DECISION_MESSAGES.notCharged, paymentId: payment.id };
  }

  assertState(
    payment.status === 'held' && payment.gatewayTransId !== null,
    req.action === 'approve' ? DECISION_MESSAGES.notHeld : DECISION_MESSAGES.notDeclinable,
  );
  const outcome = await deps.gateway.updateHeldTransaction({
    transId: payment.gatewayTransId,
    action: req.action,
    refId: paymentRefId(payment.id),
  });
  if (outcome.status === 'unknown') return { statusCode: 202, message: GATEWAY_SILENT, paymentId: payment.id };
  const expected = req.action === 'approve' ? 'approved' : 'declined';
  if (outcome.status !== expected) {
    const text = 'text' in outcome && outcome.text ? outcome.text : 'The payment gateway refused the decision.';
    await auditPaymentAction(deps.db, req.actor, payment, `${req.action}_refused`, {
      reason: req.reason,
      code: 'code' in outcome ? outcome.code : null,
    });
    throw new ValidationError({ payment: [text] }, `The payment gateway refused: ${text}`);
  }
  const done = await deps.db.transaction(async (tx) => {
    const moved = await movePayment(
      tx,
      payment,
      ['held'],
      req.action === 'approve' ? 'paid' : 'declined',
      {
        transId: outcome.transId,
        authCode: outcome.status === 'approved' ? outcome.authCode : undefined,
        code: outcome.code,
        message: req.action === 'approve' ? 'Approved after review.' : 'Declined after review.',
      },
      now(),
    );
    if (!moved) return false;
    await auditPaymentAction(tx, req.actor, payment, req.action === 'approve' ? 'approved' : 'declined', {
      reason: req.reason,
      amountCents: payment.amountCents,
    });
    await notifyPaymentOutcome(tx, moved.row, req.action === 'approve' ? 'approved' : 'declined', deps.companyName);
    return true;
  });
  assertState(done, DECISION_MESSAGES.notHeld);
  return {
    statusCode: 200,
    message: req.action === 'approve' ? DECISION_MESSAGES.approved : DECISION_MESSAGES.declined,
    paymentId: payment.id,
  };
}
