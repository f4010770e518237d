import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { levels } from '../../db/schema.ts';

export interface PublicLevel {
  id: number;
  slug: string;
  name: string;
  description: string;
  /** Regular price, integer cents. */
  priceCents: number;
  /** Early-bird price, integer cents. */
  priceDiscountCents: number;
  renewalFeatures: string[];
}

/** Public levels for /pricing, in display order. */
export async function listLevels(db: Db): Promise<PublicLevel[]> {
  return db
    .select({
      id: levels.id, slug: levels.slug, name: levels.name, description: levels.description,
      priceCents: levels.priceCents, priceDiscountCents: levels.priceDiscountCents, renewalFeatures: levels.renewalFeatures,
    })
    .from(levels)
    .where(eq(levels.isPublic, true))
    .orderBy(asc(levels.sortOrder), asc(levels.id));
}
