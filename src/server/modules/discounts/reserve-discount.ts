import { and, count, eq, gt, isNotNull, isNull, ne, or } from 'drizzle-orm';
import { normalizeDiscountCode, toDiscountPayload, type DiscountPayload } from '../../../shared/rules/billing.ts';
import { discountReservations, discounts } from '../../db/schema.ts';
import { recordAudit } from '../audit/record-audit.ts';
import {
  DISCOUNT_CODE_FORMAT,
  discountAvailability,
  reservationExpiry,
  toDiscount,
  type DiscountRefusal,
} from './discount-row.ts';
import type { Db } from '../../db/client.ts';

/** A code reserved for the account: the discount as it travels, and the hold. */
interface DiscountReserved {
  /** docs/requirements/entities.md "Discount" with `currency_value` in decimal dollars. */
  discount: DiscountPayload;
  reservation_id: number;
  /** ISO 8601: when the hold ends unless reserved again. */
  expires_at: string;
}

/** No discount: removed on purpose or not usable. `reason` is for the server's log only (docs/requirements/errors.md). */
interface DiscountNotReserved {
  discount: null;
  reason: DiscountRefusal;
}

export type ReserveDiscountResult = DiscountReserved | DiscountNotReserved;

export interface ReserveDiscountOptions {
  /** An admin acting for the account: the reservation is written to audit_log. */
  onBehalf?: boolean;
  ip?: string;
  /** The clock, for tests. */
  now?: Date;
}

/**
 * POST /app/discount/reserve (docs/requirements/calls.md; docs/requirements/behaviour.md "Discount code"; docs/requirements/validation.md "An empty code removes the
 * discount"; docs/requirements/errors.md "An invalid discount code silently removes the discount").
 *
 * The code is normalised (trimmed, upper case). An empty code gives `{ discount: null, reason:
 * 'removed' }` and writes nothing. A code that is unknown, inactive, not started or expired, used
 * up (redeemed plus other accounts' unexpired holds reach max_redemptions) or already redeemed by
 * this account gives `{ discount: null, reason }` as well. A usable code creates the account's
 * open reservation or refreshes it (one per account and code): held for RESERVATION_MINUTES (30),
 * or until the discount expires if sooner.
 *
 * One transaction; the discount row is locked (FOR UPDATE) so concurrent reserves of a capped
 * code cannot both take its last place. Writes: discount_reservations; audit_log when `onBehalf`.
 * @param accountId the account the code is for (already authorised by resolveAccount)
 * @param userId who reserves (discount_reservations.reserved_by)
 * @param code the code as typed; anything but a string counts as empty
 */
export async function reserveDiscount(
  db: Db,
  accountId: number,
  userId: number,
  code: unknown,
  opts: ReserveDiscountOptions = {},
): Promise<ReserveDiscountResult> {
  const normalized = normalizeDiscountCode(code);
  if (normalized === '') return { discount: null, reason: 'removed' };
  if (!DISCOUNT_CODE_FORMAT.test(normalized)) return { discount: null, reason: 'unknown' };
  const now = opts.now ?? new Date();

  return db.transaction(async (tx): Promise<ReserveDiscountResult> => {
    const [row] = await tx.select().from(discounts).where(eq(discounts.code, normalized)).limit(1).for('update');
    if (!row) return { discount: null, reason: 'unknown' };
    const unavailable = discountAvailability(row, now);
    if (unavailable) return { discount: null, reason: unavailable };

    const [redeemed] = await tx
      .select({ id: discountReservations.id })
      .from(discountReservations)
      .where(
        and(
          eq(discountReservations.discountId, row.id),
          eq(discountReservations.accountId, accountId),
          isNotNull(discountReservations.redeemedAt),
        ),
      )
      .limit(1);
    if (redeemed) return { discount: null, reason: 'already_redeemed' };

    if (row.maxRedemptions !== null) {
      // Places taken: every redemption, and other accounts' holds that have not run out.
      const [{ taken }] = await tx
        .select({ taken: count() })
        .from(discountReservations)
        .where(
          and(
            eq(discountReservations.discountId, row.id),
            or(
              isNotNull(discountReservations.redeemedAt),
              and(gt(discountReservations.expiresAt, now), ne(discountReservations.accountId, accountId)),
            ),
          ),
        );
      if (taken >= row.maxRedemptions) return { discount: null, reason: 'exhausted' };
    }

    const expiresAt = reservationExpiry(now, row.expiresAt);
    const [held] = await tx
      .insert(discountReservations)
      .values({ discountId: row.id, accountId, reservedBy: userId, reservedAt: now, expiresAt })
      .onConflictDoUpdate({
        target: [discountReservations.accountId, discountReservations.discountId],
        targetWhere: isNull(discountReservations.redeemedAt),
        set: { reservedBy: userId, reservedAt: now, expiresAt },
      })
      .returning({ id: discountReservations.id, expiresAt: discountReservations.expiresAt });

    if (opts.onBehalf) {
      await recordAudit(tx, {
        actorUserId: userId,
        accountId,
        action: 'discount.reserved',
        details: { discountId: row.id, reservationId: held.id },
        ip: opts.ip,
      });
    }
    return {
      discount: toDiscountPayload(toDiscount(row)),
      reservation_id: held.id,
      expires_at: held.expiresAt.toISOString(),
    };
  });
}
