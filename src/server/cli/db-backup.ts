import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { BackupError, backupEmbeddedDatabase } from '../db/backup.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { commandArgs } from './command-args.ts';

const USAGE = 'Usage: npm run db:backup [-- --out FILE]';

/**
 * npm run db:backup [-- --out <file>]
 * Backs up the embedded database of DATA_DIR to a gzip tar (default
 * `${DATA_DIR}/backups/goodstanding-<time>.tar.gz`), through the running server when there is one
 * (docs/operations.md "Backup and restore"). With DATABASE_URL it explains pg_dump instead.
 */
async function main() {
  const { values } = commandArgs({ options: { out: { type: 'string' } } }, USAGE);
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error(
      'DATABASE_URL is set: back up the PostgreSQL database with pg_dump, e.g.\n' +
        '  pg_dump -Fc --dbname "$DATABASE_URL" --file goodstanding-$(date +%Y%m%d-%H%M).dump\n' +
        '(docs/operations.md "Backup and restore").',
    );
    process.exit(1);
  }
  const file = path.resolve(
    values.out ??
      path.join(config.dataDir, 'backups', `goodstanding-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`),
  );
  const started = Date.now();
  const { bytes, throughServer } = await backupEmbeddedDatabase(path.join(config.dataDir, 'db'), file);
  console.log(
    `Backup written to ${file} (${(bytes / 1_048_576).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s${throughServer ? ', by the running server' : ''}).`,
  );
  console.log(`Restore it with: npm run db:restore -- --from ${file}`);
}

main().catch((err) => {
  console.error(
    err instanceof ConfigError || err instanceof BackupError || err instanceof DataDirLockedError ? err.message : err,
  );
  process.exit(1);
});
