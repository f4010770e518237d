import { and, isNotNull, ne, or, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { groups } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The label the BMF import gives a group it creates for a GEN it meets (import-bmf.ts ensureGroups). */
export const importedGenLabel = (gen: string) => `IRS group exemption ${gen}`;

/**
 * Which `groups` rows are group exemptions the provider holds (docs/work-queue.md "Members and the
 * roster", docs/irs-gen-duties.md): a GEN that staff named (the label is no longer the one the BMF
 * import gave it) or gave the central organization's EIN. A full BMF load creates a group for each
 * of the thousands of other GENs it meets; those belong to other central organizations.
 */
export const isProviderGen = must(
  and(
    isNotNull(groups.gen),
    or(isNotNull(groups.centralEin), ne(groups.label, sql`'IRS group exemption ' || ${groups.gen}`)),
  ),
  'the provider GEN condition',
);

/** The GENs the provider holds, e.g. ['5271'], in GEN order. Reads groups. */
export async function providerGens(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ gen: groups.gen }).from(groups).where(isProviderGen).orderBy(groups.gen);
  return rows.map((r) => must(r.gen, 'the GEN (isProviderGen keeps only groups with one)'));
}
