import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveCommand } from '../../../scripts/serve-command.ts';
import { limitSettingsAt } from '../../../src/server/modules/limits/limit-rules.ts';
import type { TestProject } from 'vitest/node';

/** Credentials the e2e server is started with (chosen by the operator, as ADMIN_PASSWORD allows). */
export const E2E_USERS = {
  admin: { email: 'admin@e2e.test', password: 'Adm1n-e2e-Pass' },
  holder: { email: 'holder@e2e.test', password: 'H0lder-e2e-Pass' },
};

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let server: ChildProcess | undefined;
let dataDir = '';

/**
 * Starts the real product once for all browser tests: `src/server/main.ts` on a free port with a
 * fresh data directory and the demo seed, exactly as `npm start` runs it, with its default
 * settings (development mode, no PUBLIC_URL: the site must work at whichever address the browser
 * opens it, docs/security.md "Same origin"). The web client must be built: `npm run test:e2e`
 * builds it first.
 */
export async function setup(project: TestProject) {
  if (!fs.existsSync('dist/web/index.html')) throw new Error('Build the web client first: npm run build');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-e2e-'));
  const port = 40000 + Math.floor(Math.random() * 20000);
  const command = serveCommand([], {
    ...process.env,
    // The defaults of `npm start`: not production (which refuses the simulator and the demo).
    NODE_ENV: '',
    HOST: '127.0.0.1',
    PORT: String(port),
    // Unset: mails link to http://localhost:PORT while the tests browse http://127.0.0.1:PORT.
    PUBLIC_URL: '',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: E2E_USERS.admin.email,
    ADMIN_PASSWORD: E2E_USERS.admin.password,
    DEMO_EMAIL: E2E_USERS.holder.email,
    DEMO_PASSWORD: E2E_USERS.holder.password,
    RATE_LIMIT_FORMS_PER_MINUTE: '1000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    ...limitSettingsAt(100_000),
  });
  server = spawn(command.file, command.args, {
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start:\n${output}`)), 90_000);
    server!.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${code}:\n${output}`));
    });
    const check = () => {
      if (output.includes('GoodStanding is running at')) {
        clearTimeout(timer);
        resolve();
      } else setTimeout(check, 100);
    };
    check();
  });
  project.provide('baseUrl', baseUrl);
}

export async function teardown() {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
