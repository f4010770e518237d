import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { sortParam } from '../../../shared/schemas/list-params.ts';
import {
  WORK_ITEM_KIND_LABELS,
  WORK_ITEM_KINDS,
  WORK_QUEUE_PER_PAGE,
  workItemSummary,
  type WorkItemKind,
  type WorkItemRow,
  type WorkQueuePage,
  type WorkQueueQuery,
  type WorkQueueStaff,
} from '../../../shared/schemas/work-queue.ts';
import { accounts, irsReleases, users, workItems } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The conditions of the status and assignee filters (`assignee: 'me'` is `actorId`), without the kind. */
export function workQueueFilters(q: Pick<WorkQueueQuery, 'status' | 'assignee'>, actorId: number): SQL[] {
  const conds: SQL[] = [];
  if (q.status !== 'all') conds.push(eq(workItems.status, q.status));
  if (q.assignee === 'none') conds.push(isNull(workItems.assignedTo));
  else if (q.assignee !== undefined) conds.push(eq(workItems.assignedTo, q.assignee === 'me' ? actorId : q.assignee));
  return conds;
}

/** The list's order: `sort`'s column, ties by id, so pages never overlap. */
export function workQueueOrder(q: Pick<WorkQueueQuery, 'sort'>): SQL[] {
  const dir = q.sort.desc ? desc : asc;
  switch (q.sort.column) {
    case 'updated_at':
      return [dir(workItems.updatedAt), dir(workItems.id)];
    case 'kind':
      return [dir(workItems.kind), dir(workItems.createdAt), dir(workItems.id)];
    case 'account':
      return [dir(accounts.name), dir(workItems.id)];
    default:
      return [dir(workItems.createdAt), dir(workItems.id)];
  }
}

/** Name shown for a staff user: first and last name, else the e-mail. */
export const staffName = (u: { firstName: string; lastName: string; email: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || u.email;

/** The columns a WorkItemRow is made of. */
const workItemColumns = {
  item: workItems,
  account: { id: accounts.id, name: accounts.name, ein: accounts.ein },
  assignee: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
  releasedOn: irsReleases.releasedOn,
};

type ItemRecord = {
  item: typeof workItems.$inferSelect;
  account: { id: number; name: string; ein: string | null } | null;
  assignee: { id: number; firstName: string; lastName: string; email: string } | null;
  releasedOn: string | null;
};

/** SELECT of WorkItemRow's columns with the joins they need; the caller adds WHERE, ORDER, LIMIT. */
export function selectWorkItems(db: DbOrTx) {
  return db
    .select(workItemColumns)
    .from(workItems)
    .leftJoin(accounts, eq(accounts.id, workItems.accountId))
    .leftJoin(users, eq(users.id, workItems.assignedTo))
    .leftJoin(irsReleases, eq(irsReleases.id, workItems.releaseId));
}

/** A joined record as the page and the CSV show it. */
export function toWorkItemRow(r: ItemRecord): WorkItemRow {
  const i = r.item;
  const assignee: WorkQueueStaff | null = r.assignee
    ? { id: r.assignee.id, name: staffName(r.assignee), email: r.assignee.email }
    : null;
  return {
    id: i.id,
    kind: i.kind,
    kind_label: WORK_ITEM_KIND_LABELS[i.kind],
    summary: workItemSummary(i.kind, i.details),
    status: i.status,
    account: r.account,
    ein: i.ein,
    assignee,
    released_on: r.releasedOn,
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
    resolved_at: i.resolvedAt ? i.resolvedAt.toISOString() : null,
    resolution: i.resolution,
  };
}

/**
 * GET /api/admin/work-queue (docs/work-queue.md "The list"; staff only): one page of 25 items
 * under the filters (`kind`; `status`, open by default; `assignee` 'me' = `actorId`, 'none', or a
 * staff user's id), in `sort` order (oldest first by default; ties by id), each with its account,
 * assignee and the IRS release it was found in; and `counts`, the items of every kind under the
 * status and assignee filters (the kind tabs' badges). The total is exact: one GROUP BY over the
 * filtered items gives both the counts and it (work_items_status_created, work_items_kind_status).
 * Requirement: docs/work-queue.md, docs/benchmarks.md "Staff work queue" (p99 ≤ 100 ms at 10,000 items).
 * Reads work_items, accounts, users, irs_releases; writes nothing.
 */
export async function listWorkItems(db: DbOrTx, q: WorkQueueQuery, actorId: number): Promise<WorkQueuePage> {
  const filters = workQueueFilters(q, actorId);
  const grouped = await db
    .select({ kind: workItems.kind, n: sql<number>`count(*)::int` })
    .from(workItems)
    .where(filters.length ? and(...filters) : undefined)
    .groupBy(workItems.kind);
  const counts = Object.fromEntries(WORK_ITEM_KINDS.map((k) => [k, 0])) as Record<WorkItemKind, number>;
  for (const g of grouped) counts[g.kind] = Number(g.n);
  const total = q.kind ? counts[q.kind] : Object.values(counts).reduce((a, b) => a + b, 0);
  const where = and(...filters, q.kind ? eq(workItems.kind, q.kind) : undefined);
  const rows =
    total === 0
      ? []
      : await selectWorkItems(db)
          .where(where)
          .orderBy(...workQueueOrder(q))
          .limit(WORK_QUEUE_PER_PAGE)
          .offset((q.page - 1) * WORK_QUEUE_PER_PAGE);
  const page = buildPage(
    rows.map(toWorkItemRow),
    q.page,
    WORK_QUEUE_PER_PAGE,
    total,
    (p) => `/api/admin/work-queue?${workQueueParams(q, p)}`,
  );
  return { ...page, counts };
}

/** The query string of the same filters (and `page`, when given). */
function workQueueParams(q: WorkQueueQuery, page?: number): string {
  const params = new URLSearchParams();
  if (q.kind) params.set('kind', q.kind);
  if (q.status !== 'open') params.set('status', q.status);
  if (q.assignee !== undefined) params.set('assignee', String(q.assignee));
  if (sortParam(q.sort) !== 'created_at') params.set('sort', sortParam(q.sort));
  if (page !== undefined) params.set('page', String(page));
  return params.toString();
}
