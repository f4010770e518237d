import { and, eq, isNull } from 'drizzle-orm';
import { paymentAlerts } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';

const REVIEW_MESSAGES = {
  reviewed: 'The alert was marked reviewed.',
  alreadyReviewed: 'This alert was already reviewed.',
} as const;

/**
 * POST /api/admin/payments/alerts/{id}/review (docs/payments.md "Card testing"; staff only): marks
 * a payment alert (possible card testing) reviewed once staff looked into it, with their note of
 * what they found. Changes no payment and lifts no limit. In one transaction: sets
 * payment_alerts.reviewed_at (now) and reviewed_by (the staff user), only while it is open, and
 * writes audit_log 'payment_alert.reviewed' on the alert's account with the alert, its limit, the
 * client address, the counts and the note.
 * @param req.id the alert; req.note what staff found (1-500 characters, checked by the contract)
 * @returns the answer in words
 * @throws HttpError 404 unknown alert; 409 already reviewed (by anyone, at any time)
 */
export async function reviewPaymentAlert(
  db: Db,
  req: { id: number; note: string; actor: Pick<Actor, 'userId' | 'ip'>; now?: Date },
): Promise<{ message: string }> {
  const [alert] = await db.select().from(paymentAlerts).where(eq(paymentAlerts.id, req.id));
  if (!alert) throw notFound('The alert');
  const done = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(paymentAlerts)
      .set({ reviewedAt: req.now ?? new Date(), reviewedBy: req.actor.userId })
      .where(and(eq(paymentAlerts.id, alert.id), isNull(paymentAlerts.reviewedAt)))
      .returning({ id: paymentAlerts.id });
    if (!row) return false;
    await recordAudit(tx, {
      actorUserId: req.actor.userId,
      accountId: alert.accountId,
      action: 'payment_alert.reviewed',
      ip: req.actor.ip,
      details: {
        alertId: alert.id,
        kind: alert.kind,
        rule: alert.rule,
        clientAddress: alert.ip,
        count: alert.count,
        limit: alert.maxCount,
        note: req.note,
      },
    });
    return true;
  });
  if (!done) throw new HttpError(409, REVIEW_MESSAGES.alreadyReviewed);
  return { message: REVIEW_MESSAGES.reviewed };
}
