import { and, count, desc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';
import { DISCOUNT_MESSAGES, type AdminDiscount, type DiscountForm } from '../../../shared/schemas/admin-discounts.ts';
import { ADMIN_PER_PAGE } from '../../../shared/schemas/admin.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { discountReservations, discounts } from '../../db/schema.ts';
import { notFound, ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { changesOf } from './changes.ts';
import type { Db } from '../../db/client.ts';

const columns = {
  id: discounts.id,
  code: discounts.code,
  description: discounts.description,
  currencyValueCents: discounts.currencyValueCents,
  multiplier: discounts.multiplier,
  isNewAccount: discounts.isNewAccount,
  isRenewals: discounts.isRenewals,
  isUpgrades: discounts.isUpgrades,
  isServiceFees: discounts.isServiceFees,
  startsAt: discounts.startsAt,
  expiresAt: discounts.expiresAt,
  maxRedemptions: discounts.maxRedemptions,
  isActive: discounts.isActive,
  createdAt: discounts.createdAt,
};
type Row = { [K in keyof typeof columns]: (typeof discounts.$inferSelect)[K] };

/** A row -> the admin payload (snake case, multiplier read to 6 decimals). */
function toAdminDiscount(row: Row, used: number): AdminDiscount {
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
    starts_at: row.startsAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    max_redemptions: row.maxRedemptions,
    is_active: row.isActive,
    used,
    created_at: row.createdAt.toISOString(),
  };
}

/** Redeemed reservations per discount id (the payments that used each code). */
async function usedCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: discountReservations.discountId, used: count() })
    .from(discountReservations)
    .where(and(inArray(discountReservations.discountId, ids), isNotNull(discountReservations.redeemedAt)))
    .groupBy(discountReservations.discountId);
  return new Map(rows.map((r) => [r.id, r.used]));
}

/** A page of discount codes, newest first, each with how many payments used it. */
export async function listDiscounts(db: Db, page: number): Promise<PageObject<AdminDiscount>> {
  const [{ total }] = await db.select({ total: count() }).from(discounts);
  const rows = await db
    .select(columns)
    .from(discounts)
    .orderBy(desc(discounts.id))
    .limit(ADMIN_PER_PAGE)
    .offset((page - 1) * ADMIN_PER_PAGE);
  const used = await usedCounts(
    db,
    rows.map((r) => r.id),
  );
  return buildPage(
    rows.map((r) => toAdminDiscount(r, used.get(r.id) ?? 0)),
    page,
    ADMIN_PER_PAGE,
    total,
    (p) => `?page=${p}`,
  );
}

/** The form's output -> the table's columns. */
function valuesOf(input: DiscountForm) {
  return {
    code: input.code,
    description: input.description,
    currencyValueCents: input.currency_value_cents,
    multiplier: input.multiplier,
    isNewAccount: input.is_new_account,
    isRenewals: input.is_renewals,
    isUpgrades: input.is_upgrades,
    isServiceFees: input.is_service_fees,
    startsAt: input.starts_at,
    expiresAt: input.expires_at,
    maxRedemptions: input.max_redemptions,
    isActive: input.is_active,
  };
}

/**
 * Creates (id undefined) or updates a discount code. Codes are never deleted: redeemed ones stay
 * for the payments that used them; admins switch them off with `is_active`.
 * Writes: discounts row, one audit_log row ('discount.created' | 'discount.updated', with the
 * changed fields; an update that changes nothing writes none).
 * @throws ValidationError 422 on `code` when another discount has the code
 * @throws HttpError 404 when updating a missing discount
 */
export async function saveDiscount(
  db: Db,
  input: DiscountForm,
  adminId: number,
  ip: string,
  id?: number,
): Promise<AdminDiscount> {
  const values = valuesOf(input);
  try {
    const saved = await db.transaction(async (tx) => {
      const [before] =
        id === undefined ? [] : await tx.select(columns).from(discounts).where(eq(discounts.id, id)).for('update');
      if (id !== undefined && !before) throw notFound('The discount code');
      const [taken] = await tx
        .select({ id: discounts.id })
        .from(discounts)
        .where(
          id === undefined ? eq(discounts.code, input.code) : and(eq(discounts.code, input.code), ne(discounts.id, id)),
        )
        .limit(1);
      if (taken) throw ValidationError.field('code', DISCOUNT_MESSAGES.codeTaken);
      if (id === undefined) {
        const [row] = await tx.insert(discounts).values(values).returning(columns);
        await recordAudit(tx, {
          actorUserId: adminId,
          action: 'discount.created',
          details: { discountId: row.id, code: row.code },
          ip,
        });
        return row;
      }
      const [row] = await tx.update(discounts).set(values).where(eq(discounts.id, id)).returning(columns);
      const changes = changesOf(before, row);
      if (Object.keys(changes).length)
        await recordAudit(tx, {
          actorUserId: adminId,
          action: 'discount.updated',
          details: { discountId: id, code: row.code, changes },
          ip,
        });
      return row;
    });
    const used = await usedCounts(db, [saved.id]);
    return toAdminDiscount(saved, used.get(saved.id) ?? 0);
  } catch (err) {
    // Two admins saving the same new code at once: the unique index decides.
    if (isUniqueViolation(err)) throw ValidationError.field('code', DISCOUNT_MESSAGES.codeTaken);
    throw err;
  }
}
