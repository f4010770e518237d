import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { gatewayDiscrepancies, payments } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import {
  auditPaymentAction,
  findPayment,
  type StaffActionAnswer,
  type StaffPaymentDeps,
} from './staff-payment-deps.ts';
import type { Actor } from '../../actor.ts';

const RESOLVE_MESSAGES = {
  resolved: 'The payment was marked as dealt with.',
  nothingToResolve: 'This payment is not waiting for a staff decision.',
  discrepancyResolved: 'The gateway charge was marked as dealt with.',
  discrepancyDone: 'This gateway charge was already dealt with.',
} as const;

/**
 * POST /api/admin/payments/{id}/resolve (docs/payments.md "Staff actions"; staff only): takes a
 * payment the reconciliation put before staff off the list once they dealt with it outside the
 * product (e.g. kept an unassigned payment as credit), with the reason. Changes no money.
 * Writes payments.review_reason, audit_log.
 * @throws HttpError 404 unknown payment; 409 when it is not waiting for a decision
 */
export async function resolvePaymentReview(
  deps: StaffPaymentDeps,
  req: { paymentId: number; reason: string; actor: Pick<Actor, 'userId' | 'ip'> },
): Promise<StaffActionAnswer> {
  const payment = await findPayment(deps.db, req.paymentId);
  const done = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(payments)
      .set({ reviewReason: null })
      .where(and(eq(payments.id, payment.id), isNotNull(payments.reviewReason)))
      .returning({ id: payments.id });
    if (!row) return false;
    await auditPaymentAction(tx, req.actor, payment, 'review_resolved', {
      reason: req.reason,
      reviewReason: payment.reviewReason,
    });
    return true;
  });
  if (!done) throw new HttpError(409, RESOLVE_MESSAGES.nothingToResolve);
  return { statusCode: 200, message: RESOLVE_MESSAGES.resolved, paymentId: payment.id };
}

/**
 * POST /api/admin/payments/discrepancies/{id}/resolve (docs/payments.md "Reconciliation"; staff
 * only): marks a gateway charge that no payment accounts for as dealt with (voided or refunded in
 * the gateway's own console, or matched by hand), with what was done. Audited.
 * Writes gateway_discrepancies, audit_log.
 * @throws HttpError 404 unknown discrepancy; 409 already resolved
 */
export async function resolveDiscrepancy(
  deps: StaffPaymentDeps,
  req: { id: number; resolution: string; actor: Pick<Actor, 'userId' | 'ip'> },
): Promise<{ message: string }> {
  const now = deps.now ?? (() => new Date());
  const [found] = await deps.db.select().from(gatewayDiscrepancies).where(eq(gatewayDiscrepancies.id, req.id));
  if (!found) throw notFound('The gateway charge');
  const done = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(gatewayDiscrepancies)
      .set({ resolvedAt: now(), resolvedBy: req.actor.userId, resolution: req.resolution })
      .where(and(eq(gatewayDiscrepancies.id, req.id), isNull(gatewayDiscrepancies.resolvedAt)))
      .returning({ id: gatewayDiscrepancies.id });
    if (!row) return false;
    await recordAudit(tx, {
      actorUserId: req.actor.userId,
      action: 'payment.discrepancy_resolved',
      ip: req.actor.ip,
      details: {
        discrepancyId: found.id,
        transId: found.transId,
        amountCents: found.amountCents,
        resolution: req.resolution,
      },
    });
    return true;
  });
  if (!done) throw new HttpError(409, RESOLVE_MESSAGES.discrepancyDone);
  return { message: RESOLVE_MESSAGES.discrepancyResolved };
}
