import { asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { LEVEL_MESSAGES, type AdminLevel, type LevelForm } from '../../../shared/schemas/admin-levels.ts';
import { levels } from '../../db/schema.ts';
import { notFound, ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { changesOf } from './changes.ts';
import type { Db } from '../../db/client.ts';

const target = alias(levels, 'upgrade_target');

/** Every level, public or not, in display order, with prices in cents and the upgrade target's name. */
export async function listAdminLevels(db: Db): Promise<AdminLevel[]> {
  return db
    .select({
      id: levels.id,
      slug: levels.slug,
      name: levels.name,
      is_public: levels.isPublic,
      price_cents: levels.priceCents,
      price_discount_cents: levels.priceDiscountCents,
      upgrade_to_id: levels.upgradeToId,
      upgrade_to_name: target.name,
      upgrade_cents: levels.upgradeCents,
      upgrade_discount_cents: levels.upgradeDiscountCents,
      inc_package_cents: levels.incPackageCents,
      inc_package_discount_cents: levels.incPackageDiscountCents,
      renewal_features: levels.renewalFeatures,
    })
    .from(levels)
    .leftJoin(target, eq(target.id, levels.upgradeToId))
    .orderBy(asc(levels.sortOrder), asc(levels.id));
}

const priceColumns = {
  priceCents: levels.priceCents,
  priceDiscountCents: levels.priceDiscountCents,
  upgradeToId: levels.upgradeToId,
  upgradeCents: levels.upgradeCents,
  upgradeDiscountCents: levels.upgradeDiscountCents,
  incPackageCents: levels.incPackageCents,
  incPackageDiscountCents: levels.incPackageDiscountCents,
  renewalFeatures: levels.renewalFeatures,
};

/**
 * Saves a level's prices, early-bird prices (each at most its price, checked by the schema),
 * upgrade target and renewal features. The /pricing page and renewals read them at once.
 * Writes: levels row, one audit_log row ('level.updated' with the changed fields; none when nothing changed).
 * @throws HttpError 404 for a missing level
 * @throws ValidationError 422 on `upgrade_to_id` when the target is this level or does not exist
 */
export async function saveLevelPrices(
  db: Db,
  id: number,
  input: LevelForm,
  adminId: number,
  ip: string,
): Promise<AdminLevel> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select(priceColumns).from(levels).where(eq(levels.id, id)).for('update');
    if (!before) throw notFound('The level');
    if (input.upgrade_to_id !== null) {
      const [other] = await tx.select({ id: levels.id }).from(levels).where(eq(levels.id, input.upgrade_to_id));
      if (!other || other.id === id) throw ValidationError.field('upgrade_to_id', LEVEL_MESSAGES.upgradeTarget);
    }
    const [after] = await tx
      .update(levels)
      .set({
        priceCents: input.price,
        priceDiscountCents: input.price_discount,
        upgradeToId: input.upgrade_to_id,
        upgradeCents: input.upgrade,
        upgradeDiscountCents: input.upgrade_discount,
        incPackageCents: input.inc_package,
        incPackageDiscountCents: input.inc_package_discount,
        renewalFeatures: input.renewal_features,
      })
      .where(eq(levels.id, id))
      .returning(priceColumns);
    const changes = changesOf(before, after);
    if (Object.keys(changes).length)
      await recordAudit(tx, { actorUserId: adminId, action: 'level.updated', details: { levelId: id, changes }, ip });
  });
  const saved = (await listAdminLevels(db)).find((l) => l.id === id);
  if (!saved) throw notFound('The level');
  return saved;
}
