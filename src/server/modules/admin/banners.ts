import { asc, eq } from 'drizzle-orm';
import { banners } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { invalidateBanners } from '../content/list-active-banners.ts';
import type { AdminBanner, BannerInput } from '../../../shared/schemas/admin.ts';
import type { Db } from '../../db/client.ts';

const columns = {
  id: banners.id,
  kind: banners.kind,
  text: banners.text,
  is_active: banners.isActive,
  updated_at: banners.updatedAt,
};

/** A banner row as the admin screen reads it, its time in ISO 8601. */
const view = (row: { id: number; kind: string; text: string; is_active: boolean; updated_at: Date }): AdminBanner => ({
  ...row,
  updated_at: row.updated_at.toISOString(),
});

/** Every banner, active or not, for the admin screen, by id. Reads banners. */
export async function listBanners(db: Db): Promise<AdminBanner[]> {
  return (await db.select(columns).from(banners).orderBy(asc(banners.id))).map(view);
}

/**
 * Creates (id undefined) or updates a banner. Writes: banners row, audit_log row.
 * @throws HttpError 404 when updating a missing banner
 */
export async function saveBanner(
  db: Db,
  input: BannerInput,
  adminId: number,
  ip: string,
  id?: number,
): Promise<AdminBanner> {
  const values = { kind: input.kind, text: input.text, isActive: input.is_active, updatedAt: new Date() };
  const row = await db.transaction(async (tx) => {
    const [saved] = id
      ? await tx.update(banners).set(values).where(eq(banners.id, id)).returning(columns)
      : await tx.insert(banners).values(values).returning(columns);
    if (!saved) throw notFound('The banner');
    await recordAudit(tx, {
      actorUserId: adminId,
      action: id ? 'banner.updated' : 'banner.created',
      details: { bannerId: saved.id },
      ip,
    });
    return saved;
  });
  invalidateBanners(db);
  return view(row);
}

/** Deletes a banner. Writes: banners, audit_log. @throws HttpError 404 */
export async function deleteBanner(db: Db, id: number, adminId: number, ip: string) {
  await db.transaction(async (tx) => {
    const gone = await tx.delete(banners).where(eq(banners.id, id)).returning({ id: banners.id });
    if (!gone.length) throw notFound('The banner');
    await recordAudit(tx, { actorUserId: adminId, action: 'banner.deleted', details: { bannerId: id }, ip });
  });
  invalidateBanners(db);
}
