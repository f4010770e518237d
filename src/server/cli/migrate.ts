import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { commandTimeouts, openDatabase } from '../db/client.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { commandArgs } from './command-args.ts';

const USAGE = 'Usage: npm run db:migrate';

/**
 * npm run db:migrate
 * Applies the committed migrations to the configured database (DATABASE_URL, or PGlite in
 * DATA_DIR) and exits, without seeding or serving: for deploys that migrate before starting the
 * new servers (docs/deploy.md). Holds the startup lock, so servers starting meanwhile wait.
 */
async function main() {
  commandArgs({ options: {} }, USAGE);
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    poolSize: 2,
    timeouts: commandTimeouts(config),
  });
  try {
    await database.migrate();
    console.log(
      `Migrations applied (${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${path.join(config.dataDir, 'db')}`}).`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err);
  process.exit(1);
});
