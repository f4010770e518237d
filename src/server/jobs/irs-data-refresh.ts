import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importBmf } from '../modules/subordinates/import-bmf.ts';
import { getSetting, putSetting } from '../modules/settings.ts';
import { vacuumAnalyze } from '../db/maintenance.ts';

/** app_settings key remembering that a file with this sha256 was imported. */
const importedKey = (sha256: string) => `jobs.irs-data-refresh.imported.${sha256}`;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The IRS data refresh (docs/jobs.md "Jobs"): imports each `.csv` file in `config.jobs.irsDataDir`
 * (IRS_DATA_DIR) not imported before, judged by its sha256, with the BMF importer (importBmf:
 * listed accounts, idempotent by EIN), in name order. Does nothing when IRS_DATA_DIR is unset.
 * A file whose import fails is not remembered, so the next run tries it again.
 * Writes: accounts, groups (importBmf); app_settings `jobs.irs-data-refresh.imported.<sha256>`.
 * @returns itemsDone = files imported; summary lists them with their rows
 * @throws Error when the folder cannot be read or a file is not a BMF extract
 */
export async function runIrsDataRefresh(app: FastifyInstance): Promise<{ itemsDone: number; summary: Record<string, unknown> }> {
  const dir = app.config.jobs.irsDataDir;
  if (!dir) return { itemsDone: 0, summary: { skipped: 'IRS_DATA_DIR is not set' } };
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.csv'))
    .map((e) => e.name)
    .sort();
  const imported: { file: string; rows: number }[] = [];
  let alreadyImported = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const sha256 = await sha256Of(file);
    if (await getSetting(app.db, importedKey(sha256))) {
      alreadyImported += 1;
      continue;
    }
    const result = await importBmf(app.db, file, { batchSize: 2000 });
    await putSetting(app.db, importedKey(sha256), JSON.stringify({ file: name, importedAt: new Date().toISOString(), rows: result.imported }));
    imported.push({ file: name, rows: result.imported });
  }
  // PGlite has no autovacuum; after an import searches need fresh statistics (docs/ARCHITECTURE.md "Data").
  if (imported.length) await vacuumAnalyze(app.db, 'accounts');
  return { itemsDone: imported.length, summary: { imported, alreadyImported } };
}
