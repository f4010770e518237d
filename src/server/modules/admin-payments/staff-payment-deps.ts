import { eq } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { Actor } from '../../actor.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { PaymentRow } from '../payments/payment-steps.ts';
import type { ReconcileDeps } from '../payments/reconcile-payments.ts';

/**
 * What the staff's payment actions need (docs/payments.md "Staff actions"): the database, the
 * gateway, a logger, the provider's name for the mails, and the clock, as the reconciliation.
 */
export type StaffPaymentDeps = ReconcileDeps;

/** The answer of a staff action: 200 when done, 202 when the gateway's answer never came. */
export interface StaffActionAnswer {
  statusCode: 200 | 202;
  message: string;
  paymentId: number;
}

/** The 202 message when the gateway did not answer a staff action. */
export const GATEWAY_SILENT =
  'The payment gateway did not answer. The reconciliation will record the outcome; check back in a few minutes.';

/** Payment `id`. @throws HttpError 404 'The payment could not be found.' */
export async function findPayment(db: DbOrTx, id: number): Promise<PaymentRow> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  if (!row) throw notFound('The payment');
  return row;
}

/** @throws HttpError 409 with `message` unless `ok`. */
export function assertState(ok: boolean, message: string): asserts ok {
  if (!ok) throw new HttpError(409, message);
}

/**
 * Writes a staff action on a payment to the audit log, on behalf of its account: `payment.{verb}`
 * with the payment, the reason and any other details (never a card detail).
 */
export async function auditPaymentAction(
  tx: DbOrTx,
  actor: Pick<Actor, 'userId' | 'ip'>,
  payment: Pick<PaymentRow, 'id' | 'accountId'>,
  verb: string,
  details: Record<string, unknown>,
): Promise<void> {
  await recordAudit(tx, {
    actorUserId: actor.userId,
    accountId: payment.accountId,
    action: `payment.${verb}`,
    ip: actor.ip,
    details: { paymentId: payment.id, ...details },
  });
}
