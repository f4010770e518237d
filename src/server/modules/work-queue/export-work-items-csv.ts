import { and, eq } from 'drizzle-orm';
import { WORK_QUEUE_CSV_MAX, type WorkQueueQuery } from '../../../shared/schemas/work-queue.ts';
import { csvText } from '../../csv.ts';
import { workItems } from '../../db/schema.ts';
import { selectWorkItems, toWorkItemRow, workQueueFilters, workQueueOrder } from './list-work-items.ts';
import type { DbOrTx } from '../../db/client.ts';

const HEADER = [
  'Item',
  'Kind',
  'Status',
  'Account',
  'Account name',
  'EIN',
  'What was found',
  'IRS release',
  'Assigned to',
  'Found',
  'Updated',
  'Resolved',
  'Resolution',
  'Account page',
];

/**
 * GET /api/admin/work-queue/export.csv (docs/work-queue.md "CSV export"; staff only): every item
 * under the list's filters and order (the page number aside), at most WORK_QUEUE_CSV_MAX rows, as
 * CSV text with a header row, CRLF line ends; each row links to the account's staff page under
 * `publicUrl`. Reads work_items, accounts, users, irs_releases; writes nothing.
 */
export async function exportWorkItemsCsv(
  db: DbOrTx,
  q: WorkQueueQuery,
  actorId: number,
  publicUrl: string,
): Promise<string> {
  const where = and(...workQueueFilters(q, actorId), q.kind ? eq(workItems.kind, q.kind) : undefined);
  const records = await selectWorkItems(db)
    .where(where)
    .orderBy(...workQueueOrder(q))
    .limit(WORK_QUEUE_CSV_MAX);
  return csvText(
    HEADER,
    records.map((record) => {
      const r = toWorkItemRow(record);
      return [
        r.id,
        r.kind_label,
        r.status,
        r.account?.id ?? null,
        r.account?.name ?? null,
        r.ein,
        r.summary,
        r.released_on,
        r.assignee?.name ?? null,
        r.created_at,
        r.updated_at,
        r.resolved_at,
        r.resolution,
        r.account ? `${publicUrl}/admin/accounts/show/${r.account.id}` : null,
      ];
    }),
  );
}
