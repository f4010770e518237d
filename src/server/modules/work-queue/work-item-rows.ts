import { eq } from 'drizzle-orm';
import { workItems } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The answers of the work item actions (docs/work-queue.md "Actions"). */
export const WORK_ITEM_MESSAGES = {
  resolved: 'The item was resolved.',
  alreadyResolved: 'This item is already resolved.',
  reopened: 'The item was reopened.',
  alreadyOpen: 'This item is already open.',
  letterPending: 'Accept the letter or send it back: that resolves this item.',
} as const;

export type WorkItem = typeof workItems.$inferSelect;

/**
 * The work item `id` (for the actions), locked FOR UPDATE when `lock` (inside a transaction).
 * @throws HttpError 404 when there is none
 */
export async function findWorkItem(db: DbOrTx, id: number, lock = false): Promise<WorkItem> {
  const query = db.select().from(workItems).where(eq(workItems.id, id));
  const [item] = lock ? await query.for('update') : await query;
  if (!item) throw notFound('The work item');
  return item;
}
