import { and, eq, inArray, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { liftStatementTimeout } from '../../db/client.ts';
import { accounts, rosterImportRows, rosterImports } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { getRosterImport } from './get-roster-import.ts';
import {
  comparedColumns,
  lockGen,
  lockImport,
  referencedAccountIds,
  stillHas,
  type ColumnValues,
  type RosterColumn,
} from './roster-columns.ts';
import { statusMessage, undoBlocker } from './roster-import-state.ts';
import type { RosterImportActionAnswer } from '../../../shared/schemas/roster-imports.ts';
import type { Db } from '../../db/client.ts';

const BATCH_SIZE = 500;

/**
 * POST /api/admin/roster-imports/{id}/undo (docs/irs-data.md "Roster import"):
 * reverses a confirmed import as one batch, in one transaction: each account it added is deleted
 * when no other row refers to it (users, invoices, files, work items, ...: every foreign key to
 * accounts, read from the catalog), else taken off the public search; each change is put back
 * from `before`, column by column, where the column still holds the import's value (a column
 * changed since by someone else is kept and counted); each removal is listed again. Only the
 * latest confirmed import of its GEN can be undone: a later one was compared with the roster this
 * one made. Serialized per GEN like confirm.
 * Writes: accounts, roster_imports (status 'undone', undone_by, undone_at), audit_log
 * 'roster_import.undone' with the counts.
 * @returns the message and the import as it is now
 * @throws HttpError 404 unknown import; 409 when it is not confirmed (a preview, discarded,
 *   already undone) or a later confirmed import of the GEN stands
 */
export async function undoRosterImport(
  db: Db,
  id: number,
  actor: { userId: number; ip: string },
): Promise<RosterImportActionAnswer> {
  const [found] = await db.select({ gen: rosterImports.gen }).from(rosterImports).where(eq(rosterImports.id, id));
  if (!found) throw notFound('The roster import');
  const done = await db.transaction(async (tx) => {
    await liftStatementTimeout(tx);
    await lockGen(tx, found.gen);
    const imp = must(await lockImport(tx, id), `roster import ${id}`);
    const refused = statusMessage(imp, 'undo') ?? (await undoBlocker(tx, imp));
    if (refused) throw new HttpError(409, refused);

    const staged = await tx
      .select()
      .from(rosterImportRows)
      .where(eq(rosterImportRows.importId, id))
      .orderBy(rosterImportRows.id);
    const addedIds = staged.flatMap((r) => (r.action === 'add' && r.accountId !== null ? [r.accountId] : []));
    const referenced = await referencedAccountIds(tx, addedIds);
    const deletable = addedIds.filter((a) => !referenced.has(a));
    const kept = addedIds.filter((a) => referenced.has(a));
    for (let i = 0; i < deletable.length; i += BATCH_SIZE)
      await tx.delete(accounts).where(inArray(accounts.id, deletable.slice(i, i + BATCH_SIZE)));
    for (let i = 0; i < kept.length; i += BATCH_SIZE) {
      await tx
        .update(accounts)
        .set({ isListed: false, updatedAt: new Date() })
        .where(inArray(accounts.id, kept.slice(i, i + BATCH_SIZE)));
    }

    const changes = staged.filter((r) => r.action === 'change' && r.accountId !== null);
    let restored = 0;
    let keptColumns = 0;
    for (let i = 0; i < changes.length; i += BATCH_SIZE) {
      const batch = changes.slice(i, i + BATCH_SIZE);
      const rows = await tx
        .select({ id: accounts.id, ...comparedColumns })
        .from(accounts)
        .where(
          inArray(
            accounts.id,
            batch.map((r) => must(r.accountId, 'the account of a staged change')),
          ),
        )
        .for('update');
      const now = new Map(rows.map((r) => [r.id, r as ColumnValues]));
      for (const r of batch) {
        const current = now.get(must(r.accountId, 'the account of a staged change'));
        if (!current) continue;
        const before = (r.before ?? {}) as ColumnValues;
        const after = (r.after ?? {}) as ColumnValues;
        const back: ColumnValues = {};
        for (const c of Object.keys(after) as RosterColumn[]) {
          if (stillHas(current, { [c]: after[c] })) back[c] = before[c] ?? null;
          else keptColumns++;
        }
        if (!Object.keys(back).length) continue;
        await tx
          .update(accounts)
          .set({ ...(back as Partial<typeof accounts.$inferInsert>), updatedAt: new Date() })
          .where(eq(accounts.id, must(r.accountId, 'the account of a staged change')));
        restored++;
      }
    }

    const removedIds = staged.flatMap((r) => (r.action === 'remove' && r.accountId !== null ? [r.accountId] : []));
    let relisted = 0;
    for (let i = 0; i < removedIds.length; i += BATCH_SIZE) {
      const back = await tx
        .update(accounts)
        .set({ isListed: true, updatedAt: new Date() })
        .where(and(inArray(accounts.id, removedIds.slice(i, i + BATCH_SIZE)), eq(accounts.isListed, false)))
        .returning({ id: accounts.id });
      relisted += back.length;
    }
    await tx
      .update(rosterImports)
      .set({ status: 'undone', undoneBy: actor.userId, undoneAt: sql`clock_timestamp()` })
      .where(eq(rosterImports.id, id));
    const counts = { deleted: deletable.length, unlisted: kept.length, restored, kept_columns: keptColumns, relisted };
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'roster_import.undone',
      ip: actor.ip,
      details: { import_id: id, gen: imp.gen, group_id: imp.groupId, ...counts },
    });
    return counts;
  });
  const parts = [
    `${done.deleted + done.unlisted} added ${done.deleted + done.unlisted === 1 ? 'subordinate' : 'subordinates'} removed${done.unlisted ? ` (${done.unlisted} kept unlisted because other records refer to ${done.unlisted === 1 ? 'it' : 'them'})` : ''}`,
    `${done.restored} ${done.restored === 1 ? 'change' : 'changes'} put back`,
    `${done.relisted} ${done.relisted === 1 ? 'subordinate' : 'subordinates'} listed again`,
  ];
  const kept = done.kept_columns
    ? ` ${done.kept_columns} ${done.kept_columns === 1 ? 'column was' : 'columns were'} changed since by someone else and kept.`
    : '';
  return { message: `Import #${id} was undone: ${parts.join(', ')}.${kept}`, import: await getRosterImport(db, id) };
}
