import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calendarDate } from '../../shared/rules/compliance-calendar.ts';
import { vacuumAnalyze } from '../db/maintenance.ts';
import { downloadIrsRelease } from '../modules/irs-data/download-release.ts';
import { IRS_DATASET_NAMES, IrsFileError, type IrsDataset } from '../modules/irs-data/irs-files.ts';
import { lastIrsSource, loadIrsRelease, type IrsReleaseSource } from '../modules/irs-data/load-release.ts';
import { buildWorkQueue } from '../modules/work-queue/build-work-queue.ts';
import type { FastifyInstance } from 'fastify';

const DATASETS: IrsDataset[] = ['bmf', 'epostcard', 'revocations', 'pub78'];
const RELEASE_FOLDER = /^\d{4}-\d{2}-\d{2}$/;

/** A file to load (of IRS_DATA_DIR, or downloaded from the IRS), with its data set and release date. */
interface ReleaseFile {
  dataset: IrsDataset;
  releasedOn: string;
  file: string;
  name: string;
  /** Downloaded: the address and validators to record on the release. */
  source?: IrsReleaseSource;
}

/** What the downloads of one run gave. */
interface Downloads {
  files: ReleaseFile[];
  /** Addresses that answered 304: the file loaded last time is still the IRS's. */
  notModified: string[];
  /** One line per download that failed, for staff. */
  failed: string[];
}

/**
 * Downloads each IRS address of config.irsDownload in turn (docs/irs-data.md "Refresh"), into
 * `dir`. A failed download is noted with its reason and the others go on.
 */
async function downloadReleases(app: FastifyInstance, dir: string, signal?: AbortSignal): Promise<Downloads> {
  const config = app.config.irsDownload;
  const out: Downloads = { files: [], notModified: [], failed: [] };
  for (const { dataset, url } of config.sources) {
    try {
      const got = await downloadIrsRelease(dataset, url, {
        dir,
        previous: await lastIrsSource(app.db, url),
        timeoutMs: config.timeoutMs,
        retries: config.retries,
        retryDelayMs: config.retryDelayMs,
        maxBytes: config.maxBytes,
        userAgent: `GoodStanding IRS data refresh (+${app.config.publicUrl})`,
        signal,
      });
      if (got.status === 'not-modified') out.notModified.push(url);
      else
        out.files.push({
          dataset,
          releasedOn: got.releasedOn,
          file: got.file,
          name: path.basename(got.file),
          source: got.source,
        });
    } catch (err) {
      out.failed.push(`${IRS_DATASET_NAMES[dataset]} (${url}): ${(err as Error).message}`);
    }
  }
  return out;
}

