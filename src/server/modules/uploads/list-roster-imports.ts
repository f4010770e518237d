import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rosterImports } from '../../db/schema.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { ROSTER_IMPORTS_PER_PAGE, type RosterImportsPage, type RosterImportsQuery } from '../../../shared/schemas/roster-imports.ts';
import { summarizeImports } from './roster-import-state.ts';

/**
 * GET /api/admin/roster-imports?page= (docs/irs-data.md "Roster import"): the past roster imports
 * of every GEN, newest first, ROSTER_IMPORTS_PER_PAGE a page, each with its status, counts, who
 * staged, confirmed or undid it and when. Reads only.
 * @returns a page object (SPEC §3)
 */
export async function listRosterImports(db: Db, q: RosterImportsQuery): Promise<RosterImportsPage> {
  const [{ n }] = await db.select({ n: count() }).from(rosterImports);
  const rows = n === 0 ? [] : await db.select().from(rosterImports).orderBy(desc(rosterImports.createdAt), desc(rosterImports.id))
    .limit(ROSTER_IMPORTS_PER_PAGE).offset((q.page - 1) * ROSTER_IMPORTS_PER_PAGE);
  return buildPage(await summarizeImports(db, rows), q.page, ROSTER_IMPORTS_PER_PAGE, n, (p) => `/api/admin/roster-imports?page=${p}`);
}
