import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { createUser } from '../src/server/db/seed/factories.ts';
import { seedScale, type ScaleReport } from '../src/server/db/seed/scale.ts';
import { log } from './lib/load.ts';

/** Bumped when seed-scale's data changes shape, so a cached schema is not reused. */
const ADMIN_SEED_VERSION = 2;
export const STAFF_EMAIL = 'bench-staff@goodstanding.local';
export const STAFF_PASSWORD = 'Bench-staff-password-1';

/** The private schema of a seeded size: kept between runs (cached) unless asked otherwise. */
const adminSchemaName = (accounts: number) => `bench_admin_v${ADMIN_SEED_VERSION}_${accounts}`;

/**
 * A PostgreSQL schema on `url` holding seed-scale's data for `accounts` accounts and one staff user,
 * migrated: reused when a previous run left it complete (a marker table), else (re)created.
 * @returns the schema and the seed report (null seconds when reused)
 */
export async function adminDatabase(
  url: string,
  accounts: number,
  fresh: boolean,
): Promise<{ schema: string; seed: ScaleReport & { cached: boolean } }> {
  const schema = adminSchemaName(accounts);
  const open = (): Promise<Database> => openDatabase({ url, schemaName: schema, poolSize: 4 });
  let database = await open();
  try {
    const done = (await database.db.execute(
      sql`SELECT to_regclass(${`${schema}.bench_admin_seeded`}) AS t`,
    )) as unknown as { rows: { t: string | null }[] };
    if (done.rows[0]?.t && !fresh) {
      const r = (await database.db.execute(
        sql.raw(`SELECT report FROM "${schema}".bench_admin_seeded`),
      )) as unknown as { rows: { report: ScaleReport }[] };
      log(`[admin] reusing seeded schema ${schema}`);
      await database.migrate();
      return { schema, seed: { ...r.rows[0]!.report, cached: true } };
    }
    await database.close();
    database = await open();
    await database.db.execute(sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    await database.close();
    database = await open();
    await database.migrate();
    const report = await seedScale(database, { accounts, log: (l) => log(`[admin/seed] ${l}`) });
    await createUser(database.db, { email: STAFF_EMAIL, password: STAFF_PASSWORD, isAdmin: true, firstName: 'Bench' });
    await database.db.execute(sql.raw(`CREATE TABLE "${schema}".bench_admin_seeded (report jsonb NOT NULL)`));
    await database.db.execute(sql`INSERT INTO bench_admin_seeded (report) VALUES (${JSON.stringify(report)}::jsonb)`);
    return { schema, seed: { ...report, cached: false } };
  } finally {
    await database.close();
  }
}

/** Drops the schema of a seeded size. */
export async function dropAdminDatabase(url: string, schema: string): Promise<void> {
  const database = await openDatabase({ url, poolSize: 1 });
  try {
    await database.db.execute(sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  } finally {
    await database.close();
  }
}
