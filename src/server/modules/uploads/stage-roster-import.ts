import { parse, type CsvError } from 'csv-parse';
import { and, eq, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { ISSUES_LISTED, type RosterRowIssue } from '../../../shared/schemas/generic-upload.ts';
import { accounts, rosterImportRows, rosterImports } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { comparedColumns, diffColumns, type ColumnValues } from './roster-columns.ts';
import { detectLayout, rowToAccount, unknownLayoutMessage, type AccountDraft } from './roster-rows.ts';
import type { RosterImportCounts } from '../../../shared/schemas/roster-imports.ts';
import type { Tx } from '../../db/client.ts';
import type { Readable } from 'node:stream';

/** EINs per comparison query and staged rows per INSERT. */
const BATCH_SIZE = 500;
/** Longest CSV record read; a runaway quoted field is rejected instead of buffered. */
const MAX_RECORD_BYTES = 1024 * 1024;
/** Other GENs named in the preview (the count of all of them is exact). */
const OTHER_GENS_LISTED = 10;

/** One IRS EO BMF file of an upload, opened when it is read. */
export interface BmfUploadFile {
  fileName: string;
  fileId: number;
  open: () => Promise<Readable>;
}

/** The group an IRS file is imported for: its GEN decides which rows are taken. */
export interface GenGroup {
  id: number;
  label: string;
  gen: string;
}

interface Taken {
  row: number;
  fileName: string;
  account: AccountDraft;
}

/**
 * Stages a roster import from IRS EO BMF files (docs/irs-data.md "Roster import"):
 * only rows whose GROUP is the group's GEN are taken, the others counted as skipped (by GEN, and
 * GROUP 0000 apart); rows that cannot be read or checked are rejected (`rowToAccount`), a repeated
 * EIN is skipped. The rows taken are compared with the accounts of their EINs and the GEN's roster:
 * - add: the EIN is no account yet (the whole new account is kept in `after`);
 * - change: the account's IRS columns differ (`before` / `after` of those columns only; on a
 *   customer's own account only the IRS codes, see CUSTOMER_COLUMNS), or a subordinate not listed;
 * - remove: a listed subordinate of the GEN (source 'irs-bmf') not in the file, in one of the
 *   states the file covers (every STATE met on a row of any GEN): a state file proposes no
 *   removal for the GEN's subordinates elsewhere.
 * Nothing is written to accounts: the public search lists nothing new until staff confirm.
 * Writes (in the caller's transaction): one roster_imports row (status 'preview') and its
 * roster_import_rows, and the audit entry 'roster_import.staged'.
 * @returns the new import's id and counts
 * @throws ValidationError on `uploads` when a file's header is not the BMF layout
 */
export async function stageRosterImport(
  tx: Tx,
  files: BmfUploadFile[],
  group: GenGroup,
  actor: { userId: number; ip: string },
): Promise<{ id: number; counts: RosterImportCounts }> {
  const counts: RosterImportCounts = {
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
  };
  const rejected: RosterRowIssue[] = [];
  const skipped: RosterRowIssue[] = [];
  const coveredStates = new Set<string>();
  const otherGens = new Map<string, number>();
  const taken = new Map<string, Taken>();

  const reject = (issue: RosterRowIssue) => {
    counts.rejected++;
    if (rejected.length < ISSUES_LISTED) rejected.push(issue);
  };

  for (const file of files) {
    const body = await file.open();
    const parser = parse({
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      max_record_size: MAX_RECORD_BYTES,
      skip_records_with_error: true,
      info: true,
      on_skip: (err: CsvError | undefined) => {
        counts.read++;
        reject({
          file_name: file.fileName,
          row: Number((err as { lines?: unknown } | undefined)?.lines ?? 0),
          reason: `The row could not be read: ${err?.message ?? 'invalid CSV'}`,
        });
        return undefined;
      },
    });
    body.on('error', (err) => parser.destroy(err));
    body.pipe(parser);
    let layout: ReturnType<typeof detectLayout> | undefined;
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        const row = info.lines - record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);
        if (layout === undefined) {
          layout = detectLayout(record);
          if (layout?.kind !== 'irs-bmf') throw ValidationError.field('uploads', unknownLayoutMessage(file.fileName));
          continue;
        }
        if (layout?.kind !== 'irs-bmf') continue;
        const bmf = layout;
        counts.read++;
        const at = (c: 'GROUP' | 'STATE') =>
          bmf.index[c] >= 0 && record.length === bmf.width ? (record[bmf.index[c]] ?? '').trim() : '';
        const state = at('STATE').toUpperCase();
        if (/^[A-Z]{2}$/.test(state)) coveredStates.add(state);
        const gen = at('GROUP');
        if (record.length === bmf.width && gen !== group.gen) {
          if (gen === '' || /^0+$/.test(gen)) counts.no_gen++;
          else {
            counts.other_gen++;
            otherGens.set(gen, (otherGens.get(gen) ?? 0) + 1);
          }
          continue;
        }
        const outcome = rowToAccount(bmf, record, group.id);
        if ('reason' in outcome) {
          reject({ file_name: file.fileName, row, reason: outcome.reason });
          continue;
        }
        const ein = must(outcome.account.ein, 'the EIN of an IRS BMF row');
        const earlier = taken.get(ein);
        if (earlier) {
          counts.duplicates++;
          if (skipped.length < ISSUES_LISTED) {
            skipped.push({
              file_name: file.fileName,
              row,
              reason: `EIN ${ein} is on an earlier row (${files.length > 1 ? `${earlier.fileName} ` : ''}${earlier.row}).`,
            });
          }
          continue;
        }
        taken.set(ein, { row, fileName: file.fileName, account: outcome.account });
      }
      if (!layout) throw ValidationError.field('uploads', unknownLayoutMessage(file.fileName));
    } finally {
      body.destroy();
    }
  }
  counts.gen_rows = taken.size;

  const [created] = await tx
    .insert(rosterImports)
    .values({
      groupId: group.id,
      gen: group.gen,
      fileName: files.map((f) => f.fileName).join(', '),
      createdBy: actor.userId,
      details: {
        covered_states: [...coveredStates].sort(),
        file_ids: files.map((f) => f.fileId),
        file_names: files.map((f) => f.fileName),
        rejected,
        skipped,
        other_gens: [...otherGens]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, OTHER_GENS_LISTED)
          .map(([gen, rows]) => ({ gen, rows })),
      },
    })
    .returning({ id: rosterImports.id });
  const importId = must(created, 'the inserted roster import').id;

  let staged: (typeof rosterImportRows.$inferInsert)[] = [];
  const flushStaged = async () => {
    if (staged.length) await tx.insert(rosterImportRows).values(staged);
    staged = [];
  };
  const stage = async (row: typeof rosterImportRows.$inferInsert) => {
    staged.push(row);
    if (staged.length >= BATCH_SIZE) await flushStaged();
  };

  const eins = [...taken.keys()];
  for (let i = 0; i < eins.length; i += BATCH_SIZE) {
    const batch = eins.slice(i, i + BATCH_SIZE);
    const existing = await tx
      .select({ id: accounts.id, ein: accounts.ein, source: accounts.source, ...comparedColumns })
      .from(accounts)
      .where(sql`${accounts.ein} = ANY(${sql.param(batch)}::text[])`);
    const byEin = new Map(existing.map((a) => [a.ein, a]));
    for (const ein of batch) {
      const { account } = must(taken.get(ein), `the staged row of EIN ${ein}`);
      const current = byEin.get(ein);
      if (!current) {
        counts.adds++;
        await stage({ importId, action: 'add', ein, after: account as unknown as Record<string, unknown> });
        continue;
      }
      const diff = diffColumns(current.source, current as ColumnValues, account as unknown as ColumnValues);
      if (!diff) {
        counts.unchanged++;
        continue;
      }
      counts.changes++;
      await stage({ importId, action: 'change', ein, accountId: current.id, before: diff.before, after: diff.after });
    }
  }

  if (coveredStates.size) {
    const roster = await tx
      .select({ id: accounts.id, ein: accounts.ein })
      .from(accounts)
      .where(
        and(
          eq(accounts.gen, group.gen),
          eq(accounts.isListed, true),
          eq(accounts.source, 'irs-bmf'),
          sql`${accounts.state} = ANY(${sql.param([...coveredStates])}::text[])`,
        ),
      )
      .orderBy(accounts.id);
    for (const r of roster) {
      if (!r.ein || taken.has(r.ein)) continue;
      counts.removals++;
      await stage({
        importId,
        action: 'remove',
        ein: r.ein,
        accountId: r.id,
        before: { isListed: true },
        after: { isListed: false },
      });
    }
  }
  await flushStaged();
  await tx
    .update(rosterImports)
    .set({ counts: { ...counts } })
    .where(eq(rosterImports.id, importId));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'roster_import.staged',
    ip: actor.ip,
    details: {
      import_id: importId,
      gen: group.gen,
      group_id: group.id,
      file_ids: files.map((f) => f.fileId),
      ...counts,
    },
  });
  return { id: importId, counts };
}
