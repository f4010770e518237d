import { and, eq, sql } from 'drizzle-orm';
import { MONTH_NAMES } from '../../../shared/lists/months.ts';
import { must } from '../../../shared/must.ts';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { isInGenWindow, isPeriodEndOf } from '../../../shared/rules/gen-update.ts';
import { genUpdates } from '../../db/schema.ts';
import { HttpError, notFound, ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { computeGenChecks } from './gen-checks.ts';
import { diffRoster, lastSubmittedBefore, loadGenGroup, loadRoster, missingSettings } from './gen-roster.ts';
import type { GenSubmitInput } from '../../../shared/schemas/gen-updates.ts';
import type { Db } from '../../db/client.ts';

/** The refusal of a second submission for one period. */
const alreadySubmittedMessage = (periodEnd: string, submittedOn: string) =>
  `The annual update for the period ending ${longDate(periodEnd)} was already recorded as submitted on ${longDate(submittedOn)}. It cannot be recorded twice.`;

/**
 * POST /api/admin/gen-update/submit (docs/irs-gen-duties.md "Recording the submission"; staff only):
 * records that staff submitted the annual update of the period ending `period_end` to the IRS on
 * `submitted_on`. The lines are computed now from the roster and the last submitted update, and
 * frozen in gen_updates.items (every line, unchanged ones too, as the next update's baseline).
 * One transaction: the gen_updates row (inserted, or a draft turned submitted; a submitted one is
 * never overwritten) and one audit_log row 'gen_update.submitted' (period, date, counts, whether
 * the date is in the window, failing checks).
 * @param today 'YYYY-MM-DD', the latest allowed submission date
 * @returns the message staff read (it says when the date is outside the 30-to-90-day window)
 * @throws HttpError 404 unknown group; 409 when the period is already submitted;
 *   ValidationError 422 when the settings are incomplete, `period_end` is not a period end of the
 *   group, or `submitted_on` is in the future
 */
export async function submitGenUpdate(
  db: Db,
  input: GenSubmitInput,
  actor: { userId: number; ip: string },
  today: string,
): Promise<{ message: string; in_window: boolean }> {
  const { group } = await loadGenGroup(db, input.group_id);
  if (!group) throw notFound('The group exemption');
  const missing = missingSettings(group);
  if (missing.length)
    throw ValidationError.field('period_end', `Complete the GEN settings first (missing: ${missing.join(', ')}).`);
  const month = must(group.accountingPeriodEndMonth, 'the period end month (missingSettings checked it)');
  if (!isPeriodEndOf(month, input.period_end)) {
    throw ValidationError.field(
      'period_end',
      `The period end must be the last day of ${MONTH_NAMES[month - 1]}, when the central organization's accounting period ends.`,
    );
  }
  if (input.submitted_on > today)
    throw ValidationError.field('submitted_on', 'The submitted on date cannot be in the future.');
  const inWindow = isInGenWindow(input.submitted_on, input.period_end);

  const outcome = await db.transaction(async (tx) => {
    const roster = await loadRoster(tx, group.gen);
    const baseline = await lastSubmittedBefore(tx, group.id, input.period_end);
    const items = diffRoster(
      roster.map((r) => r.item),
      baseline ? (baseline.items as never) : null,
    );
    const [row] = await tx
      .insert(genUpdates)
      .values({
        groupId: group.id,
        periodEnd: input.period_end,
        status: 'submitted',
        items: items as never,
        submittedOn: input.submitted_on,
        submittedBy: actor.userId,
      })
      .onConflictDoUpdate({
        target: [genUpdates.groupId, genUpdates.periodEnd],
        set: {
          status: 'submitted',
          items: items as never,
          submittedOn: input.submitted_on,
          submittedBy: actor.userId,
          updatedAt: sql`now()`,
        },
        setWhere: eq(genUpdates.status, 'draft'),
      })
      .returning({ id: genUpdates.id });
    if (!row) return null;
    const counts = { add: 0, delete: 0, change: 0, roster: 0, unchanged: 0 };
    for (const i of items) counts[i.action]++;
    const failed = (await computeGenChecks(tx, group, roster, input.period_end))
      .filter((c) => !c.passed)
      .map((c) => c.key);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      ip: actor.ip,
      action: 'gen_update.submitted',
      details: {
        gen_update_id: row.id,
        group_id: group.id,
        gen: group.gen,
        period_end: input.period_end,
        submitted_on: input.submitted_on,
        in_window: inWindow,
        counts,
        failed_checks: failed,
      },
    });
    return counts;
  });
  if (!outcome) {
    const [done] = await db
      .select({ submittedOn: genUpdates.submittedOn })
      .from(genUpdates)
      .where(and(eq(genUpdates.groupId, group.id), eq(genUpdates.periodEnd, input.period_end)));
    throw new HttpError(409, alreadySubmittedMessage(input.period_end, done?.submittedOn ?? input.submitted_on));
  }
  const lines = outcome.add + outcome.delete + outcome.change + outcome.roster;
  return {
    in_window: inWindow,
    message:
      `The annual update for the period ending ${longDate(input.period_end)} was recorded as submitted on ${longDate(input.submitted_on)}, with ${lines} ${lines === 1 ? 'line' : 'lines'}.` +
      (inWindow ? '' : ' That date is outside the window of 90 to 30 days before the period ends.'),
  };
}
