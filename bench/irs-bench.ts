/**
 * The IRS national files bench (docs/benchmarks.md "IRS national files"), `npm run bench -- --only irs`,
 * on PostgreSQL only (BENCH_DATABASE_URL, else TEST_DATABASE_URL): the national BMF is the size one
 * machine's embedded database is not meant for (docs/irs-data.md "National-size test files").
 *
 * 1. Builds national-size files in the IRS layouts (scripts/build-national-irs-files.ts: by default
 *    1.9 million BMF rows over eo1–eo4 and 1.2 million rows of each other data set).
 * 2. Starts the product (bench/server.ts full) on a fresh private schema, then loads the four data
 *    sets in a child process of its own (`irs-bench.ts load`, as the refresh job does: loadIrsRelease
 *    per file, one transaction each, so readers see the previous release until a file commits) and
 *    reads that child's peak resident memory (VmHWM). Throughout the load, this process asks the
 *    site for one organization by EIN and one name page every 250 ms: the answers, their slowest
 *    and their p99 are the "site answering" figures.
 * 3. Then, at `connections` concurrent clients for `durationS` seconds each, after a warm-up (the
 *    site through autocannon connections, as the other benches load it; the bare queries through a
 *    pg pool of as many connections):
 *    GET /api/irs/organizations/:ein (the instant check, random EINs of the files) beside the bare
 *    `SELECT … FROM irs_organizations WHERE ein = $1`, and GET /api/irs/organizations?query=…&after=…
 *    (first, 50th and 1,000th page of common words, reached by the keyset cursor of the page
 *    before) beside a bare SELECT of the same page's rows in name order, with no HTTP, session or
 *    JSON around it.
 * Targets (issue: IRS national files): load ≤ 20 minutes at peak RSS ≤ 700 MB; check by EIN p99 ≤
 * 10 ms; by name p99 ≤ 50 ms.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildNationalIrsFiles, NATIONAL_FILES } from '../scripts/build-national-irs-files.ts';
import { serveCommand } from '../scripts/serve-command.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { loadIrsRelease } from '../src/server/modules/irs-data/load-release.ts';
import { IRS_LOOKUP_PER_PAGE } from '../src/shared/schemas/irs-check.ts';
import { freshDatabase } from './lib/apps.ts';
import { log, percentile, round, summarize } from './lib/load.ts';
import { startServer, type ServerStats } from './lib/server-process.ts';
import type { IrsDataset } from '../src/server/modules/irs-data/irs-files.ts';

export const IRS_TARGETS = { loadMaxMinutes: 20, loadPeakRssMaxMb: 700, einP99MaxMs: 10, nameP99MaxMs: 50 };

/** The release date the bench's files are loaded with (the national files describe 2026-04-30). */
const RELEASED_ON = '2026-05-11';

interface Latencies {
  requests: number;
  reqPerSec: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
}

interface LoadedFile {
  dataset: IrsDataset;
  file: string;
  rows: number;
  loaded: number;
  seconds: number;
}

interface LoaderReport {
  files: LoadedFile[];
  seconds: number;
  peakRssMb: number;
}

export interface IrsBenchReport {
  skipped?: string;
  rows?: { bmf: number; others: number };
  build?: { seconds: number; peakRssMb: number };
  load?: LoaderReport & { siteDuringLoad: Latencies & { statuses: Record<string, number> } };
  connections?: number;
  durationS?: number;
  cases?: {
    name: string;
    url: string;
    full: Latencies;
    bare: Latencies;
    ratioP99: number;
    targetP99Ms: number;
    pass: boolean;
  }[];
  server?: ServerStats;
  pass?: { loadMinutes: boolean; loadPeakRss: boolean; ein: boolean; name: boolean };
}

