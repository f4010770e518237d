import path from 'node:path';
import { and, desc, eq, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { parseIsoDate } from '../../../shared/rules/compliance-calendar.ts';
import { irsEpostcards, irsPub78, irsReleases, irsRevocations } from '../../db/schema.ts';
import { importBmf } from '../subordinates/import-bmf.ts';
import {
  checkIrsFile,
  irsFileRows,
  IrsFileError,
  IRS_DATASET_NAMES,
  ROW_PARSERS,
  type EpostcardRow,
  type IrsDataset,
  type Pub78Row,
  type RevocationRow,
} from './irs-files.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

export type IrsRelease = typeof irsReleases.$inferSelect;

/**
 * Where a downloaded file came from (docs/irs-data.md "Refresh"): the IRS address and the HTTP
 * validators of the answer that gave it (ETag, Last-Modified), kept on its release so that the
 * next refresh asks "only if changed".
 */
export interface IrsReleaseSource {
  url: string;
  etag: string | null;
  lastModified: Date | null;
}

export interface LoadIrsReleaseInput {
  dataset: IrsDataset;
  file: string;
  /**
   * The IRS's release date of the file, 'YYYY-MM-DD' (the download page's "last updated"), or
   * 'YYYY-MM' when the IRS gave only the month (recorded as the 1st with precision 'month', cited by
   * its month).
   */
  releasedOn: string;
  /** BMF only: load only the rows of this group exemption number (4 digits). */
  gen?: string;
  /** Rows per statement (default 1,000). */
  batchSize?: number;
  /** Called after each batch: rows read and loaded so far. */
  onProgress?: (p: { read: number; loaded: number }) => void;
  /** The refresh job's download the file came from; recorded on the release (also on the same file loaded before). */
  source?: IrsReleaseSource;
}

export interface LoadIrsReleaseResult {
  /** 'unchanged': this very file (same sha256) was loaded before; nothing was written. */
  status: 'loaded' | 'unchanged';
  release: IrsRelease;
  rows: number;
  loaded: number;
  skipped: number;
}

async function loadEpostcards(tx: DbOrTx, rows: EpostcardRow[], releaseId: number) {
  // One EIN and tax year may be filed twice (an amended notice): the last row wins.
  const unique = [...new Map(rows.map((r) => [`${r.ein}:${r.taxYear}`, r])).values()];
  await tx
    .insert(irsEpostcards)
    .values(unique.map((r) => ({ ...r, releaseId })))
    .onConflictDoUpdate({
      target: [irsEpostcards.ein, irsEpostcards.taxYear],
      set: {
        periodBegin: sql`excluded.period_begin`,
        periodEnd: sql`excluded.period_end`,
        terminated: sql`excluded.terminated`,
        releaseId: sql`excluded.release_id`,
      },
    });
  return unique.length;
}

async function loadRevocations(tx: DbOrTx, rows: RevocationRow[], releaseId: number) {
  const unique = [...new Map(rows.map((r) => [`${r.ein}:${r.revokedOn}`, r])).values()];
  await tx
    .insert(irsRevocations)
    .values(unique.map((r) => ({ ...r, releaseId })))
    .onConflictDoUpdate({
      target: [irsRevocations.ein, irsRevocations.revokedOn],
      set: {
        legalName: sql`excluded.legal_name`,
        postedOn: sql`excluded.posted_on`,
        reinstatedOn: sql`excluded.reinstated_on`,
        releaseId: sql`excluded.release_id`,
      },
    });
  return unique.length;
}

async function loadPub78(tx: DbOrTx, rows: Pub78Row[], releaseId: number) {
  // An EIN listed twice (the IRS's "multiple listings") keeps the codes of both entries.
  const byEin = new Map<string, Pub78Row>();
  for (const r of rows) {
    const seen = byEin.get(r.ein);
    byEin.set(r.ein, seen ? { ...seen, codes: [...new Set([...seen.codes, ...r.codes])] } : r);
  }
  const unique = [...byEin.values()];
  await tx
    .insert(irsPub78)
    .values(
      unique.map((r) => ({
        ein: r.ein,
        name: r.name,
        city: r.city,
        state: r.state,
        country: r.country,
        deductibilityCodes: r.codes.join(','),
        releaseId,
      })),
    )
    .onConflictDoUpdate({
      target: irsPub78.ein,
      set: {
        deductibilityCodes: sql`array_to_string(ARRAY(SELECT DISTINCT c FROM unnest(string_to_array(${irsPub78.deductibilityCodes} || ',' || excluded.deductibility_codes, ',')) AS c WHERE c <> '' ORDER BY c), ',')`,
      },
    });
  return unique.length;
}

/**
 * Loads one IRS data file as a release (docs/irs-data.md): checks the whole file first (layout,
 * text, not cut short; see checkIrsFile), then, in one transaction, records the release in
 * irs_releases and writes its rows in batches: the BMF into irs_organizations, and the IRS columns
 * of the accounts that hold its EINs (importBmf with createAccounts false: no account is created), the 990-N data into irs_epostcards, the revocation list into
 * irs_revocations, the Publication 78 data into irs_pub78 (replaced whole: the IRS publishes the
 * current list, and an organization missing from it is no longer eligible). Idempotent: the same file again (same sha256) writes nothing
 * (with a `source`, only that source's address and validators onto the release loaded before).
 * A failure writes nothing either: the transaction is rolled back. After a BMF release commits,
 * VACUUM (ANALYZE) irs_organizations (the lookup by name's index-only pages, migration 0041).
 * @throws IrsFileError when the file is not the data set's layout, is cut short or not text, when
 *   `releasedOn` is not a date, or when a newer release of the same file (BMF: same file name;
 *   others: the data set) is already loaded
 */
export async function loadIrsRelease(db: Db, input: LoadIrsReleaseInput): Promise<LoadIrsReleaseResult> {
  const precision = /^\d{4}-\d{2}$/.test(input.releasedOn) ? 'month' : 'day';
  const releasedOn = precision === 'month' ? `${input.releasedOn}-01` : input.releasedOn;
  try {
    parseIsoDate(releasedOn);
  } catch {
    throw new IrsFileError(
      `The release date must be a date as YYYY-MM-DD (or YYYY-MM when only the month is known), not "${input.releasedOn}".`,
    );
  }
  input = { ...input, releasedOn };
  const fileName = path.basename(input.file);
  const check = await checkIrsFile(input.file, input.dataset);
  const [same] = await db
    .select()
    .from(irsReleases)
    .where(and(eq(irsReleases.dataset, input.dataset), eq(irsReleases.sha256, check.sha256)));
  if (same) {
    if (!input.source) return { status: 'unchanged', release: same, rows: check.rows, loaded: 0, skipped: 0 };
    const [noted] = await db
      .update(irsReleases)
      .set(sourceColumns(input.source))
      .where(eq(irsReleases.id, same.id))
      .returning();
    return { status: 'unchanged', release: noted, rows: check.rows, loaded: 0, skipped: 0 };
  }
  const [newest] = await db
    .select()
    .from(irsReleases)
    .where(
      and(
        eq(irsReleases.dataset, input.dataset),
        input.dataset === 'bmf' ? eq(irsReleases.fileName, fileName) : undefined,
      ),
    )
    .orderBy(desc(irsReleases.releasedOn))
    .limit(1);
  if (newest && newest.releasedOn > input.releasedOn) {
    throw new IrsFileError(
      `${fileName} (released ${input.releasedOn}) is older than the ${IRS_DATASET_NAMES[input.dataset]} already loaded (${newest.fileName}, released ${newest.releasedOn}): nothing was changed.`,
    );
  }
  const batchSize = input.batchSize ?? 1000;

  const result = await db.transaction(async (tx) => {
    const [release] = await tx
      .insert(irsReleases)
      .values({
        dataset: input.dataset,
        fileName,
        releasedOn: input.releasedOn,
        releasedPrecision: precision,
        rowCount: check.rows,
        loadedCount: 0,
        sha256: check.sha256,
        ...(input.source ? sourceColumns(input.source) : {}),
      })
      .returning();
    let loaded = 0;
    let skipped = 0;
    if (input.dataset === 'bmf') {
      const result = await importBmf(tx, input.file, {
        gen: input.gen,
        batchSize,
        releaseId: release.id,
        // The IRS's facts go to irs_organizations; accounts holding an EIN get its IRS columns, and
        // no account is created (docs/irs-data.md "IRS facts").
        createAccounts: false,
        onProgress: ({ read, imported }) => input.onProgress?.({ read, loaded: imported }),
      });
      loaded = result.imported;
      skipped = result.skipped;
    } else {
      let read = 0;
      let batch: (EpostcardRow | RevocationRow | Pub78Row)[] = [];
      const write = { epostcard: loadEpostcards, revocations: loadRevocations, pub78: loadPub78 }[input.dataset] as (
        tx: DbOrTx,
        rows: typeof batch,
        releaseId: number,
      ) => Promise<number>;
      const flush = async () => {
        if (!batch.length) return;
        loaded += await write(tx, batch, release.id);
        batch = [];
        input.onProgress?.({ read, loaded });
      };
      if (input.dataset === 'pub78') await tx.delete(irsPub78);
      const parseRow = must(ROW_PARSERS[input.dataset], `the row parser of ${input.dataset}`);
      for await (const [fields, line] of irsFileRows(input.file, input.dataset)) {
        read++;
        const row = parseRow(fields, line);
        if (!row) {
          skipped++;
          continue;
        }
        batch.push(row);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
    }
    const [done] = await tx
      .update(irsReleases)
      .set({ loadedCount: loaded })
      .where(eq(irsReleases.id, release.id))
      .returning();
    return { status: 'loaded' as const, release: done, rows: check.rows, loaded, skipped };
  });
  if (input.dataset === 'bmf') {
    // The lookup by name reads a page from irs_organizations_name_order alone only where the
    // visibility map says the rows are visible to all (migration 0041), and the planner chooses
    // between that index and pg_trgm by the statistics: both are brought up to date now rather
    // than whenever autovacuum comes (PGlite has none). The release is committed already; a
    // VACUUM cut short (a statement timeout) changes no data, and autovacuum finishes it later.
    await db.execute(sql`VACUUM (ANALYZE) irs_organizations`).catch(() => undefined);
  }
  return result;
}

const sourceColumns = (source: IrsReleaseSource) => ({
  sourceUrl: source.url,
  sourceEtag: source.etag,
  sourceLastModified: source.lastModified,
});

/**
 * The validators of the last file loaded from an IRS address (docs/irs-data.md "Refresh"), for a
 * conditional request; null when nothing was loaded from it yet.
 */
export async function lastIrsSource(db: DbOrTx, url: string): Promise<IrsReleaseSource | null> {
  const [row] = await db
    .select({ etag: irsReleases.sourceEtag, lastModified: irsReleases.sourceLastModified })
    .from(irsReleases)
    .where(eq(irsReleases.sourceUrl, url))
    // The latest answer is the one with the newest Last-Modified (a file the IRS put back is
    // recorded on its earlier release, with the new answer's validators).
    .orderBy(sql`${irsReleases.sourceLastModified} DESC NULLS LAST`, desc(irsReleases.id))
    .limit(1);
  return row ? { url, etag: row.etag, lastModified: row.lastModified } : null;
}

/** The newest loaded release of each data set (by release date), or null when none is. */
export async function latestIrsReleases(db: DbOrTx): Promise<Record<IrsDataset, IrsRelease | null>> {
  const rows = await db
    .selectDistinctOn([irsReleases.dataset])
    .from(irsReleases)
    .orderBy(irsReleases.dataset, desc(irsReleases.releasedOn), desc(irsReleases.id));
  const by = (d: IrsDataset) => rows.find((r) => r.dataset === d) ?? null;
  return { bmf: by('bmf'), epostcard: by('epostcard'), revocations: by('revocations'), pub78: by('pub78') };
}
