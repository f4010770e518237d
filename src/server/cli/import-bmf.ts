import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { commandTimeouts, openDatabase } from '../db/client.ts';
import { vacuumAnalyze } from '../db/maintenance.ts';
import { importBmf } from '../modules/subordinates/import-bmf.ts';
import { commandArgs } from './command-args.ts';

const USAGE = 'Usage: npm run import:bmf -- FILE.csv [MORE.csv ...] [--gen NNNN]';

/**
 * npm run import:bmf -- FILE.csv [FILE2.csv ...] [--gen NNNN]
 * Imports IRS EO BMF extracts into the configured database (PGlite in DATA_DIR or DATABASE_URL),
 * idempotent by EIN. Stop the server first when it uses the embedded database.
 */
async function main() {
  const { values, positionals } = commandArgs({ allowPositionals: true, options: { gen: { type: 'string' } } }, USAGE);
  if (!positionals.length) {
    console.error(`Name at least one file.\n${USAGE}`);
    process.exit(2);
  }
  if (values.gen !== undefined && !/^\d{4}$/.test(values.gen)) {
    console.error('--gen takes a 4-digit group exemption number, e.g. --gen 5271');
    process.exit(2);
  }
  for (const f of positionals) {
    if (!fs.existsSync(f)) {
      console.error(`No such file: ${f}`);
      process.exit(2);
    }
  }
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    timeouts: commandTimeouts(config),
  });
  try {
    await database.migrate();
    let total = 0;
    for (const file of positionals) {
      const started = Date.now();
      const result = await importBmf(database.db, file, {
        gen: values.gen,
        batchSize: 2000,
        onProgress: ({ read, imported }) =>
          process.stderr.write(`\r${path.basename(file)}: ${read} rows read, ${imported} imported`),
      });
      process.stderr.write('\n');
      console.log(
        `${path.basename(file)}: ${result.read} rows read, ${result.imported} imported, ${result.skipped} skipped in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      total += result.imported;
    }
    process.stderr.write('Refreshing the search index statistics (VACUUM ANALYZE)...\n');
    await vacuumAnalyze(database.db, 'accounts');
    console.log(`Done: ${total} organizations imported or updated.`);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
