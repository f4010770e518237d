import { eq } from 'drizzle-orm';
import { stateFilingOf, type StateFiling } from '../../../shared/rules/compliance-calendar.ts';
import { stateRequirements } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';

/** The columns of state_requirements that stateFilingOf reads. */
export const stateFilingColumns = {
  stateName: stateRequirements.stateName,
  filingLabel: stateRequirements.filingLabel,
  filingDueMonth: stateRequirements.filingDueMonth,
  filingDueDay: stateRequirements.filingDueDay,
};

/**
 * The annual state filing of an account's state (accounts.state, a 2-letter code, any case) as
 * deadlinesFor takes it: one filing labelled like "Indiana annual report" when staff keep a date
 * for that state, none otherwise (no state, an unknown code, no date). Reads only.
 */
export async function stateFilingsFor(db: Db, state: string | null): Promise<StateFiling[]> {
  const code = (state ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return [];
  const [row] = await db.select(stateFilingColumns).from(stateRequirements).where(eq(stateRequirements.code, code));
  const filing = row ? stateFilingOf(row) : null;
  return filing ? [filing] : [];
}
