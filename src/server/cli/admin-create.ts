import path from 'node:path';
import { staffUserSchema } from '../../shared/schemas/staff-user.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { commandTimeouts, openDatabase } from '../db/client.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { HttpError, ValidationError } from '../errors.ts';
import { createStaffUser, STAFF_LINK_HOURS } from '../modules/admin/create-staff-user.ts';
import { credentialLines, prepareDatabase } from '../startup.ts';
import { parseInput } from '../validate.ts';
import { commandArgs } from './command-args.ts';

const USAGE = 'Usage: npm run admin:create -- --email someone@example.org [--first-name Avery] [--last-name Admin]';

/**
 * npm run admin:create -- --email someone@example.org [--first-name …] [--last-name …]
 * Creates the staff user (or finds it) with the server's configuration and database, and prints a
 * link that sets its password, once, within 24 hours (docs/deploy.md "Production settings"). It
 * prints no password; the link is the only copy of its token. Migrates and seeds a new
 * installation first, as the server would. On the embedded database stop the server first (one
 * process per data directory).
 */
async function main() {
  const { values } = commandArgs(
    {
      options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
    },
    USAGE,
  );
  const input = parseInput(staffUserSchema, {
    email: values.email,
    first_name: values['first-name'],
    last_name: values['last-name'],
  });
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    poolSize: 2,
    timeouts: commandTimeouts(config),
  });
  try {
    const report = await prepareDatabase(database, config);
    // A new installation outside production: the demo seed's sign-ins, shown once as the server would.
    if (report.credentials) console.log(credentialLines(config, report.credentials).join('\n'));
    const staff = await createStaffUser(database.db, input, config.publicUrl);
    console.log(
      [
        '',
        staff.created
          ? `Staff user ${input.email} created.`
          : `Staff user ${input.email} already exists; here is a new link.`,
        `Open this link within ${STAFF_LINK_HOURS} hours to set the password (it works once):`,
        `  ${staff.link}`,
        '',
      ].join('\n'),
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  if (err instanceof ValidationError) {
    console.error(`${err.message}\n${USAGE}`);
  } else if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof HttpError) {
    console.error(err.message);
  } else {
    console.error('admin:create failed:', err);
  }
  process.exit(1);
});
