import { spawn } from 'node:child_process';
import fs from 'node:fs';

export interface ToolRun {
  /** Exit code, or null when it was stopped at the time limit. */
  code: number | null;
  timedOut: boolean;
  seconds: number;
  /** stdout and stderr together, as written to `logFile`. */
  output: string;
}

/**
 * Runs a scanner with its output (stdout and stderr) written to `logFile`, stopping it with SIGTERM
 * (then SIGKILL) at `timeLimitS` seconds. Never throws on a non-zero exit: the caller reads the
 * reports.
 */
export async function runTool(
  command: string,
  args: string[],
  opts: { logFile: string; timeLimitS: number; cwd?: string },
): Promise<ToolRun> {
  const started = performance.now();
  const fd = fs.openSync(opts.logFile, 'w');
  const child = spawn(command, args, {
    cwd: opts.cwd,
    stdio: ['ignore', fd, fd],
    // Belt and braces: anything that honours the proxy variables and is not bound for
    // 127.0.0.1 goes to a closed local port instead of leaving the machine.
    env: {
      ...process.env,
      HTTP_PROXY: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      http_proxy: 'http://127.0.0.1:9',
      https_proxy: 'http://127.0.0.1:9',
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
    },
  });
  fs.closeSync(fd);
  let timedOut = false;
  const limit = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 10_000).unref();
  }, opts.timeLimitS * 1000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  clearTimeout(limit);
  return {
    code: timedOut ? null : code,
    timedOut,
    seconds: (performance.now() - started) / 1000,
    output: fs.readFileSync(opts.logFile, 'utf8'),
  };
}

/** Counts of HTTP status codes, e.g. { '201': 2613, '422': 742 }. */
export type StatusCounts = Record<string, number>;

export const totalOf = (counts: StatusCounts) => Object.values(counts).reduce((a, b) => a + b, 0);

/** "201×2613 422×742" */
export const formatCounts = (counts: StatusCounts) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, n]) => `${code}×${n}`)
    .join(' ') || 'none';
