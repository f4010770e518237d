import fs from 'node:fs';
import { parse } from 'csv-parse';
import { and, isNotNull, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { accounts, groups, irsBmfChanges } from '../../db/schema.ts';
import { importedGenLabel } from '../irs-data/provider-gens.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The 28 columns of the IRS EO BMF extract (shared/data/irs-eo-bmf/README.md). */
export interface BmfRecord {
  EIN: string;
  NAME: string;
  ICO: string;
  STREET: string;
  CITY: string;
  STATE: string;
  ZIP: string;
  GROUP: string;
  SUBSECTION: string;
  AFFILIATION: string;
  CLASSIFICATION: string;
  RULING: string;
  DEDUCTIBILITY: string;
  FOUNDATION: string;
  ACTIVITY: string;
  ORGANIZATION: string;
  STATUS: string;
  TAX_PERIOD: string;
  ASSET_CD: string;
  INCOME_CD: string;
  FILING_REQ_CD: string;
  PF_FILING_REQ_CD: string;
  ACCT_PD: string;
  ASSET_AMT: string;
  INCOME_AMT: string;
  REVENUE_AMT: string;
  NTEE_CD: string;
  SORT_NAME: string;
}

export interface ImportBmfOptions {
  /** Import only rows of this group exemption number (4 digits). */
  gen?: string;
  /** Rows per INSERT statement. */
  batchSize?: number;
  /** The irs_releases row of this file: each row's account records it (accounts.bmf_release_id). */
  releaseId?: number;
  /** Called after each batch with the rows read and written so far. */
  onProgress?: (p: { read: number; imported: number }) => void;
}

export interface ImportBmfResult {
  /** Data rows read from the file. */
  read: number;
  /** Rows inserted or updated (matching the GEN filter, with a valid EIN). */
  imported: number;
  /** Rows left out: bad EIN, or another GEN. */
  skipped: number;
}

/** Name shown for an organization: a subordinate's own name is the secondary line (SORT_NAME). */
export function displayName(r: Pick<BmfRecord, 'NAME' | 'SORT_NAME' | 'AFFILIATION'>): string {
  const sortName = r.SORT_NAME.trim();
  return r.AFFILIATION === '9' && sortName ? sortName : r.NAME.trim();
}

/**
 * What the keyword search matches: the shown name, the secondary name and the city. A
 * subordinate's NAME is its central organization's (e.g. PARENT BOOSTER USA INC on all 806 rows of
 * GEN 5271), so it is left out there: it would make every subordinate match that name's words.
 */
function searchTextParts(
  r: Pick<BmfRecord, 'NAME' | 'SORT_NAME' | 'AFFILIATION' | 'CITY'>,
  name = displayName(r as BmfRecord),
): string[] {
  const parts = r.AFFILIATION === '9' && r.SORT_NAME.trim() ? [name, r.CITY] : [name, r.SORT_NAME, r.CITY];
  return [...new Set(parts.map((s) => s.trim().toLowerCase()).filter(Boolean))];
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

/** Maps one BMF record to account columns; null when its EIN is not 9 digits. */
export function bmfToAccount(r: BmfRecord, groupIdByGen: Map<string, number>) {
  const ein = r.EIN.trim();
  if (!/^\d{9}$/.test(ein)) return null;
  const name = displayName(r);
  const gen = r.GROUP.trim() && r.GROUP.trim() !== '0000' ? r.GROUP.trim() : null;
  const searchParts = searchTextParts(r, name);
  const acctPd = Number(r.ACCT_PD);
  return {
    name,
    legalName: r.NAME.trim(),
    careOf: r.ICO.trim().replace(/^%\s*/, ''),
    ein,
    gen,
    groupId: gen ? (groupIdByGen.get(gen) ?? null) : null,
    street: r.STREET.trim(),
    city: r.CITY.trim(),
    state: r.STATE.trim(),
    zip: r.ZIP.trim(),
    subsection: orNull(r.SUBSECTION),
    affiliation: orNull(r.AFFILIATION),
    ruling: orNull(r.RULING),
    deductibility: orNull(r.DEDUCTIBILITY),
    irsStatus: orNull(r.STATUS),
    taxPeriod: orNull(r.TAX_PERIOD),
    filingRequirement: orNull(r.FILING_REQ_CD),
    pfFilingRequirement: orNull(r.PF_FILING_REQ_CD),
    fiscalYearEndMonth: acctPd >= 1 && acctPd <= 12 ? acctPd : null,
    nteeCode: orNull(r.NTEE_CD),
    foundation: orNull(r.FOUNDATION),
    isListed: true,
    searchText: searchParts.join(' '),
    source: 'irs-bmf',
  };
}

async function ensureGroups(db: DbOrTx, gens: string[], map: Map<string, number>) {
  const missing = gens.filter((g) => !map.has(g));
  if (!missing.length) return;
  await db
    .insert(groups)
    .values(missing.map((gen) => ({ gen, label: importedGenLabel(gen) })))
    .onConflictDoNothing();
  const rows = await db
    .select({ id: groups.id, gen: groups.gen })
    .from(groups)
    .where(sql`${groups.gen} = ANY(${sql.param(missing)}::text[])`);
  for (const r of rows) if (r.gen) map.set(r.gen, r.id);
}

/**
 * Records in irs_bmf_changes what release `releaseId` changes in organizations an earlier release
 * loaded (docs/work-queue.md "Name and address changes"): the name (shown or legal) and the
 * mailing address, before and after, for subordinates of a GEN and accounts with users (the
 * others are nobody's work). Runs before the batch's upsert, in its transaction: one read of the
 * batch's EINs through accounts_ein_unique.
 * Writes: irs_bmf_changes rows.
 */
async function recordBmfChanges(db: DbOrTx, rows: NonNullable<ReturnType<typeof bmfToAccount>>[], releaseId: number) {
  const before = await db
    .select({
      id: accounts.id,
      ein: accounts.ein,
      name: accounts.name,
      legalName: accounts.legalName,
      street: accounts.street,
      city: accounts.city,
      state: accounts.state,
      zip: accounts.zip,
    })
    .from(accounts)
    .where(
      and(
        sql`${accounts.ein} = ANY(${sql.param(rows.map((r) => r.ein))}::text[])`,
        isNotNull(accounts.bmfReleaseId),
        sql`(${accounts.gen} IS NOT NULL OR EXISTS (SELECT 1 FROM users u WHERE u.account_id = ${accounts.id}))`,
      ),
    );
  if (!before.length) return;
  const byEin = new Map(rows.map((r) => [r.ein, r]));
  const changes: (typeof irsBmfChanges.$inferInsert)[] = [];
  for (const old of before) {
    const now = must(byEin.get(old.ein ?? ''), `the new BMF row of EIN ${old.ein}`);
    if (old.name !== now.name || old.legalName !== now.legalName) {
      changes.push({
        releaseId,
        accountId: old.id,
        field: 'name',
        before: { name: old.name, legal_name: old.legalName },
        after: { name: now.name, legal_name: now.legalName },
      });
    }
    const address = (a: { street: string; city: string; state: string; zip: string }) => ({
      street: a.street,
      city: a.city,
      state: a.state,
      zip: a.zip,
    });
    if (JSON.stringify(address(old)) !== JSON.stringify(address(now))) {
      changes.push({ releaseId, accountId: old.id, field: 'address', before: address(old), after: address(now) });
    }
  }
  if (changes.length) await db.insert(irsBmfChanges).values(changes);
}

/**
 * Imports an IRS EO BMF CSV file as listed accounts, idempotent by EIN: a row whose EIN exists
 * updates that account's IRS columns (its customer data is kept). Streams the file, so any size
 * works; each batch is one INSERT ... ON CONFLICT statement.
 * Writes: accounts rows; groups rows for each new GEN met; with `releaseId`, irs_bmf_changes rows
 * for the names and addresses it changes (recordBmfChanges).
 * @throws Error when the file is missing or its header is not the BMF layout
 */
export async function importBmf(db: DbOrTx, file: string, opts: ImportBmfOptions = {}): Promise<ImportBmfResult> {
  const batchSize = opts.batchSize ?? 1000;
  const parser = fs
    .createReadStream(file)
    .pipe(parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: false, trim: false }));
  const groupIdByGen = new Map<string, number>();
  let read = 0;
  let imported = 0;
  let skipped = 0;
  let batch: NonNullable<ReturnType<typeof bmfToAccount>>[] = [];
  let headerChecked = false;

  const flush = async () => {
    if (!batch.length) return;
    // One EIN may appear twice in a file; the last row wins, as a second import would.
    const byEin = new Map(batch.map((b) => [b.ein, b]));
    const rows = [...byEin.values()];
    await ensureGroups(db, [...new Set(rows.map((r) => r.gen).filter((g): g is string => !!g))], groupIdByGen);
    for (const r of rows) r.groupId = r.gen ? (groupIdByGen.get(r.gen) ?? null) : null;
    if (opts.releaseId !== undefined) await recordBmfChanges(db, rows, opts.releaseId);
    const values = opts.releaseId === undefined ? rows : rows.map((r) => ({ ...r, bmfReleaseId: opts.releaseId }));
    await db
      .insert(accounts)
      .values(values)
      .onConflictDoUpdate({
        target: accounts.ein,
        set: Object.fromEntries(
          [
            'name',
            'legal_name',
            'care_of',
            'gen',
            'group_id',
            'street',
            'city',
            'state',
            'zip',
            'subsection',
            'affiliation',
            'ruling',
            'deductibility',
            'irs_status',
            'tax_period',
            'filing_requirement',
            'pf_filing_requirement',
            'fiscal_year_end_month',
            'ntee_code',
            'foundation',
            'search_text',
            ...(opts.releaseId === undefined ? [] : ['bmf_release_id']),
          ].map((c) => [c.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase()), sql.raw(`excluded.${c}`)]),
        ),
      });
    imported += rows.length;
    batch = [];
    opts.onProgress?.({ read, imported });
  };

  for await (const record of parser as AsyncIterable<BmfRecord>) {
    if (!headerChecked) {
      if (!('EIN' in record) || !('GROUP' in record) || !('SORT_NAME' in record)) {
        throw new Error(`${file} is not an IRS EO BMF extract: its header must start with EIN,NAME,ICO,STREET,...`);
      }
      headerChecked = true;
    }
    read++;
    if (opts.gen && record.GROUP.trim() !== opts.gen) {
      skipped++;
      continue;
    }
    const row = bmfToAccount(record, groupIdByGen);
    if (!row) {
      skipped++;
      continue;
    }
    batch.push(row);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return { read, imported, skipped };
}
