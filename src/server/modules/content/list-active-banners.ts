import { asc, eq } from 'drizzle-orm';
import { banners } from '../../db/schema.ts';
import { cachedPerDb } from './ttl-cache.ts';
import type { Db } from '../../db/client.ts';

interface PublicBanner {
  id: number;
  kind: string;
  text: string;
}

const cache = cachedPerDb(10_000, (db: Db): Promise<PublicBanner[]> =>
  db
    .select({ id: banners.id, kind: banners.kind, text: banners.text })
    .from(banners)
    .where(eq(banners.isActive, true))
    .orderBy(asc(banners.id)),
);

/** Active holiday-alert and urgent-alert banners (docs/requirements/behaviour.md "Banner"), cached for 10 s. */
export const listActiveBanners = (db: Db) => cache.get(db);
export const invalidateBanners = (db: Db) => cache.invalidate(db);
