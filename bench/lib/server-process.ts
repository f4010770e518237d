import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveCommand } from '../../scripts/serve-command.ts';
import { limitSettingsAt } from '../../src/server/modules/limits/limit-rules.ts';
import { freePort } from '../../tests/helpers/local-peers.ts';
import { log, round } from './load.ts';
import { summarizeCpuProfile, type ProfileSummary } from './profile.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER_ENTRY = path.join('bench', 'server.ts');
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux build Node supports). */
const CLOCK_TICKS = 100;

/** Where a server child keeps its data: a PGlite data directory, or a schema on a PostgreSQL server. */
export type ServerDatabase = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; schema: string };

export interface StartServerOptions {
  mode: 'full' | 'bare';
  /** Short name for logs and profile files, e.g. 'form-pglite-full'. */
  label: string;
  database: ServerDatabase;
  /** Extra environment (rate limits, log level); merged over the bench defaults. */
  env?: Record<string, string>;
  /** Write a V8 CPU profile of the server into this directory (node --cpu-prof). */
  profileDir?: string;
}

/** Memory of the server process in MB (1024 * 1024 bytes), from /proc/<pid>/status. */
interface MemoryStats {
  /** VmRSS once the server listened (migrated, routes built). */
  rssAtReadyMb: number;
  /** VmRSS just before it was stopped. */
  rssAtEndMb: number;
  /** VmHWM: the largest resident set the process ever had (start-up included). */
  peakRssMb: number;
}

export interface ServerStats {
  pid: number;
  memory: MemoryStats;
  /** Lines the server logged (pino JSON on stdout) and how many were warnings or worse. */
  logLines: number;
  warnOrWorseLines: number;
  /** First few warnings or errors, for the report. */
  warnings: string[];
  profile?: ProfileSummary & { file: string };
}

/** A running server child; `stop()` ends it and returns what was measured. */
export interface ServerProcess {
  base: string;
  pid: number;
  /** CPU seconds (user + system) the server has used so far. */
  cpuSeconds(): number;
  /** Times of the load runs ([start, end], µs of the monotonic clock), to profile those alone. */
  loadWindows: [number, number][];
  stop(): Promise<ServerStats>;
}

