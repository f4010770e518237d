/**
 * The IRS data bench (docs/benchmarks.md "IRS data and standing"), run in its own process by
 * `npm run bench -- --only standing` (bench/run.ts), or alone:
 *
 *   sh scripts/serve.sh bench/standing-bench.ts prepare DIR ROWS
 *   sh scripts/serve.sh bench/standing-bench.ts measure DIR ROWS LOOKUPS
 *
 * 1. Writes a full-size BMF release: ROWS rows (default 1,900,000, the four regional files' size)
 *    in four files eo1–eo4.csv, made from the real extracts in ../shared/data/irs-eo-bmf/ by
 *    cycling through them with fresh EINs; a Form 990-N data file with a return for every third
 *    of those organizations; and an Automatic Revocation List of 10,000 of them.
 * 2. Loads the six files into a fresh embedded database (PGlite in a temp folder, opened as the
 *    server opens it) with loadIrsRelease, as the refresh job does, and reads the process's peak
 *    resident memory (VmHWM, reset after step 1 through /proc/self/clear_refs).
 * 3. Computes the standing of LOOKUPS random organizations (default 2,000) as a page does (the
 *    account's row, then standingOfAccount), against a bare baseline in the same run: the same
 *    account row read by its primary key alone.
 * Sends the report to the parent over IPC (or prints it).
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client.ts';
import { accounts } from '../src/server/db/schema.ts';
import { loadIrsRelease } from '../src/server/modules/irs-data/load-release.ts';
import { standingColumns, standingOfAccount } from '../src/server/modules/irs-data/get-standing.ts';
import { BMF_HEADER, type IrsDataset } from '../src/server/modules/irs-data/irs-files.ts';
import { log, percentile, round } from './lib/load.ts';
import { collectStartupGarbage } from '../src/server/memory.ts';

/** Issue 20's targets. */
export const STANDING_TARGETS = { refreshPeakRssMaxMb: 1024, standingMedianMaxMs: 5 };

const SHARED_BMF = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'shared', 'data', 'irs-eo-bmf');

export interface StandingBenchReport {
  rows: number;
  files: { file: string; dataset: IrsDataset; rows: number; loaded: number; seconds: number }[];
  refresh: { seconds: number; peakRssMb: number; rssBeforeMb: number };
  lookups: number;
  standingMs: { median: number; p95: number; p99: number };
  bareMs: { median: number; p95: number; p99: number };
  targets: typeof STANDING_TARGETS;
  pass: { refreshPeakRss: boolean; standingMedian: boolean };
}

function status(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of fs.readFileSync('/proc/self/status', 'utf8').split('\n')) {
    const m = /^(Vm\w+):\s+(\d+) kB/.exec(line);
    if (m) out[m[1]] = Number(m[2]) / 1024;
  }
  return out;
}

/** Streams the real extracts' data rows (header left out), again and again, until `count` are given. */
async function* realRows(count: number): AsyncGenerator<string[]> {
  const files = fs.readdirSync(SHARED_BMF).filter((f) => f.endsWith('.csv')).sort();
  if (!files.length) throw new Error(`No BMF extracts in ${SHARED_BMF}`);
  let given = 0;
  for (;;) {
    for (const f of files) {
      const lines = readline.createInterface({ input: fs.createReadStream(path.join(SHARED_BMF, f)), crlfDelay: Infinity });
      let header = true;
      for await (const line of lines) {
        if (header) {
          header = false;
          continue;
        }
        if (!line.trim()) continue;
        // Each line is one record (the extracts have no line breaks inside fields); only its EIN changes.
        yield [line];
        if (++given >= count) return;
      }
    }
  }
}

function write(file: string, lines: string[]) {
  fs.appendFileSync(file, lines.join('\r\n') + '\r\n');
}

/** Step 1: the six files, in `dir`. Returns their paths by data set. */
async function writeFiles(dir: string, rows: number): Promise<{ bmf: string[]; epostcard: string; revocations: string }> {
  const bmf = [1, 2, 3, 4].map((n) => path.join(dir, `eo${n}.csv`));
  for (const f of bmf) fs.writeFileSync(f, `${BMF_HEADER}\r\n`);
  const epostcard = path.join(dir, 'data-download-epostcard.txt');
  const revocations = path.join(dir, 'data-download-revocationExemptions.txt');
  fs.writeFileSync(epostcard, '');
  fs.writeFileSync(revocations, '');
  const perFile = Math.ceil(rows / 4);
  let n = 0;
  let buffers: string[][] = [[], [], [], []];
  let postcards: string[] = [];
  let revoked: string[] = [];
  const empty18 = '|'.repeat(18);
  for await (const [line] of realRows(rows)) {
    // A fresh 9-digit EIN per row (the real EIN of the first 326,224, then 900,000,000 upwards).
    const ein = n < 326_224 ? line.slice(0, 9) : String(900_000_000 + n).padStart(9, '0');
    const row = ein + line.slice(9);
    buffers[Math.min(3, Math.floor(n / perFile))].push(row);
    if (n % 3 === 0) postcards.push(`${ein}|2025|BENCH ORGANIZATION|50000|F|01-01-2025|12-31-2025|${empty18}`);
    if (n % (Math.floor(rows / 10_000) || 1) === 1) revoked.push(`${ein}|BENCH ORGANIZATION||1 MAIN ST|ANYTOWN|OK|73501|US|03|15-MAY-2025|12-AUG-2025|`);
    n++;
    if (n % 50_000 === 0) {
      buffers.forEach((b, i) => b.length && write(bmf[i], b));
      buffers = [[], [], [], []];
      if (postcards.length) write(epostcard, postcards);
      if (revoked.length) write(revocations, revoked);
      postcards = [];
      revoked = [];
    }
  }
  buffers.forEach((b, i) => b.length && write(bmf[i], b));
  if (postcards.length) write(epostcard, postcards);
  if (revoked.length) write(revocations, revoked);
  return { bmf, epostcard, revocations };
}

