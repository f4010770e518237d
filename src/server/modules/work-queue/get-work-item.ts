import { and, asc, eq, isNull, like, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditLog, users, workItemNotes, workItems } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { WorkItemDetail, WorkItemEvent, WorkQueueStaff } from '../../../shared/schemas/work-queue.ts';
import { selectWorkItems, staffName, toWorkItemRow } from './list-work-items.ts';

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

/** What one audited action on an item says in its history. */
function eventText(action: WorkItemEvent['action'], d: Record<string, unknown>): string {
  switch (action) {
    case 'assigned': return d.assignee ? `Assigned to ${String(d.assignee)}` : 'Unassigned';
    case 'note_added': return 'Note added';
    case 'resolved': return `Resolved: ${String(d.resolution ?? '')}`;
    case 'reopened': return 'Reopened';
    default: return '';
  }
}

/**
 * GET /api/admin/work-queue/{id} (docs/work-queue.md "One item"; staff only): the item as the
 * list shows it, with what was found in full (`details`), who resolved it, its notes (oldest
 * first) and its history: when the refresh found it, then every audited action on it
 * (audit_log rows `work_item.*` of its account, through audit_log_account), oldest first.
 * Reads work_items, accounts, users, irs_releases, work_item_notes, audit_log; writes nothing.
 * @throws HttpError 404 unknown item
 */
export async function getWorkItem(db: DbOrTx, id: number): Promise<WorkItemDetail> {
  const [record] = await selectWorkItems(db).where(eq(workItems.id, id));
  if (!record) throw notFound('The work item');
  const item = record.item;
  const [resolver] = item.resolvedBy === null ? [] : await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, item.resolvedBy));
  const notes = await db.select({ id: workItemNotes.id, body: workItemNotes.body, createdAt: workItemNotes.createdAt, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(workItemNotes).leftJoin(users, eq(users.id, workItemNotes.authorId))
    .where(eq(workItemNotes.itemId, id)).orderBy(asc(workItemNotes.createdAt), asc(workItemNotes.id));
  const audits = await db.select({ action: auditLog.action, details: auditLog.details, createdAt: auditLog.createdAt, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(auditLog).leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(and(
      item.accountId === null ? isNull(auditLog.accountId) : eq(auditLog.accountId, item.accountId),
      like(auditLog.action, 'work_item.%'),
      sql`${auditLog.details}->>'item_id' = ${String(id)}`,
    ))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  const who = (u: { firstName: string | null; lastName: string | null; email: string | null }) =>
    u.email === null ? null : staffName({ firstName: u.firstName ?? '', lastName: u.lastName ?? '', email: u.email });
  const history: WorkItemEvent[] = [
    { at: item.createdAt.toISOString(), action: 'found', actor: null, text: 'Found by the IRS data refresh' },
    ...audits.map((a) => {
      const action = a.action.slice('work_item.'.length) as WorkItemEvent['action'];
      return { at: a.createdAt.toISOString(), action, actor: who(a), text: eventText(action, a.details) };
    }),
  ];
  const resolvedBy: WorkQueueStaff | null = resolver ? { id: resolver.id, name: staffName(resolver), email: resolver.email } : null;
  return {
    ...toWorkItemRow(record),
    details: item.details,
    resolved_by: resolvedBy,
    notes: notes.map((n) => ({ id: n.id, body: n.body, author: who(n), created_at: n.createdAt.toISOString() })),
    history,
  };
}
