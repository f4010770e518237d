import path from 'node:path';
import { randomSecret, type AppConfig } from './config.ts';
import { users } from './db/schema.ts';
import { hasStaffUser, isFirstStart, seedDemo, seedReference, type SeedCredentials } from './db/seed/seed.ts';
import { hashPassword } from './passwords.ts';
import type { Database } from './db/client.ts';

/** What {@link prepareDatabase} did and found. */
export interface StartupReport {
  /** The sign-ins a first start created, with their passwords (never in production). */
  credentials?: SeedCredentials;
  /** No staff user exists yet (production creates none: `npm run admin:create` does). */
  needsStaffUser: boolean;
}

/**
 * On the first start (no user yet): in production only the reference data (company, levels,
 * state requirements) and no user, since no password may be printed or logged there
 * (docs/deploy.md "Production settings"); otherwise the demo data or the reference data and an
 * admin (SEED_DEMO), with the generated passwords returned to be shown once. Call it holding the
 * startup lock. @returns the sign-ins created, or undefined
 */
async function seedFirstStart(database: Database, config: AppConfig): Promise<SeedCredentials | undefined> {
  if (!(await isFirstStart(database.db))) return undefined;
  if (config.env === 'production') {
    await seedReference(database.db);
    return undefined;
  }
  if (config.seedDemo) return seedDemo(database.db, config.demo);
  await seedReference(database.db);
  const email = config.demo.adminEmail ?? 'admin@goodstanding.local';
  const password = config.demo.adminPassword ?? randomSecret(12);
  await database.db
    .insert(users)
    .values({ email, passwordHash: await hashPassword(password), isAdmin: true, firstName: 'Admin' });
  return {
    admin: { email, password, generated: !config.demo.adminPassword },
    demo: { email: '', password: '', generated: false },
  };
}

/**
 * Brings the database up to date before the server or a command uses it: applies the migrations,
 * seeds a new installation ({@link seedFirstStart}) and refreshes the levels' wizards, all under
 * the startup lock, so several processes starting at once on one PostgreSQL database do it once.
 * Writes: the migrations, the seed, levels.schema.
 */
export async function prepareDatabase(database: Database, config: AppConfig): Promise<StartupReport> {
  const credentials = await database.withStartupLock(async () => {
    await database.migrate();
    const created = await seedFirstStart(database, config);
    return created;
  });
  return { credentials, needsStaffUser: !(await hasStaffUser(database.db)) };
}

/** The command that creates the first staff user, as the server prints it. */
export const ADMIN_CREATE_COMMAND = 'npm run admin:create -- --email you@example.org';

/**
 * What the server prints once it listens (stdout, not the log): its address and database, the
 * sign-ins a first start created outside production (passwords shown only then), how to create
 * the first staff user when there is none, and where mail goes without SMTP_URL. Never a password
 * in production, where none is created.
 */
export function startupLines(config: AppConfig, report: StartupReport): string[] {
  const where = config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `embedded PGlite in ${path.join(config.dataDir, 'db')}`;
  const lines = ['', `GoodStanding is running at ${config.publicUrl}`, `Database: ${where}`];
  if (report.credentials) lines.push(...credentialLines(config, report.credentials));
  if (report.needsStaffUser) {
    lines.push('', 'No staff user yet. Create the first one; it prints a one-time link to set its password:');
    lines.push(`  ${ADMIN_CREATE_COMMAND}`);
  }
  if (!config.mail.smtpUrl)
    lines.push('', 'Mail: no SMTP_URL set, mails are kept in the outbox (Admin > Mail outbox).');
  return lines;
}

/** The sign-ins a first start created, passwords included; nothing in production, which creates none. */
export function credentialLines(config: AppConfig, credentials: SeedCredentials): string[] {
  if (config.env === 'production') return [];
  const lines = ['', 'First start: these sign-ins were created (passwords are shown only now):'];
  lines.push(
    `  Admin:          ${credentials.admin.email}  /  ${credentials.admin.generated ? credentials.admin.password : '(ADMIN_PASSWORD)'}`,
  );
  if (credentials.demo.email) {
    lines.push(
      `  Account holder: ${credentials.demo.email}  /  ${credentials.demo.generated ? credentials.demo.password : '(DEMO_PASSWORD)'}`,
    );
  }
  lines.push(`  Sign in at ${config.publicUrl}/login`);
  return lines;
}
