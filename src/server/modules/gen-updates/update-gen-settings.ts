import { eq } from 'drizzle-orm';
import { groups } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { loadGenGroup } from './gen-roster.ts';
import type { GenSettingsInput } from '../../../shared/schemas/gen-updates.ts';
import type { Db } from '../../db/client.ts';

/**
 * PUT /api/admin/gen-update/settings (docs/irs-gen-duties.md "Settings"; staff only): saves the
 * central organization's name and EIN, the month its annual accounting period ends, the group's
 * 501(c) paragraph and the uniform purpose statement of the group `input.group_id`. Writes groups
 * and one audit_log row ('gen.settings_updated', with the fields that changed; the statement's
 * length, not its text) in one transaction.
 * @returns the message staff read
 * @throws HttpError 404 when the group does not exist or has no GEN
 */
export async function updateGenSettings(
  db: Db,
  input: GenSettingsInput,
  actor: { userId: number; ip: string },
): Promise<{ message: string }> {
  const { group } = await loadGenGroup(db, input.group_id);
  if (!group) throw notFound('The group exemption');
  const next = {
    centralName: input.central_name,
    centralEin: input.central_ein,
    accountingPeriodEndMonth: input.accounting_period_end_month,
    subsection: input.subsection,
    uniformPurposeStatement: input.uniform_purpose_statement,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== group[k]);
  await db.transaction(async (tx) => {
    await tx.update(groups).set(next).where(eq(groups.id, group.id));
    await recordAudit(tx, {
      actorUserId: actor.userId,
      ip: actor.ip,
      action: 'gen.settings_updated',
      details: {
        group_id: group.id,
        gen: group.gen,
        changed,
        purpose_statement_chars: input.uniform_purpose_statement.length,
      },
    });
  });
  return { message: `The settings of GEN ${group.gen} were saved.` };
}