function summary(latencies: number[], failures: number, wallS: number): Latencies {
  return {
    requests: latencies.length,
    reqPerSec: round(latencies.length / wallS),
    failures,
    p50: round(percentile(latencies, 50), 1),
    p99: round(percentile(latencies, 99), 1),
    // A loop, not Math.max(...): a run of ten seconds can hold more numbers than a call takes arguments.
    max: round(
      latencies.reduce((m, v) => (v > m ? v : m), -Infinity),
      1,
    ),
  };
}

/**
 * `connections` clients each running `call(n)` (n counts the calls) back to back, for the bare
 * queries: a second at full concurrency first (a new PostgreSQL backend is slow at first), then
 * `durationS` measured.
 */
async function closedLoop(
  connections: number,
  durationS: number,
  call: (n: number) => Promise<boolean>,
): Promise<Latencies> {
  let n = 0;
  const warmEnd = performance.now() + 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < warmEnd) await call(n++);
    }),
  );
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const end = started + durationS * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const ok = await call(n++);
        latencies.push(performance.now() - t);
        if (!ok) failures++;
      }
    }),
  );
  return summary(latencies, failures, (performance.now() - started) / 1000);
}

/**
 * `connections` autocannon connections asking the site for `paths` back to back, each connection
 * going through the list in order and round again, as the other benches load the site
 * (bench/lib/load.ts): a second first (new keep-alive sockets and PostgreSQL backends are slow at
 * first, and each connection prepares its statements), then `durationS` measured. The list is
 * given whole, so autocannon builds each request once: a function building each request's path
 * cost the load generator half as much again per request, on the cores the site runs on.
 * Latencies in whole ms, as autocannon records them.
 */
async function httpLoad(base: string, paths: string[], connections: number, durationS: number): Promise<Latencies> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base)) throw new Error(`bench traffic goes to 127.0.0.1 only, not ${base}`);
  const run = (duration: number) =>
    autocannon({
      url: `${base}${paths[0]}`,
      connections,
      duration,
      timeout: 10,
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
      requests: paths.map((path) => ({ path })),
    });
  await run(1);
  const s = summarize(await run(durationS), connections);
  return {
    requests: s.requests,
    reqPerSec: s.reqPerSec,
    failures: s.non2xx + s.errors + s.timeouts,
    p50: s.latencyMs.p50,
    p99: s.latencyMs.p99,
    max: s.latencyMs.max,
  };
}

/** Up to `count` EINs of the BMF file, spread over it (every k-th row). */
function sampleEins(file: string, count: number): string[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean);
  const step = Math.max(1, Math.floor(lines.length / count));
  const eins: string[] = [];
  for (let i = 0; i < lines.length && eins.length < count; i += step) eins.push(lines[i].slice(0, 9));
  return eins;
}

/** The loader child: loads every national file into `schema`, reports per file, then its VmHWM. */
async function loadChild(dir: string, url: string, schema: string): Promise<LoaderReport> {
  const database = await openDatabase({ url, schemaName: schema, poolSize: 2 });
  const files: LoadedFile[] = [];
  const started = performance.now();
  try {
    const plan: [IrsDataset, string][] = [
      ...NATIONAL_FILES.bmf.map((f) => ['bmf', f] as [IrsDataset, string]),
      ['epostcard', NATIONAL_FILES.epostcard],
      ['revocations', NATIONAL_FILES.revocations],
      ['pub78', NATIONAL_FILES.pub78],
    ];
    for (const [dataset, file] of plan) {
      const t = performance.now();
      const result = await loadIrsRelease(database.db, {
        dataset,
        file: path.join(dir, file),
        releasedOn: RELEASED_ON,
      });
      files.push({
        dataset,
        file,
        rows: result.rows,
        loaded: result.loaded,
        seconds: round((performance.now() - t) / 1000, 1),
      });
      log(`[irs] loaded ${file}: ${result.loaded} rows in ${files.at(-1)!.seconds} s`);
    }
  } finally {
    await database.close();
  }
  const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return {
    files,
    seconds: round((performance.now() - started) / 1000, 1),
    peakRssMb: round(Number(hwm?.[1]) / 1024, 1),
  };
}

