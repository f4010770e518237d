import { asc, eq } from 'drizzle-orm';
import { stateRequirements } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { changesOf } from './changes.ts';
import type { AdminStateRequirement, StateRequirementForm } from '../../../shared/schemas/admin-levels.ts';
import type { Db } from '../../db/client.ts';

const columns = {
  code: stateRequirements.code,
  state_name: stateRequirements.stateName,
  maintain_estimate_cents: stateRequirements.maintainEstimateCents,
  aoi_estimate_cents: stateRequirements.aoiEstimateCents,
  notes: stateRequirements.notes,
  filing_label: stateRequirements.filingLabel,
  filing_due_month: stateRequirements.filingDueMonth,
  filing_due_day: stateRequirements.filingDueDay,
};

/** Every state's requirement for the admin screen (GET /api/admin/states), by state name, with its filing date fields. */
export async function listAdminStateRequirements(db: Db): Promise<AdminStateRequirement[]> {
  return db.select(columns).from(stateRequirements).orderBy(asc(stateRequirements.stateName));
}

/**
 * Saves one state's name, estimates (cents), notes and annual filing (label, due month and day, or
 * none); the public /state-registration page and the compliance calendars read them at once. Writes: state_requirements row, one audit_log row ('state_requirement.updated'; none when nothing changed).
 * @param code two letters, any case
 * @throws HttpError 404 for an unknown state code
 */
export async function saveStateRequirement(
  db: Db,
  code: string,
  input: StateRequirementForm,
  adminId: number,
  ip: string,
): Promise<AdminStateRequirement> {
  const key = code.toUpperCase();
  if (!/^[A-Z]{2}$/.test(key)) throw notFound('The state');
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select(columns)
      .from(stateRequirements)
      .where(eq(stateRequirements.code, key))
      .for('update');
    if (!before) throw notFound('The state');
    const [after] = await tx
      .update(stateRequirements)
      .set({
        stateName: input.state_name,
        maintainEstimateCents: input.maintain_estimate,
        aoiEstimateCents: input.aoi_estimate,
        notes: input.notes,
        filingLabel: input.filing_label,
        filingDueMonth: input.filing_due_month,
        filingDueDay: input.filing_due_day,
      })
      .where(eq(stateRequirements.code, key))
      .returning(columns);
    const changes = changesOf(before, after);
    if (Object.keys(changes).length)
      await recordAudit(tx, {
        actorUserId: adminId,
        action: 'state_requirement.updated',
        details: { code: key, changes },
        ip,
      });
    return after;
  });
}
