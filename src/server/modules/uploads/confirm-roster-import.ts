import { and, eq, inArray, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { countOf } from '../../../shared/text.ts';
import { liftStatementTimeout } from '../../db/client.ts';
import { accounts, rosterImportRows, rosterImports } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { getRosterImport } from './get-roster-import.ts';
import { comparedColumns, lockGen, lockImport, stillHas, type ColumnValues } from './roster-columns.ts';
import { confirmBlocker, statusMessage } from './roster-import-state.ts';
import type { RosterImportActionAnswer } from '../../../shared/schemas/roster-imports.ts';
import type { Db } from '../../db/client.ts';

const BATCH_SIZE = 500;

/**
 * POST /api/admin/roster-imports/{id}/confirm (docs/irs-data.md "Roster import"):
 * applies a preview in one transaction: adds are created as listed subordinates of the GEN,
 * changes write their `after` columns, removals take the subordinate off the public search
 * (is_listed false; never deleted). Serialized per GEN with an advisory lock and the import row
 * locked, so two confirms at once apply once. The preview must still describe the database: an
 * add's EIN must still be no account, a change's `before` columns and a removal's listing must be
 * as they were, else nothing is written.
 * Writes: accounts, roster_import_rows.account_id of the adds, roster_imports (status
 * 'confirmed', confirmed_by, confirmed_at), audit_log 'roster_import.confirmed'.
 * @returns the message and the import as it is now
 * @throws HttpError 404 unknown import; 409 when it is not a preview (already confirmed,
 *   discarded, undone), an import of the same GEN was confirmed or undone after it was made, or
 *   the accounts changed since
 */
export async function confirmRosterImport(
  db: Db,
  id: number,
  actor: { userId: number; ip: string },
): Promise<RosterImportActionAnswer> {
  const [found] = await db.select({ gen: rosterImports.gen }).from(rosterImports).where(eq(rosterImports.id, id));
  if (!found) throw notFound('The roster import');
  const counts = await db.transaction(async (tx) => {
    await liftStatementTimeout(tx);
    await lockGen(tx, found.gen);
    const imp = must(await lockImport(tx, id), `roster import ${id}`);
    const refused = statusMessage(imp, 'confirm') ?? (await confirmBlocker(tx, imp));
    if (refused) throw new HttpError(409, refused);

    const staged = await tx
      .select()
      .from(rosterImportRows)
      .where(eq(rosterImportRows.importId, id))
      .orderBy(rosterImportRows.id);
    const stale: string[] = [];
    const adds = staged.filter((r) => r.action === 'add');
    const changes = staged.filter((r) => r.action === 'change');
    const removals = staged.filter((r) => r.action === 'remove');

    const touched = [...changes, ...removals].map((r) => r.accountId).filter((a): a is number => a !== null);
    const current = new Map<number, ColumnValues>();
    for (let i = 0; i < touched.length; i += BATCH_SIZE) {
      const rows = await tx
        .select({ id: accounts.id, ...comparedColumns })
        .from(accounts)
        .where(inArray(accounts.id, touched.slice(i, i + BATCH_SIZE)))
        .for('update');
      for (const r of rows) current.set(r.id, r as ColumnValues);
    }
    for (const r of [...changes, ...removals]) {
      const now = r.accountId === null ? undefined : current.get(r.accountId);
      if (!now || !stillHas(now, (r.before ?? {}) as ColumnValues)) stale.push(r.ein);
    }

    let created = 0;
    for (let i = 0; i < adds.length && !stale.length; i += BATCH_SIZE) {
      const batch = adds.slice(i, i + BATCH_SIZE);
      const inserted = await tx
        .insert(accounts)
        .values(batch.map((r) => r.after as typeof accounts.$inferInsert))
        .onConflictDoNothing()
        .returning({ id: accounts.id, ein: accounts.ein });
      created += inserted.length;
      if (inserted.length < batch.length) {
        const done = new Set(inserted.map((r) => r.ein));
        stale.push(...batch.filter((r) => !done.has(r.ein)).map((r) => r.ein));
      }
    }
    if (stale.length) {
      throw new HttpError(
        409,
        `The roster changed since this preview was made (EIN ${stale[0]}${stale.length > 1 ? ` and ${stale.length - 1} more` : ''}). Nothing was written: upload the file again for a fresh preview.`,
      );
    }
    if (adds.length) {
      await tx.execute(sql`UPDATE ${rosterImportRows} r SET account_id = a.id FROM ${accounts} a
        WHERE r.import_id = ${id} AND r.action = 'add' AND a.ein = r.ein`);
    }
    for (const r of changes)
      await tx
        .update(accounts)
        .set({ ...(r.after as Partial<typeof accounts.$inferInsert>), updatedAt: new Date() })
        .where(eq(accounts.id, must(r.accountId, 'the account of a staged change')));
    const removedIds = removals.map((r) => must(r.accountId, 'the account of a staged removal'));
    for (let i = 0; i < removedIds.length; i += BATCH_SIZE) {
      await tx
        .update(accounts)
        .set({ isListed: false, updatedAt: new Date() })
        .where(and(inArray(accounts.id, removedIds.slice(i, i + BATCH_SIZE)), eq(accounts.isListed, true)));
    }
    await tx
      .update(rosterImports)
      .set({ status: 'confirmed', confirmedBy: actor.userId, confirmedAt: sql`clock_timestamp()` })
      .where(eq(rosterImports.id, id));
    const done = { adds: created, changes: changes.length, removals: removals.length };
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'roster_import.confirmed',
      ip: actor.ip,
      details: { import_id: id, gen: imp.gen, group_id: imp.groupId, ...done },
    });
    return done;
  });
  return {
    message: `Import #${id} was confirmed: ${countOf(counts.adds, 'subordinate added', 'subordinates added')}, ${countOf(counts.changes, 'changed', 'changed')}, ${countOf(counts.removals, 'taken off the public list', 'taken off the public list')}.`,
    import: await getRosterImport(db, id),
  };
}
