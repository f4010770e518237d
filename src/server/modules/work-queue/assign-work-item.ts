import { and, eq } from 'drizzle-orm';
import { users, workItems } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { staffName } from './list-work-items.ts';
import { findWorkItem } from './work-item-rows.ts';
import type { WorkItemAssignInput } from '../../../shared/schemas/work-queue.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';
import type { WorkItemActionAnswer } from './work-item-action-answer.ts';

/**
 * POST /api/admin/work-queue/{id}/assign `{ assignee }` (docs/work-queue.md "Actions"; staff only):
 * gives the item to a staff user ('me' is the actor), or to nobody (null). Works on open and
 * resolved items alike. Audited as `work_item.assigned` with the item, its kind, the new and the
 * previous assignee.
 * Writes work_items.assigned_to, updated_at; audit_log (one transaction).
 * @throws HttpError 404 unknown item; ValidationError (422, `assignee`) when the user is not staff
 */
export async function assignWorkItem(
  db: Db,
  itemId: number,
  input: WorkItemAssignInput,
  actor: Pick<Actor, 'userId' | 'ip'>,
): Promise<WorkItemActionAnswer> {
  const targetId = input.assignee === 'me' ? actor.userId : input.assignee;
  const [target] =
    targetId === null
      ? [null]
      : await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
          .from(users)
          .where(and(eq(users.id, targetId), eq(users.isAdmin, true)));
  if (target === undefined) throw ValidationError.field('assignee', 'The selected assignee is not a staff user.');
  return db.transaction(async (tx) => {
    const item = await findWorkItem(tx, itemId, true);
    await tx
      .update(workItems)
      .set({ assignedTo: target?.id ?? null, updatedAt: new Date() })
      .where(eq(workItems.id, item.id));
    const name = target ? staffName(target) : null;
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId: item.accountId,
      action: 'work_item.assigned',
      ip: actor.ip,
      details: {
        item_id: item.id,
        kind: item.kind,
        assignee_id: target?.id ?? null,
        assignee: name,
        previous_assignee_id: item.assignedTo,
      },
    });
    return { id: item.id, message: name ? `The item was assigned to ${name}.` : 'The item is no longer assigned.' };
  });
}
