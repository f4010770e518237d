import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { ScaleRefusedError, seedScale } from '../db/seed/scale.ts';
import { commandArgs } from './command-args.ts';

const USAGE = 'Usage: npm run seed:scale -- [--accounts N] [--force] [--allow-embedded]';

/**
 * npm run seed:scale -- [--accounts N] [--force] [--allow-embedded]
 * Applies the migrations (like db:migrate), then fills the configured PostgreSQL database
 * (DATABASE_URL) with synthetic but realistic data in proportion to N accounts (default 50,000):
 * docs/benchmarks.md "Staff lists at scale". Refuses the embedded database unless
 * --allow-embedded (millions of rows are a PostgreSQL job), and a database with more than 1,000
 * accounts unless --force. Prints progress on stderr and the rows written with the total time.
 */
async function main() {
  const { values } = commandArgs(
    {
      options: {
        accounts: { type: 'string', default: '50000' },
        force: { type: 'boolean', default: false },
        'allow-embedded': { type: 'boolean', default: false },
      },
    },
    USAGE,
  );
  const accounts = Number(values.accounts);
  if (!Number.isInteger(accounts) || accounts < 1 || accounts > 2_000_000) {
    console.error(`--accounts takes a whole number from 1 to 2000000\n${USAGE}`);
    process.exit(2);
  }
  const config = loadConfig();
  if (!config.databaseUrl && !values['allow-embedded']) {
    console.error(
      'seed:scale writes millions of rows: it is meant for a PostgreSQL server. Set DATABASE_URL, or pass --allow-embedded to fill the embedded database in DATA_DIR anyway (stop the server first).',
    );
    process.exit(2);
  }
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    poolSize: 2,
  });
  try {
    await database.migrate();
    const report = await seedScale(database, {
      accounts,
      force: values.force,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    console.log(JSON.stringify(report, null, 2));
    console.log(`seed:scale took ${report.seconds} s.`);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  const known = err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof ScaleRefusedError;
  console.error(known ? err.message : err);
  process.exit(1);
});
