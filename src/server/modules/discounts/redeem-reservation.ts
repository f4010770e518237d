import { and, eq, isNull, sql } from 'drizzle-orm';
import { discountReservations } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Marks a discount reservation redeemed by a payment (docs/decisions/003-discount-codes-and-reservations.md: "a discount reservation is
 * redeemed once"; docs/requirements/platform.md §5.8). One conditional UPDATE: it sets redeemed_at and payment_ref only
 * while redeemed_at is null and the account has not redeemed the same code through another
 * reservation, so of two concurrent calls exactly one wins (PostgreSQL re-checks the condition on
 * the locked row; PGlite runs them one after the other).
 *
 * Expiry is not checked here: the payment step checks the hold with findReservedDiscount before
 * charging, in the same transaction, and must not lose a redemption it has already charged for.
 * Call it inside the payment's transaction so a rolled-back payment leaves the hold open.
 * Writes: discount_reservations.redeemed_at, payment_ref.
 * @param paymentRef the payment's reference (non-empty), kept with the redemption
 * @returns true when this call redeemed it; false when it was already redeemed or does not exist
 * @throws when `paymentRef` is empty; a unique violation only in the race where the same account
 *   redeems the same code through two reservations at once (the payment's transaction rolls back)
 */
export async function redeemReservation(
  tx: DbOrTx,
  reservationId: number,
  paymentRef: string,
  now: Date = new Date(),
): Promise<boolean> {
  if (typeof paymentRef !== 'string' || paymentRef.trim() === '')
    throw new Error('redeemReservation needs a payment reference');
  const redeemed = await tx
    .update(discountReservations)
    .set({ redeemedAt: now, paymentRef })
    .where(
      and(
        eq(discountReservations.id, reservationId),
        isNull(discountReservations.redeemedAt),
        sql`NOT EXISTS (SELECT 1 FROM ${discountReservations} AS r
        WHERE r.account_id = ${discountReservations.accountId} AND r.discount_id = ${discountReservations.discountId}
        AND r.redeemed_at IS NOT NULL)`,
      ),
    )
    .returning({ id: discountReservations.id });
  return redeemed.length === 1;
}
