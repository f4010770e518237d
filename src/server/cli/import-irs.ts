import path from 'node:path';
import { must } from '../../shared/must.ts';
import { calendarDate } from '../../shared/rules/compliance-calendar.ts';
import { loadConfig } from '../config.ts';
import { commandTimeouts, openDatabase } from '../db/client.ts';
import { vacuumAnalyze } from '../db/maintenance.ts';
import { IrsFileError, type IrsDataset } from '../modules/irs-data/irs-files.ts';
import { loadIrsRelease } from '../modules/irs-data/load-release.ts';
import { buildWorkQueue } from '../modules/work-queue/build-work-queue.ts';
import { commandArgs } from './command-args.ts';

const USAGE =
  'Usage: npm run import:irs -- --dataset bmf|epostcard|revocations|pub78 --released YYYY-MM-DD|YYYY-MM FILE [MORE ...] [--gen NNNN]';
const DATASETS: IrsDataset[] = ['bmf', 'epostcard', 'revocations', 'pub78'];

/**
 * npm run import:irs -- --dataset bmf|epostcard|revocations|pub78 --released YYYY-MM-DD FILE ... [--gen NNNN]
 * Loads IRS data files as releases (docs/irs-data.md) into the configured database: each file is
 * checked whole first, then loaded in one transaction; the same file again changes nothing, an
 * older release or a bad file is refused with the reason (exit 1). Then builds the staff work
 * queue from what is loaded (buildWorkQueue, docs/work-queue.md). Stop the server first when it
 * uses the embedded database.
 */
async function main() {
  const { values, positionals } = commandArgs(
    {
      allowPositionals: true,
      options: { dataset: { type: 'string' }, released: { type: 'string' }, gen: { type: 'string' } },
    },
    USAGE,
  );
  const fail = (message: string) => {
    console.error(`${message}\n${USAGE}`);
    process.exit(2);
  };
  if (!values.dataset || !DATASETS.includes(values.dataset as IrsDataset))
    fail('--dataset takes bmf, epostcard, revocations or pub78.');
  if (!values.released || !/^\d{4}-\d{2}(-\d{2})?$/.test(values.released))
    fail('--released takes the IRS release date of the files, as YYYY-MM-DD (YYYY-MM when only the month is known).');
  if (!positionals.length) fail('Name at least one file.');
  if (values.gen !== undefined && (values.dataset !== 'bmf' || !/^\d{4}$/.test(values.gen)))
    fail('--gen takes a 4-digit group exemption number, with --dataset bmf only.');
  const dataset = values.dataset as IrsDataset;

  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    timeouts: commandTimeouts(config),
  });
  let failed = false;
  try {
    await database.migrate();
    for (const file of positionals) {
      const started = Date.now();
      try {
        const result = await loadIrsRelease(database.db, {
          dataset,
          file,
          releasedOn: must(values.released, 'the --released date'),
          gen: values.gen,
          batchSize: 2000,
          onProgress: ({ read, loaded }) =>
            process.stderr.write(`\r${path.basename(file)}: ${read} rows read, ${loaded} loaded`),
        });
        process.stderr.write('\n');
        console.log(
          result.status === 'unchanged'
            ? `${path.basename(file)}: already loaded (release of ${result.release.releasedOn}); nothing changed.`
            : `${path.basename(file)}: ${result.rows} rows, ${result.loaded} loaded, ${result.skipped} skipped, release of ${result.release.releasedOn} recorded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      } catch (err) {
        if (!(err instanceof IrsFileError)) throw err;
        console.error(`${path.basename(file)}: ${err.message}`);
        failed = true;
      }
    }
    if (dataset === 'bmf') await vacuumAnalyze(database.db, 'accounts');
    // The staff work queue, from what is loaded now (docs/work-queue.md).
    const queue = await buildWorkQueue(database.db, calendarDate(new Date()));
    console.log(`Work queue: ${queue.added} new item${queue.added === 1 ? '' : 's'}.`);
  } finally {
    await database.close();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
