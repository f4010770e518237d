import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveCommand } from '../../../scripts/serve-command.ts';

/** A product server the browser tests started: its address, and how to stop it. */
export interface ProductServer {
  baseUrl: string;
  /** Stops the process (SIGTERM, waiting for it to exit) and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts the real product, `src/server/main.ts` exactly as `npm start` runs it, on a free
 * 127.0.0.1 port with a fresh data directory, the demo seed and `env` over its defaults
 * (development mode, no PUBLIC_URL: mails link to http://localhost:PORT while the tests browse
 * http://127.0.0.1:PORT). Resolves once it says it is running.
 * @param opts.prepare fills the data directory before the server starts (a test's own seed, written
 *   with the factories while no server holds the database); the server then finds an installation
 *   that is not new and seeds nothing
 * @throws Error with the server's output when it exits or has not started within 90 s
 */
export async function startProductServer(
  env: Record<string, string>,
  opts: { prepare?: (dataDir: string) => Promise<void> } = {},
): Promise<ProductServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-e2e-'));
  await opts.prepare?.(dataDir);
  const port = 40000 + Math.floor(Math.random() * 20000);
  const command = serveCommand([], {
    ...process.env,
    // The defaults of `npm start`: not production (which refuses the simulator and the demo).
    NODE_ENV: '',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: '',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const server = spawn(command.file, command.args, { env: command.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout.on('data', (d) => (output += d));
  server.stderr.on('data', (d) => (output += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start:\n${output}`)), 90_000);
    server.once('exit', (code) => {
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
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
