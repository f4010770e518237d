import { and, asc, eq, inArray, isNull, like, or, sql } from 'drizzle-orm';
import { auditLog, determinationLetters, files, users, workItemNotes, workItems } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { linkView } from './link-blocker.ts';
import { selectWorkItems, staffName, toWorkItemRow } from './list-work-items.ts';
import type { WorkItemDetail, WorkItemEvent, WorkQueueStaff } from '../../../shared/schemas/work-queue.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { WorkItem } from './work-item-rows.ts';

/** What one audited action on an item says in its history. */
function eventText(action: WorkItemEvent['action'], d: Record<string, unknown>): string {
  switch (action) {
    case 'assigned':
      return d.assignee ? `Assigned to ${String(d.assignee)}` : 'Unassigned';
    case 'note_added':
      return 'Note added';
    case 'resolved':
      return `Resolved: ${String(d.resolution ?? '')}`;
    case 'reopened':
      return 'Reopened';
    case 'letter_accepted':
      return `Letter accepted, dated ${String(d.letter_date ?? '')}`;
    case 'letter_returned':
      return `Letter sent back: ${String(d.reason ?? '')}`;
    case 'applicant_linked':
      return 'Applicant linked as the primary user';
    default:
      return '';
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
  const [resolver] =
    item.resolvedBy === null
      ? []
      : await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
          .from(users)
          .where(eq(users.id, item.resolvedBy));
  const notes = await db
    .select({
      id: workItemNotes.id,
      body: workItemNotes.body,
      createdAt: workItemNotes.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(workItemNotes)
    .leftJoin(users, eq(users.id, workItemNotes.authorId))
    .where(eq(workItemNotes.itemId, id))
    .orderBy(asc(workItemNotes.createdAt), asc(workItemNotes.id));
  const audits = await db
    .select({
      action: auditLog.action,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(
      and(
        item.accountId === null ? isNull(auditLog.accountId) : eq(auditLog.accountId, item.accountId),
        or(like(auditLog.action, 'work_item.%'), inArray(auditLog.action, [...Object.keys(ITEM_ACTIONS)])),
        sql`${auditLog.details}->>'item_id' = ${String(id)}`,
      ),
    )
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  const who = (u: { firstName: string | null; lastName: string | null; email: string | null }) =>
    u.email === null ? null : staffName({ firstName: u.firstName ?? '', lastName: u.lastName ?? '', email: u.email });
  const history: WorkItemEvent[] = [
    {
      at: item.createdAt.toISOString(),
      action: 'found',
      actor: null,
      text: FOUND_TEXT[item.kind] ?? 'Found by the IRS data refresh',
    },
    ...audits.map((a) => {
      const action = (
        a.action.startsWith('work_item.') ? a.action.slice('work_item.'.length) : ITEM_ACTIONS[a.action]
      ) as WorkItemEvent['action'];
      return { at: a.createdAt.toISOString(), action, actor: who(a), text: eventText(action, a.details) };
    }),
  ];
  const resolvedBy: WorkQueueStaff | null = resolver
    ? { id: resolver.id, name: staffName(resolver), email: resolver.email }
    : null;
  return {
    ...toWorkItemRow(record),
    details: item.details,
    resolved_by: resolvedBy,
    notes: notes.map((n) => ({ id: n.id, body: n.body, author: who(n), created_at: n.createdAt.toISOString() })),
    history,
    letter: item.kind === 'determination_letter' ? await letterView(db, Number(item.details.letter_id)) : null,
    link: item.kind === 'link_request' ? await linkView(db, item) : null,
  };
}

/** The audit codes of the actions of one kind of item, shown in its history, and their event names. */
const ITEM_ACTIONS: Record<string, WorkItemEvent['action']> = {
  'account.determination_letter.accepted': 'letter_accepted',
  'account.determination_letter.returned': 'letter_returned',
  'account.applicant_linked': 'applicant_linked',
};

/** How an item that the IRS data refresh did not find came to be. */
const FOUND_TEXT: Partial<Record<WorkItem['kind'], string>> = {
  determination_letter: 'Uploaded by the group',
  link_request: 'Refused at Submit: the EIN is an account imported from the IRS data',
};

/** The determination letter of an item as its drawer shows it (docs/work-queue.md "Determination letters"). */
async function letterView(db: DbOrTx, letterId: number): Promise<WorkItemDetail['letter']> {
  if (!Number.isInteger(letterId)) return null;
  const [l] = await db
    .select({
      status: determinationLetters.status,
      letterDate: determinationLetters.letterDate,
      reason: determinationLetters.returnReason,
      fileName: files.fileName,
    })
    .from(determinationLetters)
    .leftJoin(files, eq(files.id, determinationLetters.fileId))
    .where(eq(determinationLetters.id, letterId));
  return l ? { status: l.status, file_name: l.fileName, letter_date: l.letterDate, return_reason: l.reason } : null;
}
