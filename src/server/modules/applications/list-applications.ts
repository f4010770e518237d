import { and, desc, eq } from 'drizzle-orm';
import { applications, levels } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';

/**
 * The signed-in user's applications that can still be resumed, newest first (account area), each
 * with its `id`: the handle of its wizard link /application/create/{id} (the mailed token is not
 * stored, see application-handle.ts).
 */
export async function listMyDrafts(db: Db, userId: number) {
  return db
    .select({
      id: applications.id,
      level: levels.name,
      status: applications.status,
      updated_at: applications.updatedAt,
    })
    .from(applications)
    .innerJoin(levels, eq(levels.id, applications.levelId))
    .where(and(eq(applications.userId, userId), eq(applications.status, 'draft')))
    .orderBy(desc(applications.updatedAt));
}
