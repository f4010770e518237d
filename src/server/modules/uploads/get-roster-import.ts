import { eq } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { rosterImports } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { summarizeImports } from './roster-import-state.ts';
import type { RosterImportSummary } from '../../../shared/schemas/roster-imports.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * GET /api/admin/roster-imports/{id} (docs/irs-data.md "Roster import"): one import with its
 * counts (rows read, of the GEN, of other GENs and without a GEN skipped, rejected, adds, changes,
 * removals), the states its file covers, who staged, confirmed or undid it and when, and whether
 * confirm or undo is offered. Reads only.
 * @throws HttpError 404 when there is no such import
 */
export async function getRosterImport(db: DbOrTx, id: number): Promise<RosterImportSummary> {
  const rows = await db.select().from(rosterImports).where(eq(rosterImports.id, id));
  if (!rows.length) throw notFound('The roster import');
  return must((await summarizeImports(db, rows))[0], `the summary of roster import ${id}`);
}