function procStatus(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(Vm\w+):\s+(\d+) kB/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

const mb = (kb: number | undefined) => round((kb ?? NaN) / 1024, 1);

/** utime + stime of a process in seconds (fields 14 and 15 of /proc/<pid>/stat). */
function procCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * Starts `bench/server.ts` as a child process on a free 127.0.0.1 port: the product as `npm start`
 * runs it (development mode: production refuses the gateway simulator the payment bench charges
 * through), behind a trusted local proxy, pino logs at LOG_LEVEL=info into a file in a temp
 * directory, rate limits out of the way; or the bare baseline. Resolves once it listens.
 * @throws when the process exits or does not report ready within 120 s
 */
export async function startServer(opts: StartServerOptions): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), `gs-bench-log-${opts.label}-`));
  const logFile = path.join(logDir, 'server.log');
  const logFd = fs.openSync(logFile, 'w');
  const db = opts.database;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    LOG_LEVEL: 'info',
    // Every bench request comes from 127.0.0.1: the limits would answer 429 within a second.
    RATE_LIMIT_FORMS_PER_MINUTE: '1000000000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000000000',
    RATE_LIMIT_SEARCH_PER_MINUTE: '1000000000',
    RATE_LIMIT_DISCOUNT_PER_MINUTE: '1000000000',
    ...limitSettingsAt(1_000_000_000),
    REMINDERS_ENABLED: '0',
    // The bench's load generator stands in for a local reverse proxy: its X-Forwarded-For is the client.
    TRUST_PROXY: 'loopback',
    ...(db.kind === 'pglite' ? { DATA_DIR: db.dataDir } : { DATABASE_URL: db.url, DATA_DIR: logDir }),
    ...opts.env,
  };
  // One profile per thread: each in this bench's own folder.
  const profileDir = opts.profileDir ? path.join(opts.profileDir, opts.label) : undefined;
  if (profileDir) {
    fs.rmSync(profileDir, { recursive: true, force: true });
    fs.mkdirSync(profileDir, { recursive: true });
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${profileDir}`.trim();
  }
  // With the node flags of `npm start` (scripts/serve.sh), so the figures are those of an installation.
  const command = serveCommand(
    [SERVER_ENTRY, opts.mode, ...(db.kind === 'postgres' ? ['--schema', db.schema] : [])],
    env,
  );
  const child: ChildProcess = spawn(command.file, command.args, {
    cwd: REPO_ROOT,
    env: command.env,
    stdio: ['ignore', logFd, logFd, 'ipc'],
  });
  fs.closeSync(logFd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const readLog = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${opts.label}: the server did not start within 120 s`)),
        120_000,
      );
      child.once('message', (m) => {
        if ((m as { ready?: boolean }).ready) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${opts.label}: the server exited with ${code} before listening:\n${readLog().slice(-3000)}`));
      });
    });
  } catch (err) {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(logDir, { recursive: true, force: true });
    throw err;
  }
  const pid = child.pid!;
  const loadWindows: [number, number][] = [];
  const rssAtReadyMb = mb(procStatus(pid).VmRSS);

  return {
    base,
    pid,
    cpuSeconds: () => procCpuSeconds(pid),
    loadWindows,
    async stop() {
      let status: Record<string, number> = {};
      try {
        status = procStatus(pid);
      } catch {
        // already gone: the exit below reports it
      }
      child.kill('SIGTERM');
      const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(deadline);
      const text = readLog();
      fs.rmSync(logDir, { recursive: true, force: true });
      if (code !== 0) log(`[${opts.label}] server exited with ${code}:\n${text.slice(-2000)}`);
      const lines = text.split('\n').filter(Boolean);
      const warnings = lines.filter((l) => {
        const level = /^\{"level":(\d+)/.exec(l);
        return level ? Number(level[1]) >= 40 : true;
      });
      const stats: ServerStats = {
        pid,
        memory: { rssAtReadyMb, rssAtEndMb: mb(status.VmRSS), peakRssMb: mb(status.VmHWM) },
        logLines: lines.length,
        warnOrWorseLines: warnings.length,
        warnings: warnings.slice(0, 3).map(summarizeLogLine),
      };
      if (profileDir) {
        // Kept beside the profiles, to look at the load runs alone in other tools too.
        fs.writeFileSync(path.join(profileDir, 'load-windows.json'), JSON.stringify(loadWindows));
        // The thread that served the requests is the busiest one.
        const summaries = fs
          .readdirSync(profileDir)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => ({
            file: path.relative(REPO_ROOT, path.join(profileDir, f)),
            ...summarizeCpuProfile(path.join(profileDir, f), loadWindows),
          }));
        stats.profile = summaries.sort((a, b) => b.busyMs - a.busyMs)[0];
      }
      return stats;
    },
  };
}

/**
 * Runs `work` while measuring the CPU the server child and this process (the load generator and
 * its worker thread) use, as a percentage of one core over the wall time.
 */
export async function withCpu<T>(
  server: ServerProcess,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: { serverPct: number; loadGeneratorPct: number; wallS: number } }> {
  const t0 = performance.now();
  const s0 = server.cpuSeconds();
  const own0 = process.cpuUsage();
  const us0 = Number(process.hrtime.bigint() / 1000n);
  const result = await work();
  server.loadWindows.push([us0, Number(process.hrtime.bigint() / 1000n)]);
  const wallS = (performance.now() - t0) / 1000;
  const own = process.cpuUsage(own0);
  const serverS = server.cpuSeconds() - s0;
  return {
    result,
    cpu: {
      serverPct: round((serverS / wallS) * 100, 0),
      loadGeneratorPct: round(((own.user + own.system) / 1e6 / wallS) * 100, 0),
      wallS: round(wallS, 1),
    },
  };
}

/**
 * A warning or error line of the server's JSON log in short: time, message, the request, and the
 * error with its cause (a Drizzle error's cause is what PostgreSQL said), or the raw line.
 */
function summarizeLogLine(line: string): string {
  try {
    const entry = JSON.parse(line) as {
      time?: number;
      msg?: string;
      reqId?: string;
      err?: { type?: string; message?: string; cause?: { message?: string; code?: string } };
    };
    const err = entry.err;
    const cause = err?.cause ? ` (cause: ${err.cause.code ? `${err.cause.code} ` : ''}${err.cause.message ?? ''})` : '';
    const what = err ? `${err.type ?? 'Error'}: ${(err.message ?? '').replace(/\s+/g, ' ').slice(0, 160)}${cause}` : '';
    return [entry.time ? new Date(entry.time).toISOString() : '', entry.reqId ?? '', entry.msg ?? '', what]
      .filter(Boolean)
      .join(' · ')
      .slice(0, 800);
  } catch {
    return line.slice(0, 500);
  }
}
