import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR, openDatabase } from '../../src/server/db/client.ts';
import { must } from '../../src/shared/must.ts';

/**
 * A migrated, empty PGlite database as a gzip tar (PGlite's `loadDataDir` format), made once per
 * set of migrations and PGlite version and kept in the system's temporary folder. A test app starts
 * from it in about a third of the time an empty cluster takes to create and migrate, which over the
 * few hundred apps of a test run is minutes. The file's name carries a hash of every migration
 * file and of PGlite's version, so a new or changed migration makes a new snapshot; the tests of
 * the migrations themselves open empty databases and do not use it.
 * Writes `goodstanding-test-pglite-<hash>.tar.gz` in os.tmpdir() (written aside, then renamed, so
 * parallel test files never read half a file).
 * @returns the snapshot's bytes
 */
export async function migratedPgliteSnapshot(): Promise<Uint8Array> {
  const file = path.join(os.tmpdir(), `goodstanding-test-pglite-${migrationsHash()}.tar.gz`);
  if (fs.existsSync(file)) return new Uint8Array(fs.readFileSync(file));
  const database = await openDatabase({ pgliteDir: 'memory://' });
  try {
    await database.migrate();
    const snapshot = await must(database.dump, 'PGlite dumps its data directory')();
    const aside = `${file}.${process.pid}.${Date.now()}`;
    fs.writeFileSync(aside, snapshot);
    fs.renameSync(aside, file);
    return snapshot;
  } finally {
    await database.close();
  }
}

function migrationsHash(): string {
  const hash = createHash('sha256');
  hash.update(fs.readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json')));
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(entry.name).update(fs.readFileSync(full));
    }
  };
  walk(MIGRATIONS_DIR);
  return hash.digest('hex').slice(0, 16);
}
