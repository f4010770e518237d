import type { Discount } from '../../../shared/rules/billing.ts';
import type { discounts } from '../../db/schema.ts';

/**
 * Pure helpers shared by the discount services (docs/requirements/entities.md "Discount", docs/requirements/validation.md "Discounts and totals",
 * docs/requirements/errors.md "An invalid discount code silently removes the discount").
 */

/** How long a reservation holds a code for the account, in minutes (refreshed by each reserve). */
export const RESERVATION_MINUTES = 30;

/** What a stored code looks like (the `discounts_code_format` check): A-Z, 0-9, '-' and '_', 1 to 64 long. */
export const DISCOUNT_CODE_FORMAT = /^[A-Z0-9_-]{1,64}$/;

/**
 * Why a reserve gave no discount. Logged by the route, never sent: the payer only sees the
 * discount removed (docs/requirements/errors.md).
 */
export type DiscountRefusal =
  'removed' | 'unknown' | 'inactive' | 'not_started' | 'expired' | 'exhausted' | 'already_redeemed';

export type DiscountRow = typeof discounts.$inferSelect;

/**
 * A `discounts` row -> the shared rules' Discount (docs/requirements/entities.md field names; fixed value in integer
 * cents, multiplier as a fraction such as 0.25). The numeric(7,6) multiplier arrives as a number
 * (or its decimal text on some drivers) and is read to its 6 decimals.
 */
export function toDiscount(
  row: Pick<
    DiscountRow,
    | 'id'
    | 'code'
    | 'description'
    | 'currencyValueCents'
    | 'multiplier'
    | 'isNewAccount'
    | 'isRenewals'
    | 'isUpgrades'
    | 'isServiceFees'
  >,
): Discount {
  const multiplier = Number(row.multiplier);
  return {
    id: row.id,
    code: row.code,
    description: row.description,
    currency_value_cents: row.currencyValueCents,
    multiplier: Number.isFinite(multiplier) ? Number(multiplier.toFixed(6)) : 0,
    is_new_account: row.isNewAccount,
    is_renewals: row.isRenewals,
    is_upgrades: row.isUpgrades,
    is_service_fees: row.isServiceFees,
  };
}

/**
 * Whether a discount can be reserved at `now`, judged on its own row: 'inactive' when switched
 * off, 'not_started' before `starts_at`, 'expired' from `expires_at` on; null when usable.
 * (Redemption caps and earlier redemptions need the reservations: see reserveDiscount.)
 */
export function discountAvailability(
  row: Pick<DiscountRow, 'isActive' | 'startsAt' | 'expiresAt'>,
  now: Date,
): 'inactive' | 'not_started' | 'expired' | null {
  if (!row.isActive) return 'inactive';
  if (row.startsAt && row.startsAt.getTime() > now.getTime()) return 'not_started';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}

/**
 * When a reservation made at `now` ends: `RESERVATION_MINUTES` later, or when the discount itself
 * expires if that comes first.
 */
export function reservationExpiry(now: Date, discountExpiresAt: Date | null): Date {
  const end = new Date(now.getTime() + RESERVATION_MINUTES * 60_000);
  return discountExpiresAt && discountExpiresAt.getTime() < end.getTime() ? new Date(discountExpiresAt.getTime()) : end;
}
