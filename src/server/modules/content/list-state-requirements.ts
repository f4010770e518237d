import { asc } from 'drizzle-orm';
import { stateRequirements } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';

/** docs/requirements/entities.md "State requirement": name plus maintain and articles-of-incorporation estimates (cents). */
export async function listStateRequirements(db: Db) {
  return db
    .select({
      code: stateRequirements.code,
      state_name: stateRequirements.stateName,
      maintain_estimate_cents: stateRequirements.maintainEstimateCents,
      aoi_estimate_cents: stateRequirements.aoiEstimateCents,
      notes: stateRequirements.notes,
    })
    .from(stateRequirements)
    .orderBy(asc(stateRequirements.stateName));
}
