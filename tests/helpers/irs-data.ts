import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { accounts } from '../../src/server/db/schema.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import type { Db, DbOrTx } from '../../src/server/db/client.ts';

/**
 * Loads one real row of a shared IRS EO BMF extract (`../shared/data/irs-eo-bmf/{file}`, the row of
 * `ein`) as a BMF release of its own, as the refresh job would load a file: the organization goes
 * to irs_organizations and no account is created.
 * @param releasedOn 'YYYY-MM' or 'YYYY-MM-DD'
 * @returns the release's id
 */
export async function loadRealBmfRow(db: Db, file: string, ein: string, releasedOn: string): Promise<number> {
  const lines = (await readFile(path.resolve('../shared/data/irs-eo-bmf', file), 'latin1')).split(/\r?\n/);
  const row = lines.find((l) => l.startsWith(`${ein},`));
  if (!row) throw new Error(`${file} has no row of EIN ${ein}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'gs-bmf-row-'));
  try {
    const one = path.join(dir, `${ein}.csv`);
    await writeFile(one, [lines[0], row, ''].join('\n'));
    const loaded = await loadIrsRelease(db, { dataset: 'bmf', file: one, releasedOn });
    if (loaded.status !== 'loaded' || loaded.loaded !== 1) throw new Error(`the row of ${ein} was not loaded`);
    return loaded.release.id;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The IRS columns of the account holding `ein` (undefined when none does), and its name. */
export async function irsColumnsOf(db: DbOrTx, ein: string) {
  const [account] = await db
    .select({
      name: accounts.name,
      filingRequirement: accounts.filingRequirement,
      taxPeriod: accounts.taxPeriod,
      ruling: accounts.ruling,
      bmfReleaseId: accounts.bmfReleaseId,
      fiscalYearEndMonth: accounts.fiscalYearEndMonth,
    })
    .from(accounts)
    .where(eq(accounts.ein, ein));
  return account;
}
