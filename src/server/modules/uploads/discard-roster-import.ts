import { eq } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { rosterImports } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { getRosterImport } from './get-roster-import.ts';
import { lockGen, lockImport } from './roster-columns.ts';
import { statusMessage } from './roster-import-state.ts';
import type { RosterImportActionAnswer } from '../../../shared/schemas/roster-imports.ts';
import type { Db } from '../../db/client.ts';

/**
 * POST /api/admin/roster-imports/{id}/discard (docs/irs-data.md "Roster import"): drops a preview
 * without writing anything to accounts; its staged rows are kept as the record of what was shown.
 * Writes: roster_imports.status 'discarded', audit_log 'roster_import.discarded'.
 * @returns the message and the import as it is now
 * @throws HttpError 404 unknown import; 409 when it is no longer a preview
 */
export async function discardRosterImport(
  db: Db,
  id: number,
  actor: { userId: number; ip: string },
): Promise<RosterImportActionAnswer> {
  const [found] = await db.select({ gen: rosterImports.gen }).from(rosterImports).where(eq(rosterImports.id, id));
  if (!found) throw notFound('The roster import');
  await db.transaction(async (tx) => {
    await lockGen(tx, found.gen);
    const imp = must(await lockImport(tx, id), `roster import ${id}`);
    const refused = statusMessage(imp, 'discard');
    if (refused) throw new HttpError(409, refused);
    await tx.update(rosterImports).set({ status: 'discarded' }).where(eq(rosterImports.id, id));
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'roster_import.discarded',
      ip: actor.ip,
      details: { import_id: id, gen: imp.gen, group_id: imp.groupId },
    });
  });
  return {
    message: `The preview of import #${id} was discarded; nothing was written.`,
    import: await getRosterImport(db, id),
  };
}
