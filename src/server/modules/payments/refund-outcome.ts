import { and, eq, sql } from 'drizzle-orm';
import { paymentRefunds, payments } from '../../db/schema.ts';
import { notifyPaymentOutcome } from './payment-transitions.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The refId a refund is sent to the gateway with (at most 20 characters). */
export const refundRefId = (refundId: number) => `gs-ref-${refundId}`;

export type RefundRow = typeof paymentRefunds.$inferSelect;

/** What the gateway answered a refund. */
export type RefundOutcome =
  { status: 'refunded'; transId: string } | { status: 'failed'; code: string | null; text: string | null };

/**
 * Records the gateway's answer to a pending refund (docs/payments.md "Staff actions"), once: the
 * row moves from 'pending' only. Refunded: the payment's refunded_cents grows by the amount, the
 * payment becomes 'refunded' when all of it is given back, and the account is mailed. Failed: the
 * row keeps the gateway's code and text. Call with a Db (it opens its transaction) or inside one.
 * Writes payment_refunds, payments (refunded_cents, status), mail_outbox.
 * @returns true when this call recorded it (false: recorded before)
 */
export async function recordRefundOutcome(
  db: DbOrTx,
  refund: Pick<RefundRow, 'id' | 'paymentId' | 'amountCents'>,
  outcome: RefundOutcome,
  companyName: string,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(paymentRefunds)
      .set(
        outcome.status === 'refunded'
          ? { status: 'refunded', gatewayTransId: outcome.transId, settledAt: now }
          : { status: 'failed', gatewayCode: outcome.code, gatewayMessage: outcome.text, settledAt: now },
      )
      .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, 'pending')))
      .returning();
    if (!row) return false;
    if (outcome.status === 'failed') return true;
    const [payment] = await tx
      .update(payments)
      .set({
        refundedCents: sql`${payments.refundedCents} + ${row.amountCents}`,
        status: sql`CASE WHEN ${payments.refundedCents} + ${row.amountCents} >= ${payments.amountCents} THEN 'refunded' ELSE ${payments.status} END`,
      })
      .where(eq(payments.id, row.paymentId))
      .returning();
    await notifyPaymentOutcome(tx, payment, 'refunded', companyName, row.amountCents);
    return true;
  });
}
