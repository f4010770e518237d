import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../durability/support/client.ts';
import { childrenOf, ServerProcess, startServer } from '../durability/support/server.ts';
import { freePort, startCaptchaPeer, startSmtpPeer } from '../helpers/local-peers.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The production install path without Docker (docs/operations.md "Build and start", "Container"): the
 * files the Dockerfile's runtime stage copies, `npm ci --omit=dev` as it runs it, and the build of
 * this checkout (`npm run build`, made before this suite runs). `npm run start:prod` serves a
 * public page and signs a staff user in with NODE_ENV=production and every outside service a local
 * peer, then stops on SIGTERM with exit code 0 within 10 s. Also `npm start` in this checkout: it
 * builds only when the build is stale and execs node, so the SIGTERM sent to npm stops the server.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const CAPTCHA_SECRET = 'install-test-captcha-secret';
const CAPTCHA_OK = 'captcha-token-from-the-page';
const STAFF = { email: 'install.staff@goodstanding.test', password: 'Install-chosen-pass-2026' };

let installDir: string;
let dataDir: string;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let captcha: Awaited<ReturnType<typeof startCaptchaPeer>>;
const running: ServerProcess[] = [];

/**
 * The runtime stage of the Dockerfile: its `COPY` lines (from the build stage, whose /app is this
 * checkout and whose dist-built is the folder `dist` links to) and its `npm ci` command.
 */
function runtimeStage(): { copies: { from: string; to: string }[]; install: string; healthcheck: string } {
  const lines = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ').split('\n');
  const start = lines.findIndex((l) => /^FROM .* AS runtime$/i.test(l));
  if (start < 0) throw new Error('The Dockerfile has no stage named runtime');
  const copies: { from: string; to: string }[] = [];
  let install = '';
  let healthcheck = '';
  for (const line of lines.slice(start + 1)) {
    const check = line.match(/^HEALTHCHECK .*? CMD (.+)$/);
    if (check) healthcheck = check[1].trim();
    const fromBuild = line.match(/^COPY --from=build \/app\/(\S+) \.\/(\S+)$/);
    const fromContext = line.match(/^COPY ((?:\S+ )+)\.\/$/);
    const run = line.match(/^RUN (npm ci [^&]+)/);
    if (fromBuild) copies.push({ from: fromBuild[1] === 'dist-built' ? 'dist' : fromBuild[1], to: fromBuild[2] });
    else if (fromContext)
      copies.push(
        ...fromContext[1]
          .trim()
          .split(' ')
          .map((f) => ({ from: f, to: f })),
      );
    else if (run) install = run[1].trim();
  }
  if (!install) throw new Error('The Dockerfile runtime stage runs no npm ci');
  if (!healthcheck) throw new Error('The Dockerfile runtime stage has no HEALTHCHECK');
  return { copies, install, healthcheck };
}

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
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: 'https://goodstanding.test',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'an-install-test-secret-of-more-than-32-characters',
    SEED_DEMO: '0',
    SMTP_URL: smtp.url,
    RECAPTCHA_SITE_KEY: 'install-test-site-key',
    RECAPTCHA_SECRET: CAPTCHA_SECRET,
    RECAPTCHA_VERIFY_URL: captcha.url,
    PAYMENT_GATEWAY: 'authorize-net',
    AUTHORIZE_NET_API_LOGIN_ID: 'install-test-login',
    AUTHORIZE_NET_TRANSACTION_KEY: 'install-test-transaction-key',
    AUTHORIZE_NET_CLIENT_KEY: 'install-test-client-key',
    // Nothing listens there: no charge could leave the machine.
    AUTHORIZE_NET_ENDPOINT: `http://127.0.0.1:${await freePort()}/xml/v1/request.api`,
    REMINDERS_ENABLED: '0',
    // The IRS data refresh reads an empty folder: nothing is downloaded from the IRS.
    IRS_DATA_DIR: irsDataDir(),
  });
}

const alive = (pid: number) =>
  fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));

/**
 * Checks that `server` (npm) runs node as its own child, then sends npm SIGTERM: npm exits 0 within
 * 10 s and the node process is gone (not left orphaned).
 */
async function expectNodeStopsOnSigterm(server: ServerProcess): Promise<void> {
  const [child] = childrenOf(server.pid);
  expect(fs.readFileSync(`/proc/${child}/comm`, 'utf8').trim()).toBe('node');
  const started = Date.now();
  server.child.kill('SIGTERM');
  const { code } = await server.exited;
  expect(code, server.output.slice(-3000)).toBe(0);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(await waitFor(() => !alive(child), 5_000)).toBe(true);
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(ROOT, 'dist/web/index.html')))
    throw new Error('Build the web client first: npm run build');
  installDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-install-'));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-install-data-'));
  const { copies, install } = runtimeStage();
  for (const { from, to } of copies) {
    fs.cpSync(fs.realpathSync(path.join(ROOT, from)), path.join(installDir, to), {
      recursive: true,
      dereference: true,
    });
  }
  const result = spawnSync('sh', ['-c', install], {
    cwd: installDir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_prefer_offline: 'true' },
  });
  if (result.status !== 0) throw new Error(`${install} failed:\n${result.stdout}\n${result.stderr}`);

  smtp = await startSmtpPeer();
  captcha = await startCaptchaPeer(CAPTCHA_SECRET, CAPTCHA_OK);
}, 300_000);

