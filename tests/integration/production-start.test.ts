import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../scripts/serve-command.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { levels, users } from '../../src/server/db/schema.ts';
import { ADMIN_CREATE_COMMAND } from '../../src/server/startup.ts';
import { HttpClient } from '../durability/support/client.ts';
import { ServerProcess, startServer } from '../durability/support/server.ts';
import { runToEnd } from '../helpers/commands.ts';
import { freePort, startCaptchaPeer, startSmtpPeer } from '../helpers/local-peers.ts';
import { createDatabase } from '../multi-process/support/cluster.ts';

/**
 * `src/server/main.ts` and `npm run admin:create` as processes with NODE_ENV=production
 * (docs/deploy.md "Production settings"): the defaults are refused in one message naming each
 * setting; a complete configuration starts, creates no user and prints no password, only how to
 * create the first staff user; admin:create prints a link that sets its password once. Every peer
 * is local: an SMTP server, a reCAPTCHA verifier, and a closed port as the Authorize.Net endpoint.
 * On the embedded database (a fresh data directory), or on a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set.
 */

const CAPTCHA_SECRET = 'production-test-captcha-secret';
const CAPTCHA_OK = 'captcha-token-from-the-page';
const STAFF = { email: 'first.staff@goodstanding.test', password: 'Staff-chosen-pass-2026' };

let dataDir: string;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let captcha: Awaited<ReturnType<typeof startCaptchaPeer>>;
let pgDatabase: Awaited<ReturnType<typeof createDatabase>> | undefined;
const running: ServerProcess[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-production-'));
  smtp = await startSmtpPeer();
  // reCAPTCHA's siteverify: success for the token the page would have, with our secret.
  captcha = await startCaptchaPeer(CAPTCHA_SECRET, CAPTCHA_OK);
  if (process.env.TEST_DATABASE_URL) pgDatabase = await createDatabase(process.env.TEST_DATABASE_URL);
});

