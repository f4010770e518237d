import { eq } from 'drizzle-orm';
import { workItems } from '../../db/schema.ts';
import { HttpError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { findWorkItem, WORK_ITEM_MESSAGES } from './work-item-rows.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';
import type { WorkItemActionAnswer } from './work-item-action-answer.ts';

/**
 * POST /api/admin/work-queue/{id}/reopen (docs/work-queue.md "Actions"; staff only): opens a
 * resolved item again, clearing its resolution (kept in the audit log). Audited as
 * `work_item.reopened` with the resolution it had.
 * Writes work_items, audit_log (one transaction, the item locked).
 * @throws HttpError 404 unknown item; 409 when it is open
 */
export async function reopenWorkItem(
  db: Db,
  itemId: number,
  actor: Pick<Actor, 'userId' | 'ip'>,
): Promise<WorkItemActionAnswer> {
  return db.transaction(async (tx) => {
    const item = await findWorkItem(tx, itemId, true);
    if (item.status !== 'resolved') throw new HttpError(409, WORK_ITEM_MESSAGES.alreadyOpen);
    await tx
      .update(workItems)
      .set({ status: 'open', resolvedBy: null, resolvedAt: null, resolution: '', updatedAt: new Date() })
      .where(eq(workItems.id, item.id));
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId: item.accountId,
      action: 'work_item.reopened',
      ip: actor.ip,
      details: { item_id: item.id, kind: item.kind, previous_resolution: item.resolution },
    });
    return { id: item.id, message: WORK_ITEM_MESSAGES.reopened };
  });
}
