import { and, eq, gt, isNull } from 'drizzle-orm';
import { discountReservations, discounts } from '../../db/schema.ts';
import { toDiscount } from './discount-row.ts';
import type { Discount } from '../../../shared/rules/billing.ts';
import type { DbOrTx } from '../../db/client.ts';

/** A discount the account holds, with the reservation the payment step redeems. */
export interface ReservedDiscount extends Discount {
  /** discount_reservations.id, for redeemReservation. */
  reservationId: number;
  /** When the hold ends. */
  reservationExpiresAt: Date;
}

/**
 * The discount `discountId` (docs/requirements/entities.md payment payloads' `discount_id`) for the payment step to
 * recompute totals with (docs/requirements/platform.md §5.8; docs/requirements/validation.md "Discounts and totals"): returned only while
 * `accountId` holds an unexpired, unredeemed reservation of it and the discount is still active;
 * null otherwise (never reserved, expired, redeemed, another account's, switched off).
 * The result is a Discount (integer cents, multiplier fraction) usable with billingSummary, plus
 * `reservationId` to pass to redeemReservation in the same transaction. Reads only.
 */
export async function findReservedDiscount(
  db: DbOrTx,
  accountId: number,
  discountId: number,
  now: Date = new Date(),
): Promise<ReservedDiscount | null> {
  const [row] = await db
    .select({
      discount: discounts,
      reservationId: discountReservations.id,
      reservationExpiresAt: discountReservations.expiresAt,
    })
    .from(discountReservations)
    .innerJoin(discounts, eq(discounts.id, discountReservations.discountId))
    .where(
      and(
        eq(discountReservations.accountId, accountId),
        eq(discountReservations.discountId, discountId),
        isNull(discountReservations.redeemedAt),
        gt(discountReservations.expiresAt, now),
        eq(discounts.isActive, true),
      ),
    )
    .limit(1);
  if (!row) return null;
  return {
    ...toDiscount(row.discount),
    reservationId: row.reservationId,
    reservationExpiresAt: row.reservationExpiresAt,
  };
}