async function files(dir: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

async function folders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The files of IRS_DATA_DIR, oldest release first (docs/irs-data.md "Refresh"):
 * `<dataset>/<YYYY-MM-DD>/<file>` for each data set, the folder named by the IRS release date; and,
 * as before releases were recorded, `.csv` files at the top as BMF extracts released on the day
 * the file was last modified (UTC).
 */
async function releaseFiles(dir: string): Promise<ReleaseFile[]> {
  const found: ReleaseFile[] = [];
  for (const name of (await files(dir)).filter((n) => n.toLowerCase().endsWith('.csv'))) {
    const file = path.join(dir, name);
    found.push({ dataset: 'bmf', releasedOn: (await stat(file)).mtime.toISOString().slice(0, 10), file, name });
  }
  for (const dataset of DATASETS) {
    for (const releasedOn of (await folders(path.join(dir, dataset))).filter((f) => RELEASE_FOLDER.test(f))) {
      for (const name of await files(path.join(dir, dataset, releasedOn))) {
        found.push({
          dataset,
          releasedOn,
          file: path.join(dir, dataset, releasedOn, name),
          name: `${dataset}/${releasedOn}/${name}`,
        });
      }
    }
  }
  return found.sort((a, b) => (a.releasedOn < b.releasedOn ? -1 : a.releasedOn > b.releasedOn ? 1 : 0));
}

/**
 * The IRS data refresh (docs/jobs.md "Jobs", docs/irs-data.md "Refresh"): with IRS_DOWNLOAD=on,
 * downloads the IRS's files from `config.irsDownload.sources` (downloadIrsRelease: only those
 * changed since the last load, to a temporary folder under the OS temp dir, removed at the end);
 * with IRS_DATA_DIR, reads every file of `config.jobs.irsDataDir`; then loads them all as IRS
 * releases through loadIrsRelease, oldest release first. A file loaded before (same sha256) changes
 * nothing; each load is one transaction, so a run that fails part way keeps the releases it
 * finished and the next run goes on from there. Does nothing when neither is set.
 * Writes: irs_releases (with a download's address and validators), accounts and groups (BMF),
 * irs_epostcards, irs_revocations, irs_pub78; then the staff work queue's new items
 * (buildWorkQueue, work_items).
 * @returns itemsDone = files loaded; summary lists them (file, data set, release date, rows loaded,
 *   the address of a download), counts the files loaded before, and lists the addresses whose file
 *   had not changed (HTTP 304)
 * @throws IrsFileError naming the file when it is not its data set's layout, is cut short, or is
 *   older than a release already loaded: the run fails with that message (the files after it wait),
 *   and the file is tried again next time
 * @throws Error naming each failed download with its reason (unreachable, timed out, cut short,
 *   an HTTP error, a zip refused), after the files that did arrive were loaded
 */
export async function runIrsDataRefresh(
  app: FastifyInstance,
  signal?: AbortSignal,
): Promise<{ itemsDone: number; summary: Record<string, unknown> }> {
  const dir = app.config.jobs.irsDataDir;
  const download = app.config.irsDownload.enabled;
  if (!dir && !download) {
    return { itemsDone: 0, summary: { skipped: 'IRS_DOWNLOAD is off and IRS_DATA_DIR is not set' } };
  }
  const imported: { file: string; dataset: IrsDataset; releasedOn: string; rows: number; url?: string }[] = [];
  let alreadyImported = 0;
  const tmp = download ? await mkdtemp(path.join(tmpdir(), 'goodstanding-irs-download-')) : null;
  let downloads: Downloads = { files: [], notModified: [], failed: [] };
  try {
    if (tmp) downloads = await downloadReleases(app, tmp, signal);
    const files = [...(dir ? await releaseFiles(dir) : []), ...downloads.files].sort((a, b) =>
      a.releasedOn < b.releasedOn ? -1 : a.releasedOn > b.releasedOn ? 1 : 0,
    );
    try {
      for (const f of files) {
        let result: Awaited<ReturnType<typeof loadIrsRelease>>;
        try {
          result = await loadIrsRelease(app.db, {
            dataset: f.dataset,
            file: f.file,
            releasedOn: f.releasedOn,
            batchSize: 2000,
            source: f.source,
          });
        } catch (err) {
          if (!(err instanceof IrsFileError)) throw err;
          // Stop here, as before: a later release of the same file must not pass this one.
          const failedToo = downloads.failed.length
            ? ` ${downloads.failed.length} IRS downloads failed too: ${downloads.failed.join('; ')}`
            : '';
          throw new IrsFileError(
            `${f.name}${f.source ? ` (${f.source.url}, released ${f.releasedOn})` : ''}: ${err.message}${failedToo}`,
          );
        }
        if (result.status === 'unchanged') alreadyImported += 1;
        else
          imported.push({
            file: f.name,
            dataset: f.dataset,
            releasedOn: f.releasedOn,
            rows: result.loaded,
            ...(f.source ? { url: f.source.url } : {}),
          });
      }
    } finally {
      // PGlite has no autovacuum; after an import searches need fresh statistics (docs/ARCHITECTURE.md "Data").
      if (imported.some((i) => i.dataset === 'bmf')) await vacuumAnalyze(app.db, 'accounts');
    }
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
  // Then the staff work queue, from what is loaded now (docs/work-queue.md): idempotent, so a run
  // that loaded nothing new adds nothing either, unless the day made a due date pass.
  const workQueue = await buildWorkQueue(app.db, calendarDate(new Date()));
  if (downloads.failed.length) {
    const loaded = imported.length
      ? `Loaded ${imported.map((i) => `${i.file} (released ${i.releasedOn})`).join(', ')}; `
      : 'Nothing new was loaded; ';
    throw new Error(
      `${loaded}${downloads.failed.length} of ${app.config.irsDownload.sources.length} IRS downloads failed, and the releases loaded before stay: ${downloads.failed.join('; ')}`,
    );
  }
  return {
    itemsDone: imported.length,
    summary: {
      imported,
      alreadyImported,
      ...(download ? { notModified: downloads.notModified } : {}),
      workItemsAdded: workQueue.byKind,
    },
  };
}
