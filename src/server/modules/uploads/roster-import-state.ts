import { and, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { cleanFileName } from '../../../shared/rules/uploads.ts';
import { groups, rosterImports, users } from '../../db/schema.ts';
import type {
  RosterImportCounts,
  RosterImportSummary,
  RosterRowIssue,
} from '../../../shared/schemas/roster-imports.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * What may be done next with a roster import (docs/irs-data.md "Roster import"), read by the
 * summary the page shows and checked again, under the GEN's lock, by confirm and undo.
 */

export type RosterImportRecord = typeof rosterImports.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const longDate = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

/**
 * Why this preview can no longer be confirmed: an import of the same GEN confirmed or undone
 * after the preview was made changed the roster it was compared with. Null when none.
 */
export async function confirmBlocker(db: DbOrTx, imp: RosterImportRecord): Promise<string | null> {
  const [later] = await db
    .select({ id: rosterImports.id, confirmedAt: rosterImports.confirmedAt, undoneAt: rosterImports.undoneAt })
    .from(rosterImports)
    .where(
      and(
        eq(rosterImports.gen, imp.gen),
        ne(rosterImports.id, imp.id),
        // Compared in SQL: the preview's own created_at, at the database's precision.
        or(
          sql`${rosterImports.confirmedAt} > (SELECT created_at FROM roster_imports WHERE id = ${imp.id})`,
          sql`${rosterImports.undoneAt} > (SELECT created_at FROM roster_imports WHERE id = ${imp.id})`,
        ),
      ),
    )
    .orderBy(desc(rosterImports.id))
    .limit(1);
  if (!later) return null;
  const what = later.undoneAt && later.undoneAt > imp.createdAt ? 'undone' : 'confirmed';
  return `Import #${later.id} of GEN ${imp.gen} was ${what} after this preview was made, so the roster it was compared with has changed. Upload the file again for a fresh preview.`;
}

/** Why this confirmed import cannot be undone: a later confirmed import of the same GEN is still in force. Null when none. */
export async function undoBlocker(db: DbOrTx, imp: RosterImportRecord): Promise<string | null> {
  const [latest] = await db
    .select({ id: rosterImports.id, confirmedAt: rosterImports.confirmedAt })
    .from(rosterImports)
    .where(and(eq(rosterImports.gen, imp.gen), eq(rosterImports.status, 'confirmed')))
    .orderBy(desc(rosterImports.confirmedAt), desc(rosterImports.id))
    .limit(1);
  if (!latest || latest.id === imp.id) return null;
  return `Import #${latest.id} of GEN ${imp.gen} was confirmed later (${longDate(must(latest.confirmedAt, 'the confirmation time of a confirmed import'))}) and built on this one: undo that import first.`;
}

/** The 409 message when an import is not in the status `action` needs; null when it is. */
export function statusMessage(imp: RosterImportRecord, action: 'confirm' | 'discard' | 'undo'): string | null {
  const messages: Record<typeof action, Partial<Record<RosterImportRecord['status'], string>>> = {
    confirm: {
      confirmed: 'This import was already confirmed.',
      discarded: 'This preview was discarded: upload the file again to import it.',
      undone: 'This import was confirmed and then undone: upload the file again to import it.',
    },
    discard: {
      confirmed: 'This import was already confirmed: undo it instead.',
      discarded: 'This preview was already discarded.',
      undone: 'This import was already undone.',
    },
    undo: {
      preview: 'Only a confirmed import can be undone; this one is still a preview.',
      discarded: 'Only a confirmed import can be undone; this preview was discarded.',
      undone: 'This import was already undone.',
    },
  };
  return messages[action][imp.status] ?? null;
}

/** Row issues of an import's details, each file name as cleanFileName shows it. */
const cleanIssueNames = (issues: RosterRowIssue[] | undefined): RosterRowIssue[] =>
  (issues ?? []).map((i) => ({ ...i, file_name: cleanFileName(i.file_name) }));

/**
 * The imports as the page shows them: group label, who did what and when, the counts, and whether
 * confirm or undo is offered (with the reason when the status alone would allow it but another
 * import of the GEN stands in the way).
 */
export async function summarizeImports(db: DbOrTx, rows: RosterImportRecord[]): Promise<RosterImportSummary[]> {
  if (!rows.length) return [];
  const userIds = [
    ...new Set(rows.flatMap((r) => [r.createdBy, r.confirmedBy, r.undoneBy]).filter((u): u is number => u !== null)),
  ];
  const people = userIds.length
    ? await db
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
        .from(users)
        .where(inArray(users.id, userIds))
    : [];
  const nameOf = new Map(people.map((p) => [p.id, `${p.firstName} ${p.lastName}`.trim() || p.email]));
  const groupRows = await db
    .select({ id: groups.id, label: groups.label })
    .from(groups)
    .where(inArray(groups.id, [...new Set(rows.map((r) => r.groupId))]));
  const labelOf = new Map(groupRows.map((g) => [g.id, g.label]));
  const out: RosterImportSummary[] = [];
  for (const r of rows) {
    const blocked =
      r.status === 'preview' ? await confirmBlocker(db, r) : r.status === 'confirmed' ? await undoBlocker(db, r) : null;
    const person = (id: number | null) => (id === null ? null : (nameOf.get(id) ?? null));
    out.push({
      id: r.id,
      gen: r.gen,
      group: { id: r.groupId, label: labelOf.get(r.groupId) ?? '' },
      file_name: r.fileName,
      status: r.status,
      counts: {
        read: 0,
        gen_rows: 0,
        other_gen: 0,
        no_gen: 0,
        rejected: 0,
        duplicates: 0,
        adds: 0,
        changes: 0,
        removals: 0,
        unchanged: 0,
        ...r.counts,
      } as RosterImportCounts,
      covered_states: r.details.covered_states ?? [],
      other_gens: r.details.other_gens ?? [],
      // Names kept in the details before the file-name rule are shown clean too (docs/security.md "Control characters in text").
      rejected: cleanIssueNames(r.details.rejected),
      skipped: cleanIssueNames(r.details.skipped),
      created_by: person(r.createdBy),
      created_at: new Date(r.createdAt).toISOString(),
      confirmed_by: person(r.confirmedBy),
      confirmed_at: iso(r.confirmedAt),
      undone_by: person(r.undoneBy),
      undone_at: iso(r.undoneAt),
      can_confirm: r.status === 'preview' && !blocked,
      can_undo: r.status === 'confirmed' && !blocked,
      blocked_reason: blocked,
    });
  }
  return out;
}
