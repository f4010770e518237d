import { asc, eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { staffName } from './list-work-items.ts';
import type { WorkQueueStaff } from '../../../shared/schemas/work-queue.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * GET /api/admin/work-queue/staff (docs/work-queue.md "Actions"; staff only): the staff users an
 * item can be assigned to (users.is_admin), by name. Reads users; writes nothing.
 */
export async function listWorkQueueStaff(db: DbOrTx): Promise<WorkQueueStaff[]> {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.isAdmin, true))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email))
    .limit(500);
  return rows.map((u) => ({ id: u.id, name: staffName(u), email: u.email }));
}
