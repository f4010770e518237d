import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { serveCommand } from '../../../scripts/serve-command.ts';
import { limitSettingsAt } from '../../../src/server/modules/limits/limit-rules.ts';
import { freePort } from '../../helpers/local-peers.ts';

/** The line `src/server/main.ts` prints once it listens. */
const READY_LINE = 'GoodStanding is running at';

export { freePort };

/**
 * The environment the real server is started with in these tests: test mode (production refuses
 * the gateway simulator these tests pay through) on 127.0.0.1, rate limits far above the load (so
 * every refusal is a fault, not a 429), warnings only, no reminder job. `extra` overrides any of
 * it (DATA_DIR, DATABASE_URL, SEED_DEMO…).
 */
export function serverEnv(port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
    REMINDERS_ENABLED: '0',
    RATE_LIMIT_FORMS_PER_MINUTE: '1000000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
    RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
    ...limitSettingsAt(1_000_000),
    RATE_LIMIT_DISCOUNT_PER_MINUTE: '1000000',
    ...extra,
  };
}

/** One server process started by scripts/serve.sh, as `npm start` runs it (without the build). */
export class ServerProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** Everything the process wrote to stdout and stderr, in order. */
  output = '';
  stderr = '';
  /** Resolves with the exit code (null when ended by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /**
   * @param command what to run instead of scripts/serve.sh in this checkout,
   *   e.g. `npm run start:prod` in another folder
   */
  constructor(port: number, env: NodeJS.ProcessEnv, command?: { file: string; args: string[]; cwd?: string }) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    const {
      file,
      args,
      cwd,
      env: childEnv,
    } = command ? { ...command, env } : { ...serveCommand([], env), cwd: undefined };
    this.child = spawn(file, args, { env: childEnv, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d) => (this.output += d));
    this.child.stderr!.on('data', (d) => {
      this.output += d;
      this.stderr += d;
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Waits until the server prints that it listens.
   * @throws when it exits first or `timeoutMs` passes, with its output
   */
  async ready(timeoutMs = 90_000): Promise<this> {
    if (this.output.includes(READY_LINE)) return this;
    let timer: NodeJS.Timeout | undefined;
    let onData: (() => void) | undefined;
    try {
      const outcome = await Promise.race([
        new Promise<'ready'>((resolve) => {
          onData = () => this.output.includes(READY_LINE) && resolve('ready');
          this.child.stdout!.on('data', onData);
        }),
        this.exited.then(() => 'exited' as const),
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
      ]);
      if (outcome === 'exited')
        throw new Error(
          `The server exited (${this.child.exitCode ?? this.child.signalCode}) before listening:\n${this.output}`,
        );
      if (outcome === 'timeout') throw new Error(`The server did not start within ${timeoutMs} ms:\n${this.output}`);
      return this;
    } finally {
      clearTimeout(timer);
      if (onData) this.child.stdout!.off('data', onData);
    }
  }

  /**
   * SIGKILL: the process dies at once, mid-request, with no shutdown code run. When it is a
   * launcher (npm, sh) its descendants (the server) are killed first, so none is left running.
   */
  async killHard(): Promise<void> {
    if (this.running) {
      for (const pid of descendantsOf(this.pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      process.kill(this.pid, 'SIGKILL');
    }
    await this.exited;
  }

  /** SIGTERM: the graceful shutdown of main.ts (closes the server and the database, frees the lock). */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.running) this.child.kill('SIGTERM');
    return this.exited;
  }
}

/** The process ids of `pid`'s children (Linux /proc; none elsewhere or once it is gone). */
export function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The descendants of `pid`, deepest first. */
function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [...descendantsOf(child), child]);
}

/** Starts the server (or `command`, see ServerProcess) and waits until it listens. */
export async function startServer(
  port: number,
  env: NodeJS.ProcessEnv,
  command?: ConstructorParameters<typeof ServerProcess>[2],
): Promise<ServerProcess> {
  const server = new ServerProcess(port, env, command);
  try {
    return await server.ready();
  } catch (err) {
    await server.killHard();
    throw err;
  }
}
