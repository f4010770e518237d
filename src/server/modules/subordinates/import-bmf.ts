// Longer than 400 lines: one import of an EO BMF file: the row mapping, the groups, the changes recorded and
// the batched writes share the release being loaded (docs/irs-data.md).
import fs from 'node:fs';
import { parse } from 'csv-parse';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { accounts, groups, irsBmfChanges, irsOrganizations } from '../../db/schema.ts';
import { importedGenLabel, providerGens } from '../irs-data/provider-gens.ts';
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
  /**
   * The irs_releases row of this file: every row is written to irs_organizations with it, and each
   * row's account records it (accounts.bmf_release_id).
   */
  releaseId?: number;
  /**
   * false: an IRS release load (docs/irs-data.md "IRS facts"): accounts that already hold a row's EIN
   * are updated; a row of one of the provider's GENs (`providerGens`) that no account holds becomes
   * an unlisted subordinate account, for the work queue's roster (the public search lists it once
   * staff confirm a roster import); no other account is created. Default true: the rows become
   * listed accounts (the seed, `npm run import:bmf`).
   */
  createAccounts?: boolean;
  /** Called after each batch with the rows read and written so far. */
  onProgress?: (p: { read: number; imported: number }) => void;
}

export interface ImportBmfResult {
  /** Data rows read from the file. */
  read: number;
  /** Rows taken (matching the GEN filter, with a valid EIN): accounts written, or with createAccounts false, IRS organizations written. */
  imported: number;
  /** Rows left out: bad EIN, or another GEN. */
  skipped: number;
}

/** Name shown for an organization: a subordinate's own name is the secondary line (SORT_NAME). */
export function displayName(r: Pick<BmfRecord, 'NAME' | 'SORT_NAME' | 'AFFILIATION'>): string {
  return organizationName({ name: r.NAME.trim(), sortName: r.SORT_NAME.trim(), affiliation: r.AFFILIATION });
}

