import { ValidationError } from '../../errors.ts';
import { clearReview, paymentRefId } from '../payments/payment-steps.ts';
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

const VOID_MESSAGES = {
  voided: 'The payment was voided: nothing was charged, and the invoices it paid are open again.',
  notVoidable: 'Only a paid card, bank or PayPal payment with nothing refunded can be voided.',
  settled: 'This payment has settled at the gateway and can no longer be voided. Refund it instead.',
} as const;

/**
 * POST /api/admin/payments/{id}/void (docs/payments.md "Staff actions"; staff only): cancels a
 * paid charge at the gateway before it settles (voidTransaction). The payment becomes voided: what
 * it applied to its invoices is owed again, its discount is given back (a renewal it applied stays
 * applied). Audited with the reason; the account is mailed.
 * Writes payments, payment_invoices, invoices, discount_reservations, audit_log, mail_outbox.
 * @throws HttpError 404 for an unknown payment; 409 unless it is paid through the gateway with
 *   nothing refunded
 * @throws ValidationError 422 when the gateway refuses (settled: "Refund it instead.")
 * @returns 200, or 202 when the gateway did not answer (nothing is recorded)
 */
export async function voidPayment(
  deps: StaffPaymentDeps,
  req: { paymentId: number; reason: string; actor: Pick<Actor, 'userId' | 'ip'> },
): Promise<StaffActionAnswer> {
  const now = deps.now ?? (() => new Date());
  const payment = await findPayment(deps.db, req.paymentId);
  assertState(
    payment.status === 'paid' &&
      payment.method !== 'zero' &&
      payment.gatewayTransId !== null &&
      payment.refundedCents === 0,
    VOID_MESSAGES.notVoidable,
  );
  const outcome = await deps.gateway.voidTransaction({
    transId: payment.gatewayTransId,
    refId: paymentRefId(payment.id),
  });
  if (outcome.status === 'unknown') return { statusCode: 202, message: GATEWAY_SILENT, paymentId: payment.id };
  if (outcome.status !== 'approved') {
    const code = 'code' in outcome ? outcome.code : '';
    const text =
      code === '16'
        ? VOID_MESSAGES.settled
        : ('text' in outcome && outcome.text) || 'The payment gateway refused to void it.';
    await auditPaymentAction(deps.db, req.actor, payment, 'void_refused', { reason: req.reason, code });
    throw new ValidationError({ payment: [text] }, text);
  }
  const done = await deps.db.transaction(async (tx) => {
    const moved = await movePayment(
      tx,
      payment,
      ['paid'],
      'voided',
      { message: 'Voided by staff before settlement.' },
      now(),
    );
    if (!moved) return false;
    await clearReview(tx, payment.id);
    await auditPaymentAction(tx, req.actor, payment, 'voided', {
      reason: req.reason,
      amountCents: payment.amountCents,
    });
    await notifyPaymentOutcome(tx, moved.row, 'voided', deps.companyName);
    return true;
  });
  assertState(done, VOID_MESSAGES.notVoidable);
  return { statusCode: 200, message: VOID_MESSAGES.voided, paymentId: payment.id };
}
