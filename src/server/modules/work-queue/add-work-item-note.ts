import { eq } from 'drizzle-orm';
import { workItemNotes, workItems } from '../../db/schema.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { findWorkItem } from './work-item-rows.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';
import type { WorkItemActionAnswer } from './work-item-action-answer.ts';

/**
 * POST /api/admin/work-queue/{id}/notes `{ body }` (docs/work-queue.md "Actions"; staff only):
 * adds a note by the actor to the item, open or resolved. Audited as `work_item.note_added` with
 * the note's id and text.
 * Writes work_item_notes, work_items.updated_at, audit_log (one transaction).
 * @throws HttpError 404 unknown item
 */
export async function addWorkItemNote(
  db: Db,
  itemId: number,
  body: string,
  actor: Pick<Actor, 'userId' | 'ip'>,
): Promise<WorkItemActionAnswer> {
  return db.transaction(async (tx) => {
    const item = await findWorkItem(tx, itemId, true);
    const [note] = await tx
      .insert(workItemNotes)
      .values({ itemId: item.id, authorId: actor.userId, body })
      .returning({ id: workItemNotes.id });
    await tx.update(workItems).set({ updatedAt: new Date() }).where(eq(workItems.id, item.id));
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId: item.accountId,
      action: 'work_item.note_added',
      ip: actor.ip,
      details: { item_id: item.id, kind: item.kind, note_id: note.id, body },
    });
    return { id: item.id, message: 'The note was added.' };
  });
}