afterAll(async () => {
  for (const server of running) await server.stop();
  await smtp?.close();
  await captcha?.close();
  await pgDatabase?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Only what is given: nothing of the test runner's environment reaches the process. */
const bare = (vars: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? os.tmpdir(),
  ...vars,
});

/** An empty IRS_DATA_DIR under the data directory. */
function irsDataDir(): string {
  const dir = path.join(dataDir, 'irs');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A complete production environment on `port`, every outside service a local peer. */
async function productionEnv(port: number): Promise<NodeJS.ProcessEnv> {
  return bare({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: 'https://goodstanding.test',
    DATA_DIR: dataDir,
    ...(pgDatabase ? { DATABASE_URL: pgDatabase.url, DATABASE_POOL_SIZE: '3' } : {}),
    SESSION_SECRET: 'a-production-test-secret-of-more-than-32-characters',
    SEED_DEMO: '0',
    SMTP_URL: smtp.url,
    RECAPTCHA_SITE_KEY: 'production-test-site-key',
    RECAPTCHA_SECRET: CAPTCHA_SECRET,
    RECAPTCHA_VERIFY_URL: captcha.url,
    PAYMENT_GATEWAY: 'authorize-net',
    AUTHORIZE_NET_API_LOGIN_ID: 'production-test-login',
    AUTHORIZE_NET_TRANSACTION_KEY: 'production-test-transaction-key',
    AUTHORIZE_NET_CLIENT_KEY: 'production-test-client-key',
    // Nothing listens there: no charge could leave the machine.
    AUTHORIZE_NET_ENDPOINT: `http://127.0.0.1:${await freePort()}/xml/v1/request.api`,
    REMINDERS_ENABLED: '0',
    // The IRS data refresh reads an empty folder: nothing is downloaded from the IRS.
    IRS_DATA_DIR: irsDataDir(),
    LOG_LEVEL: 'info',
  });
}

const run = (command: string, args: string[], env: NodeJS.ProcessEnv) => runToEnd(command, args, env);

async function countRows() {
  const database = await openDatabase(
    pgDatabase ? { url: pgDatabase.url, poolSize: 1 } : { pgliteDir: path.join(dataDir, 'db') },
  );
  try {
    const [u] = await database.db.select({ n: count() }).from(users);
    const [staff] = await database.db.select({ n: count() }).from(users).where(eq(users.isAdmin, true));
    const [l] = await database.db.select({ n: count() }).from(levels);
    return { users: u.n, staff: staff.n, levels: l.n };
  } finally {
    await database.close();
  }
}

describe('NODE_ENV=production', () => {
  it('refuses the defaults: exits 1 with one message naming every setting and what to set', async () => {
    const port = await freePort();
    const server = serveCommand([], bare({ NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir }));
    const result = await run(server.file, server.args, server.env);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('GoodStanding is running');
    const message = result.stderr.trim();
    expect(message).toMatch(/^NODE_ENV=production refuses to start with these settings:/);
    for (const setting of [
      'PAYMENT_GATEWAY',
      'RECAPTCHA_SITE_KEY, RECAPTCHA_SECRET',
      'SEED_DEMO',
      'SMTP_URL',
      'SESSION_SECRET',
      'PUBLIC_URL',
      'IRS_DOWNLOAD',
    ]) {
      expect(message).toMatch(new RegExp(`^  ${setting}: .*; set `, 'm'));
    }
    // A readable message, not a stack trace; and nothing was created.
    expect(message).not.toMatch(/\n\s+at /);
    expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(false);
  }, 60_000);

  it('refuses a plain-http address and a short secret even when everything else is set', async () => {
    const env = {
      ...(await productionEnv(await freePort())),
      PUBLIC_URL: 'http://goodstanding.test',
      SESSION_SECRET: 'too-short',
    };
    const server = serveCommand([], env);
    const result = await run(server.file, server.args, server.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ {2}SESSION_SECRET: SESSION_SECRET must be at least 32 characters/m);
    expect(result.stderr).toMatch(/^ {2}PUBLIC_URL: must start with https:\/\//m);
    expect(result.stderr).not.toMatch(/PAYMENT_GATEWAY|SMTP_URL|SEED_DEMO|RECAPTCHA/);
  }, 60_000);

  it('starts with a complete configuration, creates no user, prints no password; admin:create prints a link that sets it once', async () => {
    // First start: reference data only, no user, and how to create the first staff user.
    const port = await freePort();
    const env = await productionEnv(port);
    const first = await startServer(port, env);
    running.push(first);
    expect(first.output).toContain('GoodStanding is running at https://goodstanding.test');
    expect(first.output).toContain(
      `No staff user yet. Create the first one; it prints a one-time link to set its password:\n  ${ADMIN_CREATE_COMMAND}`,
    );
    expect(first.output).not.toMatch(/sign-ins were created|\/ {2}\S/);
    const health = await fetch(`${first.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    // Production answers with Secure __Host- cookies and HSTS.
    const page = await fetch(`${first.baseUrl}/login`);
    expect(page.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(page.headers.getSetCookie().join('\n')).toMatch(/^__Host-[^=]+=[^;]+;.*Secure/m);
    await first.stop();
    expect(await countRows()).toMatchObject({ users: 0, levels: expect.any(Number) });
    expect((await countRows()).levels).toBeGreaterThan(0);

    // The operator creates the first staff user (the embedded database wants the server stopped).
    const created = await run(
      'npm',
      ['run', '--silent', 'admin:create', '--', '--email', STAFF.email, '--first-name', 'Avery'],
      env,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Staff user ${STAFF.email} created.`);
    expect(created.stdout).toContain('Open this link within 24 hours to set the password (it works once):');
    const links =
      created.stdout.match(/https:\/\/goodstanding\.test\/password\/reset\/[A-Za-z0-9_-]{22}\?email=\S+/g) ?? [];
    expect(links).toHaveLength(1);
    const printed = links[0]!;
    const link = new URL(printed);
    expect(link.searchParams.get('email')).toBe(STAFF.email);
    // No password in what it printed: the link and the lines around it only.
    expect(created.stdout.replace(printed, '').replace(/\s+/g, ' ').trim()).toBe(
      `Staff user ${STAFF.email} created. Open this link within 24 hours to set the password (it works once):`,
    );
    expect(await countRows()).toMatchObject({ users: 1, staff: 1 });

    // The server now has a staff user: no hint any more.
    const second = await startServer(port, env);
    running.push(second);
    expect(second.output).not.toContain('No staff user yet');

    // The link's page sets the password (captcha verified by the local reCAPTCHA peer)...
    const token = link.pathname.split('/').pop()!;
    const browser = await new HttpClient(second.baseUrl).start();
    const body = {
      token,
      email: STAFF.email,
      password: STAFF.password,
      password_confirmation: STAFF.password,
      'g-recaptcha-response': CAPTCHA_OK,
    };
    const set = await browser.request('POST', '/password/reset', body);
    expect(set).toEqual({ status: 200, body: { url: '/admin', message: 'Your password is set. Welcome!' } });
    // ...once.
    const again = await new HttpClient(second.baseUrl).start();
    const reused = await again.request('POST', '/password/reset', {
      ...body,
      password: 'Another-pass-2026',
      password_confirmation: 'Another-pass-2026',
    });
    expect(reused.status).toBe(422);

    // The staff user signs in with the password they chose and is staff.
    const staff = await new HttpClient(second.baseUrl).start();
    await staff.login(STAFF.email, STAFF.password);
    expect((await staff.request('GET', '/api/session')).body).toMatchObject({
      user: { email: STAFF.email, isAdmin: true },
    });

    await second.stop();
    // Neither the token nor the password ever reached the server's output (its JSON log included).
    for (const output of [first.output, second.output]) {
      expect(output).not.toContain(token);
      expect(output).not.toContain(STAFF.password);
    }
  }, 180_000);
});
