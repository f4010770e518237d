import { asc, eq } from 'drizzle-orm';
import { levels } from '../../db/schema.ts';
import type { PublicLevel } from '../../../shared/schemas/content.ts';
import type { Db } from '../../db/client.ts';

/** Public levels for /pricing, in display order. */
export async function listLevels(db: Db): Promise<PublicLevel[]> {
  return db
    .select({
      id: levels.id,
      slug: levels.slug,
      name: levels.name,
      description: levels.description,
      priceCents: levels.priceCents,
      priceDiscountCents: levels.priceDiscountCents,
      renewalFeatures: levels.renewalFeatures,
    })
    .from(levels)
    .where(eq(levels.isPublic, true))
    .orderBy(asc(levels.sortOrder), asc(levels.id));
}
