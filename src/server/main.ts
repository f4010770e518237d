import path from 'node:path';
import { ConfigError, loadConfig, randomSecret, type AppConfig } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import { isFirstStart, refreshLevelWizards, seedDemo, seedReference, type SeedCredentials } from './db/seed/seed.ts';
import { users } from './db/schema.ts';
import { hashPassword } from './passwords.ts';
import { buildApp, shutdownWaitMs } from './app.ts';
import { startMailWorker } from './modules/mail/mail-worker.ts';
import { startComplianceReminders } from './modules/compliance/reminder-job.ts';
import { startHousekeeping } from './modules/files/housekeeping-job.ts';
import { vacuumAnalyze } from './db/maintenance.ts';

/**
 * On the first start (no user yet), seeds the demo data or only the reference data and an admin
 * (SEED_DEMO). Call it holding the startup lock.
 * @returns the sign-ins created, or undefined when the installation already had users
 */
async function seedFirstStart(database: Database, config: AppConfig): Promise<SeedCredentials | undefined> {
  if (!(await isFirstStart(database.db))) return undefined;
  if (config.seedDemo) return seedDemo(database.db, config.demo);
  await seedReference(database.db);
  const email = config.demo.adminEmail ?? 'admin@goodstanding.local';
  const password = config.demo.adminPassword ?? randomSecret(12);
  await database.db.insert(users).values({ email, passwordHash: await hashPassword(password), isAdmin: true, firstName: 'Admin' });
  return { admin: { email, password, generated: !config.demo.adminPassword }, demo: { email: '', password: '', generated: false } };
}

/** Reads config, migrates, seeds on first start, listens, and shuts down gracefully on SIGINT/SIGTERM. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    poolSize: config.databasePoolSize,
  });
  // Several servers may start at once on one PostgreSQL database: one migrates and seeds, the
  // others wait for it and find an installation that is no longer new.
  const credentials = await database.withStartupLock(async () => {
    await database.migrate();
    const created = await seedFirstStart(database, config);
    // Wizard questions live in code: an existing installation gets the current ones.
    await refreshLevelWizards(database.db);
    return created;
  });

  const app = await buildApp(config, { database });
  startMailWorker(app);
  startComplianceReminders(app);
  startHousekeeping(app);
  if (database.kind === 'pglite') {
    // PGlite has no autovacuum: tidy up once a day (PostgreSQL servers do it themselves).
    const daily = setInterval(() => {
      vacuumAnalyze(database.db).catch((err: unknown) => app.log.warn({ err }, 'daily vacuum failed'));
    }, 24 * 3_600_000);
    daily.unref();
    app.addHook('onClose', async () => clearInterval(daily));
  }
  await app.listen({ host: config.host, port: config.port });

  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${path.join(config.dataDir, 'db')}`;
  const lines = [``, `GoodStanding is running at ${config.publicUrl}`, `Database: ${where}`];
  if (credentials) {
    lines.push('', 'First start: these sign-ins were created (passwords are shown only now):');
    lines.push(`  Admin:          ${credentials.admin.email}  /  ${credentials.admin.generated ? credentials.admin.password : '(ADMIN_PASSWORD)'}`);
    if (credentials.demo.email) {
      lines.push(`  Account holder: ${credentials.demo.email}  /  ${credentials.demo.generated ? credentials.demo.password : '(DEMO_PASSWORD)'}`);
    }
    lines.push(`  Sign in at ${config.publicUrl}/login`);
  }
  if (!config.mail.smtpUrl) lines.push('', 'Mail: no SMTP_URL set, mails are kept in the outbox (Admin > Mail outbox).');
  console.log(lines.join('\n') + '\n');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Past the wait for requests still being handled (app.ts), something hangs: exit anyway.
    const force = setTimeout(() => process.exit(1), shutdownWaitMs(config) + 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error('GoodStanding could not start:', err);
  }
  process.exit(1);
});
