import { WORK_ITEM_KIND_LABELS, WORK_ITEM_KINDS } from '../../../shared/schemas/work-queue.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { buildWorkQueue, type WorkQueueBuildResult } from './build-work-queue.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';

/**
 * POST /api/admin/work-queue/build (docs/work-queue.md "When items are found"; staff only): runs
 * buildWorkQueue now, as the IRS data refresh does after loading, e.g. once staff linked users to
 * an account. Audited as `work_queue.built` with the items added by kind.
 * Writes work_items, audit_log.
 * @param today 'YYYY-MM-DD'
 * @returns the build's result and a message naming what was added
 */
export async function rebuildWorkQueue(
  db: Db,
  today: string,
  actor: Pick<Actor, 'userId' | 'ip'>,
): Promise<WorkQueueBuildResult & { message: string }> {
  const result = await buildWorkQueue(db, today);
  await recordAudit(db, {
    actorUserId: actor.userId,
    action: 'work_queue.built',
    ip: actor.ip,
    details: { added: result.added, by_kind: result.byKind },
  });
  const parts = WORK_ITEM_KINDS.filter((k) => result.byKind[k] > 0).map(
    (k) => `${result.byKind[k]} ${WORK_ITEM_KIND_LABELS[k].toLowerCase()}`,
  );
  return {
    ...result,
    message:
      result.added === 0
        ? 'Nothing new was found.'
        : `${result.added} new item${result.added === 1 ? '' : 's'}: ${parts.join(', ')}.`,
  };
}
