import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { BackupError, restoreEmbeddedDatabase } from '../db/backup.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { commandArgs } from './command-args.ts';

const USAGE = 'Usage: npm run db:restore -- --from FILE';

/**
 * npm run db:restore -- --from <file>
 * Restores a backup of `npm run db:backup` into DATA_DIR's embedded database; the server must be
 * stopped, and a database already there is moved aside, not deleted (docs/operations.md "Backup
 * and restore"). With DATABASE_URL it explains pg_restore instead.
 */
async function main() {
  const { values } = commandArgs({ options: { from: { type: 'string' } } }, USAGE);
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error(
      'DATABASE_URL is set: restore a pg_dump file with pg_restore, e.g.\n' +
        '  pg_restore --clean --if-exists --no-owner --dbname "$DATABASE_URL" goodstanding.dump\n' +
        '(docs/operations.md "Backup and restore").',
    );
    process.exit(1);
  }
  if (!values.from) {
    console.error(`Name the backup to restore.\n${USAGE}`);
    process.exit(2);
  }
  const pgliteDir = path.join(config.dataDir, 'db');
  const { movedAside, tables } = await restoreEmbeddedDatabase(path.resolve(values.from), pgliteDir);
  console.log(`Restored ${values.from} into ${pgliteDir} (${tables} tables).`);
  if (movedAside)
    console.log(`The database that was there is kept in ${movedAside}; delete it once you no longer need it.`);
}

main().catch((err) => {
  console.error(
    err instanceof ConfigError || err instanceof BackupError || err instanceof DataDirLockedError ? err.message : err,
  );
  process.exit(1);
});
