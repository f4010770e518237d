import { sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { ROSTER_COLUMN_LABELS, type RosterColumnChange } from '../../../shared/schemas/roster-imports.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { accounts, rosterImports } from '../../db/schema.ts';
import type { Tx } from '../../db/client.ts';
import type { AccountDraft } from './roster-rows.ts';

/**
 * Which account columns a roster import compares and writes (docs/irs-data.md "Roster import"),
 * and the helpers confirm and undo share. Keys are the Drizzle property names of `accounts`, so a
 * staged `before` / `after` can be written back with `update(accounts).set(...)`.
 */

/**
 * The IRS columns of a subordinate the BMF importer keeps (the same set `importBmf` overwrites),
 * plus `isListed`: on an account that came from IRS data (source 'irs-bmf') an import sets all of them.
 */
const SUBORDINATE_COLUMNS = [
  'name',
  'legalName',
  'careOf',
  'gen',
  'groupId',
  'street',
  'city',
  'state',
  'zip',
  'subsection',
  'affiliation',
  'ruling',
  'deductibility',
  'irsStatus',
  'taxPeriod',
  'filingRequirement',
  'pfFilingRequirement',
  'fiscalYearEndMonth',
  'nteeCode',
  'foundation',
  'searchText',
  'isListed',
] as const satisfies readonly (keyof AccountDraft)[];

/**
 * On a customer's own account (source 'app' or 'roster') an import sets only the IRS's codes: the
 * name, address, fiscal year end and public listing are the customer's data (the staff work queue
 * reports an ACCT_PD that differs, docs/work-queue.md), so they are never overwritten by a file.
 */
const CUSTOMER_COLUMNS = [
  'legalName',
  'gen',
  'groupId',
  'subsection',
  'affiliation',
  'ruling',
  'deductibility',
  'irsStatus',
  'taxPeriod',
  'filingRequirement',
  'pfFilingRequirement',
  'nteeCode',
  'foundation',
] as const satisfies readonly (keyof AccountDraft)[];

export type RosterColumn = (typeof SUBORDINATE_COLUMNS)[number];
export type ColumnValues = Partial<Record<RosterColumn, string | number | boolean | null>>;

/** The columns an import writes on an account of this source. */
const columnsFor = (source: string): readonly RosterColumn[] =>
  source === 'irs-bmf' ? SUBORDINATE_COLUMNS : CUSTOMER_COLUMNS;

/** The columns selected to compare an account with a file row. */
export const comparedColumns = Object.fromEntries(SUBORDINATE_COLUMNS.map((c) => [c, accounts[c]])) as {
  [K in RosterColumn]: (typeof accounts)[K];
};

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * The columns of `draft` that differ from `current`, among those an import writes on an account of
 * `source`: `{ before, after }` with only those columns, or null when nothing differs.
 */
export function diffColumns(
  source: string,
  current: ColumnValues,
  draft: ColumnValues,
): { before: ColumnValues; after: ColumnValues } | null {
  const before: ColumnValues = {};
  const after: ColumnValues = {};
  for (const c of columnsFor(source)) {
    if (same(current[c], draft[c])) continue;
    before[c] = current[c] ?? null;
    after[c] = draft[c] ?? null;
  }
  return Object.keys(after).length ? { before, after } : null;
}

/** Whether every column of `expected` still has that value on `current`. */
export function stillHas(current: ColumnValues, expected: ColumnValues): boolean {
  return Object.entries(expected).every(([c, v]) => same(current[c as RosterColumn], v));
}

const shown = (c: string, v: unknown) => {
  if (v === null || v === undefined || v === '') return '—';
  if (c === 'isListed') return v ? 'Yes' : 'No';
  return String(v);
};

/** The changed columns staff see, labelled, in a fixed order; the group id and search text are left out (derived). */
export function shownChanges(before: ColumnValues | null, after: ColumnValues | null): RosterColumnChange[] {
  if (!after) return [];
  return Object.keys(ROSTER_COLUMN_LABELS)
    .filter((c) => c in after)
    .map((c) => ({
      field: c,
      label: must(ROSTER_COLUMN_LABELS[c], `the label of column ${c}`),
      before: shown(c, before?.[c as RosterColumn]),
      after: shown(c, after[c as RosterColumn]),
    }));
}

/**
 * Serializes confirm and undo of one GEN's imports (a transaction-scoped advisory lock), so two at
 * once apply once and in order.
 */
export async function lockGen(tx: Tx, gen: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`roster-import:${gen}`}))`);
}

/** The import row locked for this transaction, or undefined. */
export async function lockImport(tx: Tx, id: number) {
  const [row] = await tx
    .select()
    .from(rosterImports)
    .where(sql`${rosterImports.id} = ${id}`)
    .for('update');
  return row;
}

/** Tables and columns (other than roster_import_rows) with a foreign key to accounts.id: read from the catalog, so a table added later counts too. */
async function accountReferences(tx: Tx): Promise<{ tbl: string; col: string }[]> {
  return rowsOf<{ tbl: string; col: string }>(
    tx,
    sql`
    SELECT c.conrelid::regclass::text AS tbl, a.attname AS col
    FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
    WHERE c.contype = 'f' AND c.confrelid = 'accounts'::regclass AND c.conrelid <> 'roster_import_rows'::regclass
    ORDER BY 1, 2`,
  );
}

/** The ids of `ids` that some row of another table refers to (users, invoices, files, work items, ...). */
export async function referencedAccountIds(tx: Tx, ids: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  if (!ids.length) return found;
  for (const { tbl, col } of await accountReferences(tx)) {
    const rows = await rowsOf<{ id: number }>(
      tx,
      sql`SELECT DISTINCT ${sql.identifier(col)} AS id FROM ${sql.raw(tbl)} WHERE ${sql.identifier(col)} = ANY(${sql.param(ids)}::int[])`,
    );
    for (const r of rows) found.add(Number(r.id));
  }
  return found;
}
