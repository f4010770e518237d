import { eq } from 'drizzle-orm';
import { determinationLetters, workItems } from '../../db/schema.ts';
import { HttpError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { LINK_MESSAGES, linkBlocker } from './link-blocker.ts';
import { findWorkItem, WORK_ITEM_MESSAGES } from './work-item-rows.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';
import type { WorkItemActionAnswer } from './work-item-action-answer.ts';

/**
 * POST /api/admin/work-queue/{id}/resolve `{ resolution }` (docs/work-queue.md "Actions"; staff
 * only): closes an open item with what was done. A later build does not bring it back (its key
 * stays taken). Audited as `work_item.resolved` with the resolution.
 * Writes work_items (status, resolved_by, resolved_at, resolution, updated_at), audit_log (one
 * transaction, the item locked).
 * An item about a determination letter still pending is resolved only by its review
 * (docs/work-queue.md "Determination letters"), so the letter cannot be left waiting unseen; an
 * applicant to link only by linking, while that is still possible (docs/work-queue.md "Applicants to link").
 * @throws HttpError 404 unknown item; 409 when it is already resolved, its letter is pending, or
 *   its applicant can still be linked
 */
export async function resolveWorkItem(
  db: Db,
  itemId: number,
  resolution: string,
  actor: Pick<Actor, 'userId' | 'ip'>,
): Promise<WorkItemActionAnswer> {
  return db.transaction(async (tx) => {
    const item = await findWorkItem(tx, itemId, true);
    if (item.status !== 'open') throw new HttpError(409, WORK_ITEM_MESSAGES.alreadyResolved);
    if (item.kind === 'determination_letter') {
      const [letter] = await tx
        .select({ status: determinationLetters.status })
        .from(determinationLetters)
        .where(eq(determinationLetters.id, Number(item.details.letter_id) || 0));
      if (letter?.status === 'pending') throw new HttpError(409, WORK_ITEM_MESSAGES.letterPending);
    }
    if (item.kind === 'link_request' && (await linkBlocker(tx, item)) === null)
      throw new HttpError(409, LINK_MESSAGES.linkFirst);
    const now = new Date();
    await tx
      .update(workItems)
      .set({ status: 'resolved', resolvedBy: actor.userId, resolvedAt: now, resolution, updatedAt: now })
      .where(eq(workItems.id, item.id));
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId: item.accountId,
      action: 'work_item.resolved',
      ip: actor.ip,
      details: { item_id: item.id, kind: item.kind, resolution },
    });
    return { id: item.id, message: WORK_ITEM_MESSAGES.resolved };
  });
}