afterAll(async () => {
  for (const server of running) if (server.running) await server.killHard();
  await smtp?.close();
  await captcha?.close();
  for (const dir of [installDir, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the production install (npm ci --omit=dev, a prebuilt dist/)', () => {
  it('has none of the development packages', () => {
    const devDependencies = Object.keys(
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies,
    );
    expect(devDependencies).toEqual(expect.arrayContaining(['vite', 'vitest', 'typescript']));
    const installed = devDependencies.filter((name) =>
      fs.existsSync(path.join(installDir, 'node_modules', name, 'package.json')),
    );
    // Only what a production package itself depends on may be there.
    expect(installed).not.toEqual(expect.arrayContaining(['vite']));
    expect(installed).not.toEqual(expect.arrayContaining(['vitest']));
    expect(installed).not.toEqual(expect.arrayContaining(['playwright-core']));
  });

  it('npm run start:prod serves a rendered public page, signs staff in, and stops on SIGTERM with 0 within 10 s', async () => {
    const port = await freePort();
    const env = await productionEnv(port);
    const npm = (args: string[]) => spawnSync('npm', args, { cwd: installDir, env, encoding: 'utf8' });

    // The first staff user, as docs/deploy.md says: admin:create prints a one-time link.
    const created = npm(['run', '--silent', 'admin:create', '--', '--email', STAFF.email, '--first-name', 'Avery']);
    expect(created.status, created.stderr).toBe(0);
    const link = new URL(created.stdout.match(/https:\/\/goodstanding\.test\/password\/reset\/\S+/)![0]);

    const server = await startServer(
      port,
      { ...env, LOG_LEVEL: 'info' },
      { file: 'npm', args: ['run', 'start:prod'], cwd: installDir },
    );
    running.push(server);
    expect(server.output).toContain('GoodStanding is running at https://goodstanding.test');

    // A public page, rendered on the server (React and Mantine come from the production install).
    const page = await fetch(`${server.baseUrl}/pricing`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<div id="root">\s*<[^/]/);
    const script = html.match(/\/assets\/[\w.-]+\.js/)![0];
    expect((await fetch(`${server.baseUrl}${script}`)).status).toBe(200);

    // The container's HEALTHCHECK command, run as Docker runs it (a shell in the install folder).
    const health = spawnSync('sh', ['-c', runtimeStage().healthcheck], {
      cwd: installDir,
      env: { ...env, PORT: String(port) },
      encoding: 'utf8',
    });
    expect(health.status, health.stderr).toBe(0);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

    // The staff user sets the password through the link, then signs in.
    const token = link.pathname.split('/').pop()!;
    const browser = await new HttpClient(server.baseUrl).start();
    const set = await browser.request('POST', '/password/reset', {
      token,
      email: STAFF.email,
      password: STAFF.password,
      password_confirmation: STAFF.password,
      'g-recaptcha-response': CAPTCHA_OK,
    });
    expect(set.status).toBe(200);
    const staff = await new HttpClient(server.baseUrl).start();
    await staff.login(STAFF.email, STAFF.password);
    expect((await staff.request('GET', '/api/session')).body).toMatchObject({
      user: { email: STAFF.email, isAdmin: true },
    });

    // npm's child is node itself (start-prod.sh execs it): SIGTERM to npm reaches the server.
    await expectNodeStopsOnSigterm(server);
    expect(server.output).toMatch(/"msg":"stopped"/);
    expect(server.output).not.toContain(STAFF.password);
  }, 180_000);

  it('npm run start:prod without a build says what to do and exits 1', async () => {
    const bareInstall = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-install-nobuild-'));
    try {
      fs.cpSync(path.join(installDir, 'scripts'), path.join(bareInstall, 'scripts'), { recursive: true });
      fs.copyFileSync(path.join(installDir, 'package.json'), path.join(bareInstall, 'package.json'));
      const result = spawnSync('npm', ['run', '--silent', 'start:prod'], {
        cwd: bareInstall,
        env: await productionEnv(await freePort()),
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('No build in dist/: run `npm run build`');
    } finally {
      fs.rmSync(bareInstall, { recursive: true, force: true });
    }
  });
});

describe('npm start in the checkout', () => {
  beforeAll(() => {
    // Whatever this checkout's state, a build of its current sources (npm start finds it current).
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--quiet'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(build.stderr);
  }, 120_000);

  it("does not rebuild an up-to-date build, runs node as npm's child, and stops on SIGTERM with 0", async () => {
    const port = await freePort();
    const devData = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-npm-start-'));
    try {
      const env = bare({
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: devData,
        SEED_DEMO: '0',
        REMINDERS_ENABLED: '0',
        LOG_LEVEL: 'info',
      });
      const server = await startServer(port, env, { file: 'npm', args: ['start'], cwd: ROOT });
      running.push(server);
      expect(server.output).toContain('The build in dist/ is up to date.');
      expect(server.output).not.toMatch(/building/i);
      expect((await fetch(`${server.baseUrl}/pricing`)).status).toBe(200);
      await expectNodeStopsOnSigterm(server);
    } finally {
      fs.rmSync(devData, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('npm run build', () => {
  it('swaps the new build in at once and leaves the previous one for the servers still using it', () => {
    const before = fs.realpathSync(path.join(ROOT, 'dist'));
    expect(fs.lstatSync(path.join(ROOT, 'dist')).isSymbolicLink()).toBe(true);
    const result = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const after = fs.realpathSync(path.join(ROOT, 'dist'));
    expect(after).not.toBe(before);
    expect(fs.existsSync(path.join(after, 'web/index.html'))).toBe(true);
    expect(fs.existsSync(path.join(after, 'ssr/entry-server.js'))).toBe(true);
    // A server started on the previous build still finds every file of it.
    expect(fs.existsSync(path.join(before, 'web/index.html'))).toBe(true);
    const fresh = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    expect(fresh.stdout).toContain('The build in dist/ is up to date.');
  }, 120_000);
});
