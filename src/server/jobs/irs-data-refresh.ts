import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { calendarDate } from '../../shared/rules/compliance-calendar.ts';
import { vacuumAnalyze } from '../db/maintenance.ts';
import { loadIrsRelease } from '../modules/irs-data/load-release.ts';
import { buildWorkQueue } from '../modules/work-queue/build-work-queue.ts';
import type { IrsDataset } from '../modules/irs-data/irs-files.ts';
import type { FastifyInstance } from 'fastify';

const DATASETS: IrsDataset[] = ['bmf', 'epostcard', 'revocations', 'pub78'];
const RELEASE_FOLDER = /^\d{4}-\d{2}-\d{2}$/;

/** A file of IRS_DATA_DIR to load, with its data set and release date. */
interface ReleaseFile {
  dataset: IrsDataset;
  releasedOn: string;
  file: string;
  name: string;
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
 * The IRS data refresh (docs/jobs.md "Jobs", docs/irs-data.md "Refresh"): loads every file of
 * `config.jobs.irsDataDir` (IRS_DATA_DIR) as an IRS release through loadIrsRelease, oldest release
 * first. A file loaded before (same sha256) changes nothing; each load is one transaction, so a run
 * that fails part way keeps the releases it finished and the next run goes on from there. Does
 * nothing when IRS_DATA_DIR is unset.
 * Writes: irs_releases, accounts and groups (BMF), irs_epostcards, irs_revocations; then the
 * staff work queue's new items (buildWorkQueue, work_items).
 * @returns itemsDone = files loaded; summary lists them (file, data set, release date, rows loaded)
 * @throws IrsFileError when a file is not its data set's layout, is cut short, or is older than a
 *   release already loaded: the run fails with that message, and the file is tried again next time
 */
export async function runIrsDataRefresh(
  app: FastifyInstance,
): Promise<{ itemsDone: number; summary: Record<string, unknown> }> {
  const dir = app.config.jobs.irsDataDir;
  if (!dir) return { itemsDone: 0, summary: { skipped: 'IRS_DATA_DIR is not set' } };
  const imported: { file: string; dataset: IrsDataset; releasedOn: string; rows: number }[] = [];
  let alreadyImported = 0;
  try {
    for (const f of await releaseFiles(dir)) {
      const result = await loadIrsRelease(app.db, {
        dataset: f.dataset,
        file: f.file,
        releasedOn: f.releasedOn,
        batchSize: 2000,
      });
      if (result.status === 'unchanged') alreadyImported += 1;
      else imported.push({ file: f.name, dataset: f.dataset, releasedOn: f.releasedOn, rows: result.loaded });
    }
  } finally {
    // PGlite has no autovacuum; after an import searches need fresh statistics (docs/ARCHITECTURE.md "Data").
    if (imported.some((i) => i.dataset === 'bmf')) await vacuumAnalyze(app.db, 'accounts');
  }
  // Then the staff work queue, from what is loaded now (docs/work-queue.md): idempotent, so a run
  // that loaded nothing new adds nothing either, unless the day made a due date pass.
  const workQueue = await buildWorkQueue(app.db, calendarDate(new Date()));
  return { itemsDone: imported.length, summary: { imported, alreadyImported, workItemsAdded: workQueue.byKind } };
}