/** The same rule for an irs_organizations row (NAME, SORT_NAME, AFFILIATION as kept). */
export function organizationName(o: { name: string; sortName: string; affiliation: string | null }): string {
  return o.affiliation === '9' && o.sortName ? o.sortName : o.name;
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

/** Columns of a customer's own account (source 'app' or 'roster') that a BMF file does not overwrite once given (the name always stays its own). */
const CUSTOMER_OWNED = new Set([
  'name',
  'care_of',
  'street',
  'city',
  'state',
  'zip',
  'fiscal_year_end_month',
  'search_text',
]);
/** When a customer has not given a column yet: the IRS's value fills it in. */
const CUSTOMER_BLANK: Record<string, string> = {
  street: "accounts.street = ''",
  city: "accounts.city = ''",
  state: "accounts.state = ''",
  zip: "accounts.zip = ''",
  fiscal_year_end_month: 'accounts.fiscal_year_end_month IS NULL',
};

/** A BMF amount in whole dollars, or null when blank or not a number. */
const amountOf = (s: string) => (/^-?\d+$/.test(s.trim()) ? Number(s.trim()) : null);

/**
 * Maps one BMF record to an irs_organizations row of release `releaseId`; null when its EIN is not
 * 9 digits. The in-care-of name (ICO) is left out: it is a person's.
 */
function bmfToOrganization(r: BmfRecord, releaseId: number): typeof irsOrganizations.$inferInsert | null {
  const ein = r.EIN.trim();
  if (!/^\d{9}$/.test(ein)) return null;
  const acctPd = Number(r.ACCT_PD);
  return {
    ein,
    name: r.NAME.trim(),
    sortName: r.SORT_NAME.trim(),
    street: r.STREET.trim(),
    city: r.CITY.trim(),
    state: r.STATE.trim(),
    zip: r.ZIP.trim(),
    gen: r.GROUP.trim() && r.GROUP.trim() !== '0000' ? r.GROUP.trim() : null,
    subsection: orNull(r.SUBSECTION),
    affiliation: orNull(r.AFFILIATION),
    classification: orNull(r.CLASSIFICATION),
    ruling: orNull(r.RULING),
    deductibility: orNull(r.DEDUCTIBILITY),
    foundation: orNull(r.FOUNDATION),
    activity: orNull(r.ACTIVITY),
    organization: orNull(r.ORGANIZATION),
    irsStatus: orNull(r.STATUS),
    taxPeriod: orNull(r.TAX_PERIOD),
    assetCode: orNull(r.ASSET_CD),
    incomeCode: orNull(r.INCOME_CD),
    filingRequirement: orNull(r.FILING_REQ_CD),
    pfFilingRequirement: orNull(r.PF_FILING_REQ_CD),
    fiscalYearEndMonth: acctPd >= 1 && acctPd <= 12 ? acctPd : null,
    assetAmount: amountOf(r.ASSET_AMT),
    incomeAmount: amountOf(r.INCOME_AMT),
    revenueAmount: amountOf(r.REVENUE_AMT),
    nteeCode: orNull(r.NTEE_CD),
    searchText: searchTextParts(r).join(' '),
    releaseId,
  };
}

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
  // The facts before this release: the organization's previous IRS row, or, for an organization
  // loaded before IRS facts had their own table, the subordinate account the BMF wrote. A customer's
  // own name and address are not the IRS's: they are compared only through the IRS row.
  const found = await db
    .select({
      id: accounts.id,
      ein: accounts.ein,
      source: accounts.source,
      name: accounts.name,
      legalName: accounts.legalName,
      street: accounts.street,
      city: accounts.city,
      state: accounts.state,
      zip: accounts.zip,
      irs: {
        name: irsOrganizations.name,
        sortName: irsOrganizations.sortName,
        affiliation: irsOrganizations.affiliation,
        street: irsOrganizations.street,
        city: irsOrganizations.city,
        state: irsOrganizations.state,
        zip: irsOrganizations.zip,
      },
    })
    .from(accounts)
    .leftJoin(irsOrganizations, eq(irsOrganizations.ein, accounts.ein))
    .where(
      and(
        sql`${accounts.ein} = ANY(${sql.param(rows.map((r) => r.ein))}::text[])`,
        isNotNull(accounts.bmfReleaseId),
        sql`(${accounts.gen} IS NOT NULL OR EXISTS (SELECT 1 FROM users u WHERE u.account_id = ${accounts.id}))`,
      ),
    );
  const before = found.flatMap((a) => {
    if (a.irs?.name != null) {
      const name = organizationName({ name: a.irs.name, sortName: a.irs.sortName, affiliation: a.irs.affiliation });
      return [
        {
          ...a,
          name,
          legalName: a.irs.name,
          street: a.irs.street,
          city: a.irs.city,
          state: a.irs.state,
          zip: a.irs.zip,
        },
      ];
    }
    return a.source === 'irs-bmf' ? [a] : [];
  });
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
  let organizations: (typeof irsOrganizations.$inferInsert)[] = [];
  let gensOfProvider: Set<string> | undefined;
  let headerChecked = false;

  const flush = async () => {
    if (!batch.length) return;
    // One EIN may appear twice in a file; the last row wins, as a second import would.
    const byEin = new Map(batch.map((b) => [b.ein, b]));
    let rows = [...byEin.values()];
    // Before the IRS rows are replaced: the changes are read against the previous ones.
    if (opts.releaseId !== undefined) await recordBmfChanges(db, rows, opts.releaseId);
    if (organizations.length) {
      await db
        .insert(irsOrganizations)
        .values([...new Map(organizations.map((o) => [o.ein, o])).values()])
        .onConflictDoUpdate({
          target: irsOrganizations.ein,
          set: Object.fromEntries(
            Object.keys(organizations[0])
              .filter((k) => k !== 'ein')
              .map((k) => [k, sql.raw(`excluded.${k.replace(/[A-Z]/g, (l) => `_${l.toLowerCase()}`)}`)]),
          ),
        });
    }
    if (opts.createAccounts === false) {
      // A release load updates the accounts that hold its EINs; of the others, only the provider's
      // GENs' subordinates become accounts, unlisted.
      const held = await db
        .select({ ein: accounts.ein })
        .from(accounts)
        .where(sql`${accounts.ein} = ANY(${sql.param(rows.map((r) => r.ein))}::text[])`);
      const heldEins = new Set(held.map((h) => h.ein));
      gensOfProvider ??= new Set(await providerGens(db));
      const ours = gensOfProvider;
      rows = rows
        .filter((r) => heldEins.has(r.ein) || (r.gen !== null && ours.has(r.gen)))
        .map((r) => (heldEins.has(r.ein) ? r : { ...r, isListed: false }));
    }
    imported += opts.createAccounts === false ? byEin.size : rows.length;
    batch = [];
    organizations = [];
    if (!rows.length) {
      opts.onProgress?.({ read, imported });
      return;
    }
    await ensureGroups(db, [...new Set(rows.map((r) => r.gen).filter((g): g is string => !!g))], groupIdByGen);
    for (const r of rows) r.groupId = r.gen ? (groupIdByGen.get(r.gen) ?? null) : null;
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
          ].map((c) => [
            c.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase()),
            // A customer's own account keeps its name, address and fiscal year end: only the IRS's
            // codes are taken (as a roster import does, roster-columns.ts CUSTOMER_COLUMNS).
            CUSTOMER_OWNED.has(c)
              ? sql.raw(
                  `CASE WHEN accounts.source = 'irs-bmf'${c in CUSTOMER_BLANK ? ` OR ${CUSTOMER_BLANK[c]}` : ''} THEN excluded.${c} ELSE accounts.${c} END`,
                )
              : sql.raw(`excluded.${c}`),
          ]),
        ),
      });
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
    if (opts.releaseId !== undefined) organizations.push(must(bmfToOrganization(record, opts.releaseId), 'the row'));
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return { read, imported, skipped };
}