function runLoaderChild(dir: string, url: string, schema: string): Promise<LoaderReport> {
  return new Promise((resolve, reject) => {
    const command = serveCommand([path.join('bench', 'irs-bench.ts'), 'load', dir, url, schema]);
    const child = spawn(command.file, command.args, {
      env: command.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let report: LoaderReport | undefined;
    child.once('message', (m) => (report = (m as { report: LoaderReport }).report));
    child.once('exit', (code) =>
      code === 0 && report ? resolve(report) : reject(new Error(`the IRS loader exited with ${code}`)),
    );
  });
}

/**
 * Runs the bench (see the file's comment) and returns its report; drops its schema and files.
 * @param opts.bmfRows BMF rows over eo1–eo4; opts.rows rows of each other data set
 */
export async function runIrsBench(opts: {
  url: string | undefined;
  bmfRows: number;
  rows: number;
  connections: number;
  durationS: number;
}): Promise<IrsBenchReport> {
  if (!opts.url) return { skipped: 'needs PostgreSQL: set BENCH_DATABASE_URL (or TEST_DATABASE_URL)' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-irs-'));
  const database = await freshDatabase('postgres', 'irs', opts.url);
  const schema = (database.server as { schema: string }).schema;
  const report: IrsBenchReport = { rows: { bmf: opts.bmfRows, others: opts.rows } };
  try {
    log(`[irs] building national-size files in ${dir}`);
    const built = await buildNationalIrsFiles({ out: dir, bmfRows: opts.bmfRows, rows: opts.rows, log: () => {} });
    report.build = { seconds: round(built.seconds, 1), peakRssMb: built.peakRssMb };
    const eins = sampleEins(path.join(dir, NATIONAL_FILES.bmf[0]), 2000);
    const server = await startServer({ mode: 'full', label: 'irs-postgres', database: database.server });
    try {
      // The site while the load runs: one EIN and one name page, every 250 ms.
      const during: number[] = [];
      const statuses: Record<string, number> = {};
      let failures = 0;
      let loading = true;
      const watcher = (async () => {
        for (let i = 0; loading; i++) {
          const url = i % 2 ? `/api/irs/organizations/${eins[i % eins.length]}` : `/api/irs/organizations?query=church`;
          const t = performance.now();
          try {
            const res = await fetch(`${server.base}${url}`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
            await res.arrayBuffer();
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
            if (res.status >= 500) failures++;
          } catch {
            failures++;
          }
          during.push(performance.now() - t);
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      const loadStarted = performance.now();
      let loader: LoaderReport;
      try {
        loader = await runLoaderChild(dir, opts.url, schema);
      } finally {
        loading = false;
        await watcher;
      }
      report.load = {
        ...loader,
        siteDuringLoad: { ...summary(during, failures, (performance.now() - loadStarted) / 1000), statuses },
      };
      log(
        `[irs] load: ${loader.seconds} s, peak RSS ${loader.peakRssMb} MB; the site during it: ${during.length} answers, ${failures} failed, p99 ${report.load.siteDuringLoad.p99} ms, max ${report.load.siteDuringLoad.max} ms`,
      );

      const pool = new pg.Pool({
        connectionString: opts.url,
        max: opts.connections,
        options: `-c search_path=${schema},public`,
      });
      try {
        const likes = (words: string[]) => words.map((_, i) => `search_text LIKE $${i + 1}`).join(' AND ');
        // A deep page is reached by keyset: the EIN of the last organization of the page before it,
        // found here once (with OFFSET, which is what a page number would cost each time).
        const cursorOf = async (words: string[], page: number) =>
          page === 1
            ? undefined
            : ((
                await pool.query<{ ein: string }>(
                  `SELECT ein FROM irs_organizations WHERE ${likes(words)} ORDER BY name, ein
                    OFFSET ${(page - 1) * IRS_LOOKUP_PER_PAGE - 1} LIMIT 1`,
                  words.map((w) => `%${w}%`),
                )
              ).rows[0]?.ein ?? null);
        // The bare query: the page's rows after the cursor in name order, from an index, with nothing around it.
        const nameSql = (words: string[], after: string | undefined) => ({
          text: `SELECT ein, name, sort_name, affiliation, city, state FROM irs_organizations
            WHERE ${likes(words)}${
              after
                ? ` AND (name, ein) > (SELECT name, ein FROM irs_organizations WHERE ein = $${words.length + 1})`
                : ''
            }
            ORDER BY name, ein LIMIT ${IRS_LOOKUP_PER_PAGE + 1}`,
          values: [...words.map((w) => `%${w}%`), ...(after ? [after] : [])],
        });
        const cases: {
          name: string;
          url: string;
          /** The paths asked of the site, in turn. */
          full: string[];
          bare: (n: number) => Promise<boolean>;
          target: number;
        }[] = [
          {
            name: 'check by EIN (random)',
            url: '/api/irs/organizations/:ein',
            full: eins.map((ein) => `/api/irs/organizations/${ein}`),
            bare: async (n) =>
              (await pool.query('SELECT * FROM irs_organizations WHERE ein = $1', [eins[n % eins.length]])).rowCount ===
              1,
            target: IRS_TARGETS.einP99MaxMs,
          },
        ];
        for (const [words, page] of [
          [['church'], 1],
          [['church'], 50],
          [['church'], 1000],
          [['booster', 'club'], 1],
          [['foundation'], 1000],
        ] as [string[], number][]) {
          const after = await cursorOf(words, page);
          if (after === null) {
            log(`[irs] "${words.join(' ')}" has fewer than ${page} pages at this size: case skipped`);
            continue;
          }
          const url = `/api/irs/organizations?query=${encodeURIComponent(words.join(' '))}${after ? `&after=${after}` : ''}`;
          const q = nameSql(words, after);
          cases.push({
            name: `by name "${words.join(' ')}" page ${page}`,
            url,
            full: [url],
            bare: async () => {
              await pool.query(q);
              return true;
            },
            target: IRS_TARGETS.nameP99MaxMs,
          });
        }
        report.connections = opts.connections;
        report.durationS = opts.durationS;
        report.cases = [];
        for (const c of cases) {
          const full = await httpLoad(server.base, c.full, opts.connections, opts.durationS);
          const bare = await closedLoop(opts.connections, opts.durationS, c.bare);
          report.cases.push({
            name: c.name,
            url: c.url,
            full,
            bare,
            ratioP99: round(full.p99 / bare.p99, 2),
            targetP99Ms: c.target,
            pass: full.failures === 0 && full.p99 <= c.target,
          });
          log(
            `[irs] ${c.name}: p99 ${full.p99} ms (bare ${bare.p99} ms), ${full.reqPerSec} req/s, ${full.failures} failures`,
          );
        }
      } finally {
        await pool.end();
      }
    } finally {
      report.server = await server.stop();
    }
    const cases = report.cases ?? [];
    report.pass = {
      loadMinutes: report.load.seconds <= IRS_TARGETS.loadMaxMinutes * 60,
      loadPeakRss: report.load.peakRssMb <= IRS_TARGETS.loadPeakRssMaxMb,
      ein: cases.filter((c) => c.targetP99Ms === IRS_TARGETS.einP99MaxMs).every((c) => c.pass),
      name: cases.filter((c) => c.targetP99Ms === IRS_TARGETS.nameP99MaxMs).every((c) => c.pass),
    };
    return report;
  } finally {
    await database.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The loader child: `irs-bench.ts load DIR URL SCHEMA`, started by runLoaderChild.
if (process.argv[2] === 'load' && process.send) {
  const [dir, url, schema] = process.argv.slice(3);
  loadChild(dir, url, schema).then(
    (report) => process.send!({ report }, () => process.exit(0)),
    (err: unknown) => {
      log(`[irs] load failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exit(1);
    },
  );
}