function msStats(values: number[]) {
  return { median: round(percentile(values, 50), 3), p95: round(percentile(values, 95), 3), p99: round(percentile(values, 99), 3) };
}

/**
 * Step 1, in its own process: the files, and the empty database created and migrated (creating a
 * cluster takes far more memory than a server that opens one, so it stays out of the measure).
 */
export async function prepareStandingBench(dir: string, rows: number): Promise<void> {
  log(`[standing] writing ${rows.toLocaleString('en-US')} BMF rows, the 990-N data and the revocation list`);
  const files = await writeFiles(dir, rows);
  fs.writeFileSync(path.join(dir, 'files.json'), JSON.stringify(files));
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db'), pgliteSharedBuffersMb: 32 });
  await database.migrate();
  await database.close();
}

/** Steps 2 and 3, in a process started as the server is (scripts/serve.sh): returns the report. */
export async function measureStandingBench(dir: string, rows: number, lookups: number): Promise<StandingBenchReport> {
  const files = JSON.parse(fs.readFileSync(path.join(dir, 'files.json'), 'utf8')) as Awaited<ReturnType<typeof writeFiles>>;
  // As the server opens it (PGLITE_SHARED_BUFFERS_MB's default, docs/operations.md "Memory").
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db'), pgliteSharedBuffersMb: 32 });
  await database.migrate();
  collectStartupGarbage();
  // The peak from here on is the refresh's.
  fs.writeFileSync('/proc/self/clear_refs', '5');
  const rssBeforeMb = round(status().VmRSS, 1);
  const loaded: StandingBenchReport['files'] = [];
  const start = performance.now();
  const plan: [IrsDataset, string][] = [...files.bmf.map((f) => ['bmf', f] as [IrsDataset, string]), ['epostcard', files.epostcard], ['revocations', files.revocations]];
  for (const [dataset, file] of plan) {
    const t0 = performance.now();
    const r = await loadIrsRelease(database.db, { dataset, file, releasedOn: '2026-11-10', batchSize: 2000 });
    loaded.push({ file: path.basename(file), dataset, rows: r.rows, loaded: r.loaded, seconds: round((performance.now() - t0) / 1000, 1) });
    log(`[standing]   ${path.basename(file)}: ${r.loaded.toLocaleString('en-US')} of ${r.rows.toLocaleString('en-US')} rows in ${loaded.at(-1)!.seconds} s, peak ${round(status().VmHWM, 0)} MB`);
  }
  const refresh = { seconds: round((performance.now() - start) / 1000, 1), peakRssMb: round(status().VmHWM, 1), rssBeforeMb };

  const [{ max }] = await database.db.select({ max: sql<number>`max(${accounts.id})::int` }).from(accounts);
  const ids = Array.from({ length: lookups }, () => 1 + Math.floor(Math.random() * max));
  const today = '2026-11-25';
  const standing: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const timeStanding = async () => {
      const t0 = performance.now();
      const [a] = await database.db.select(standingColumns).from(accounts).where(eq(accounts.id, id));
      if (a) await standingOfAccount(database.db, a, today);
      standing.push(performance.now() - t0);
    };
    const timeBare = async () => {
      const t0 = performance.now();
      await database.db.select(standingColumns).from(accounts).where(eq(accounts.id, id));
      bare.push(performance.now() - t0);
    };
    // Alternate which goes first, so neither always finds the page the other just read.
    if (i % 2) { await timeStanding(); await timeBare(); } else { await timeBare(); await timeStanding(); }
  }
  await database.close();
  // The first 50 of each warm the JIT and the page cache.
  const standingMs = msStats(standing.slice(50));
  return {
    rows,
    files: loaded,
    refresh,
    lookups,
    standingMs,
    bareMs: msStats(bare.slice(50)),
    targets: STANDING_TARGETS,
    pass: { refreshPeakRss: refresh.peakRssMb <= STANDING_TARGETS.refreshPeakRssMaxMb, standingMedian: standingMs.median <= STANDING_TARGETS.standingMedianMaxMs },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [mode, dir, rows, lookups] = process.argv.slice(2);
  const done = mode === 'prepare'
    ? prepareStandingBench(dir, Number(rows)).then(() => undefined)
    : measureStandingBench(dir, Number(rows), Number(lookups)).then((report) => {
      if (process.send) process.send({ report });
      else console.log(JSON.stringify(report, null, 2));
    });
  done.then(() => process.exit(0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
