import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childrenOf } from '../durability/support/server.ts';
import { freePort } from '../helpers/local-peers.ts';
import { waitFor } from '../helpers/wait.ts';
import { openBrowser } from './support/browser.ts';

/**
 * `npm run dev` (docs/decisions/012-server-rendering-and-dev-loop.md): the server with Vite's
 * development server inside it, on a free port and a fresh data directory. Public pages arrive
 * rendered by the server from the sources, the browser gets Vite's client and its hot-reload
 * socket, and a change under src/server restarts the server.
 */
describe('npm run dev', () => {
  let npm: ChildProcess;
  let base: string;
  let dataDir: string;
  let output = '';
  const listening = async () => (await fetch(`${base}/livez`).catch(() => null))?.ok === true;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-dev-loop-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    npm = spawn('npm', ['run', '--silent', 'dev'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: base,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        REMINDERS_ENABLED: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout!.on('data', (d) => (output += d));
    npm.stderr!.on('data', (d) => (output += d));
    if (!(await waitFor(listening, 150_000, 250))) throw new Error(`npm run dev did not listen:\n${output}`);
  }, 180_000);

  afterAll(async () => {
    if (npm?.pid) {
      // npm's child is Node's watcher, which ends the server it runs when it is ended.
      const exited = new Promise((resolve) => npm.once('exit', resolve));
      for (const pid of childrenOf(npm.pid)) process.kill(pid, 'SIGTERM');
      await exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('a public page arrives rendered by the server, with Vite’s client, and becomes interactive with hot reload', async () => {
    const res = await fetch(`${base}/contact`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
    expect(root).toContain('Send message');
    expect(html).toContain('<script type="module" src="/@vite/client"></script>');
    expect(html).toContain('<script type="module" src="/main.tsx"></script>');

    const client = await fetch(`${base}/@vite/client`);
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toMatch(/javascript/);

    const s = await openBrowser(base);
    try {
      const connected = new Promise<void>((resolve) =>
        s.page.on('console', (m) => {
          if (m.text().includes('[vite] connected')) resolve();
        }),
      );
      await s.page.goto('/contact');
      const send = s.page.getByRole('button', { name: 'Send message' });
      await send.and(s.page.locator(':enabled')).waitFor({ timeout: 120_000 });
      await connected;
      await send.click();
      await s.page.getByText('The subject field is required.').waitFor();
      // No hydration mismatch, and the CSP lets Vite's client and React Refresh's preamble run.
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  }, 180_000);

  it('restarts the server when a file under src/server changes', async () => {
    // Each start prints its address once it listens.
    const starts = () => output.split('GoodStanding is running at').length - 1;
    const before = starts();
    const now = new Date();
    fs.utimesSync(path.resolve('src/server/main.ts'), now, now);
    expect(await waitFor(() => starts() > before, 150_000, 250)).toBe(true);
    expect(output).toContain("Restarting 'src/server/main.ts'");
    const res = await fetch(`${base}/pricing`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<div id="root">[\s\S]*<h1/);
  }, 180_000);
});
