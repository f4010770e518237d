/**
 * npm run bench [-- --only form|search|docx|payment|lighthouse|admin|memory] [--duration N] [--search-duration N] [--rounds N]
 *                  [--docx-iterations N] [--payment-count N] [--payment-connections N] [--profile]
 *                  [--rate-limit-store memory|database] [--admin-accounts N] [--admin-duration N]
 *                  [--admin-fresh] [--admin-drop]
 *
 * Benchmarks of docs/requirements/platform.md §6, writing one JSON document to stdout and to bench/results/latest.json
 * (progress and a summary table on stderr). All traffic goes to 127.0.0.1. Every server under
 * load is its own child process (bench/server.ts), so the load generator (this process) is not
 * in its measurements and its memory is its own.
 * - form: POST /contact through the full product vs a bare Fastify route doing the same insert, 50
 *   connections, on PGlite and, when BENCH_DATABASE_URL is set, on PostgreSQL (private schemas,
 *   dropped afterwards).
 * - search: GET /search over every IRS EO BMF row of ../shared/data/irs-eo-bmf (imported once,
 *   cached in bench/.cache), selective and "any" keywords at 4 connections.
 * - docx: bylaws document model + .docx bytes for each variant, in a child process (no HTTP),
 *   median and p95 per document against "median <= 20 ms per document".
 * - payment: card payments through the built-in gateway simulator, each paying its own invoice
 *   (figures only: docs/requirements/platform.md §6 sets no target); on PGlite and, with BENCH_DATABASE_URL, PostgreSQL.
 * - lighthouse: Lighthouse scores of the public pages in the system Chromium, mobile and desktop, and
 *   the initial JavaScript (bench/lighthouse-bench.ts; builds the client first).
 * - admin: the staff lists (accounts, open invoices, payments, inbox, audit, outbox) with search and
 *   sort at 10 connections on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 *   test database) filled by seed-scale's code (--admin-accounts, default 50000; a private schema
 *   kept between runs: --admin-fresh seeds it again, --admin-drop drops it afterwards), each beside
 *   the bare query of the same rows through node-postgres (docs/benchmarks.md "Staff lists at scale").
 * - memory: the full product on PGlite holding the whole IRS roster (search's imported database,
 *   copied): its resident set at ready, the median of --memory-starts starts (default 3), and its
 *   peak under the form load then the search, against 300 MB and 450 MB (bench/memory-bench.ts).
 * - irs: the IRS's four data sets at national size loaded on PostgreSQL with the site answering,
 *   then the instant check by EIN and by name at 10 connections beside bare queries
 *   (bench/irs-bench.ts; docs/benchmarks.md "IRS national files on PostgreSQL").
 * And for every bench, the peak resident set (VmHWM) of each of those processes.
 * With --profile each server process writes a V8 CPU profile to bench/results/profiles/ and the
 * report lists where its time went.
 */
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serveCommand } from '../scripts/serve-command.ts';
import { runAdminBench, type AdminReport } from './admin-bench.ts';
import { runFormPair, type FormPairResult } from './form-bench.ts';
import { IRS_TARGETS, runIrsBench, type IrsBenchReport } from './irs-bench.ts';
import { log } from './lib/load.ts';
import { lighthouseTable, runLighthouseBench, type LighthouseReport } from './lighthouse-bench.ts';
import { runMemoryBench, type MemoryBenchReport } from './memory-bench.ts';
import { runPaymentBench, type PaymentBenchResult } from './payment-bench.ts';
import { runSearchBench, type SearchReport, type SearchState } from './search-bench.ts';
import type { DocxReport } from './docx-bench.ts';
import type { ServerStats } from './lib/server-process.ts';
import type { StandingBenchReport, WorkQueueBenchReport } from './standing-bench.ts';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const USAGE =
  'Usage: npm run bench -- [--only form|search|docx|payment|lighthouse|admin|memory|standing|irs] [--irs-bmf-rows N] [--irs-rows N] [--irs-duration SECONDS] [--standing-rows N] [--standing-lookups N] [--standing-part all|refresh|queue] [--queue-items N] [--admin-accounts N] [--admin-duration SECONDS] [--admin-fresh] [--admin-drop] [--duration SECONDS] [--search-duration SECONDS] [--search-state as-imported|vacuumed|both] [--rounds N] [--docx-iterations N] [--payment-count N] [--payment-connections N] [--rate-limit-store memory|database] [--lighthouse-runs N] [--memory-starts N] [--profile]';
const BENCHES = ['form', 'search', 'docx', 'payment', 'lighthouse', 'admin', 'memory', 'standing', 'irs'] as const;
type BenchName = (typeof BENCHES)[number];

function parse() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      duration: { type: 'string', default: '10' },
      'search-duration': { type: 'string' },
      'search-state': { type: 'string', default: 'both' },
      rounds: { type: 'string', default: '2' },
      'docx-iterations': { type: 'string', default: '200' },
      'standing-rows': { type: 'string', default: '1900000' },
      'standing-lookups': { type: 'string', default: '2000' },
      'standing-part': { type: 'string', default: 'all' },
      'queue-items': { type: 'string', default: '10000' },
      'irs-bmf-rows': { type: 'string', default: '1900000' },
      'irs-rows': { type: 'string', default: '1200000' },
      'irs-duration': { type: 'string', default: '10' },
      'payment-count': { type: 'string', default: '2000' },
      'payment-connections': { type: 'string', default: '10' },
      profile: { type: 'boolean', default: false },
      'rate-limit-store': { type: 'string' },
      'lighthouse-runs': { type: 'string', default: '3' },
      'memory-starts': { type: 'string', default: '3' },
      'admin-accounts': { type: 'string', default: '50000' },
      'admin-duration': { type: 'string', default: '5' },
      'admin-fresh': { type: 'boolean', default: false },
      'admin-drop': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    log(USAGE);
    process.exit(0);
  }
  const num = (name: string, v: string | undefined, min: number, max: number) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max) {
      log(`--${name} takes a number from ${min} to ${max}\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  if (values.only !== undefined && !(BENCHES as readonly string[]).includes(values.only)) {
    log(`--only takes form, search, docx, payment, lighthouse, admin, memory, standing or irs\n${USAGE}`);
    process.exit(2);
  }
  const duration = num('duration', values.duration, 1, 600);
  const store = values['rate-limit-store'];
  if (store !== undefined && store !== 'memory' && store !== 'database') {
    log(`--rate-limit-store takes memory or database\n${USAGE}`);
    process.exit(2);
  }
  const standingPart = values['standing-part'];
  if (standingPart !== 'all' && standingPart !== 'refresh' && standingPart !== 'queue') {
    log(`--standing-part takes all, refresh or queue\n${USAGE}`);
    process.exit(2);
  }
  const state = values['search-state'];
  if (state !== 'both' && state !== 'as-imported' && state !== 'vacuumed') {
    log(`--search-state takes as-imported, vacuumed or both\n${USAGE}`);
    process.exit(2);
  }
  return {
    only: values.only as BenchName | undefined,
    duration,
    searchDuration:
      values['search-duration'] === undefined ? duration : num('search-duration', values['search-duration'], 1, 600),
    searchStates: (state === 'both' ? ['as-imported', 'vacuumed'] : [state]) as SearchState[],
    rounds: Math.round(num('rounds', values.rounds, 1, 10)),
    docxIterations: Math.round(num('docx-iterations', values['docx-iterations'], 10, 100_000)),
    standingRows: Math.round(num('standing-rows', values['standing-rows'], 1000, 10_000_000)),
    standingLookups: Math.round(num('standing-lookups', values['standing-lookups'], 100, 1_000_000)),
    standingPart: standingPart as 'all' | 'refresh' | 'queue',
    queueItems: Math.round(num('queue-items', values['queue-items'], 100, 1_000_000)),
    irsBmfRows: Math.round(num('irs-bmf-rows', values['irs-bmf-rows'], 1000, 10_000_000)),
    irsRows: Math.round(num('irs-rows', values['irs-rows'], 1000, 10_000_000)),
    irsDuration: num('irs-duration', values['irs-duration'], 1, 600),
    paymentCount: Math.round(num('payment-count', values['payment-count'], 50, 9_000)),
    paymentConnections: Math.round(num('payment-connections', values['payment-connections'], 1, 200)),
    profile: values.profile ?? false,
    rateLimitStore: store as 'memory' | 'database' | undefined,
    lighthouseRuns: Math.round(num('lighthouse-runs', values['lighthouse-runs'], 1, 9)),
    memoryStarts: Math.round(num('memory-starts', values['memory-starts'], 1, 9)),
    adminAccounts: Math.round(num('admin-accounts', values['admin-accounts'], 10, 2_000_000)),
    adminDuration: num('admin-duration', values['admin-duration'], 1, 600),
    adminFresh: values['admin-fresh'] ?? false,
    adminDrop: values['admin-drop'] ?? false,
  };
}

interface BenchReport {
  notes: string[];
  startedAt: string;
  finishedAt?: string;
  machine: { cpus: number; cpuModel: string; node: string; loadAvgAtStart: number[]; loadAvgAtEnd?: number[] };
  args: ReturnType<typeof parse>;
  form?: { pglite?: FormPairResult; postgres?: FormPairResult | { skipped: string }; error?: string };
  search?: SearchReport & { error?: string };
  docx?: Partial<DocxReport> & { error?: string; peakRssMb?: number | null };
  standing?: Partial<StandingBenchReport> & { error?: string; queue?: WorkQueueBenchReport };
  irs?: IrsBenchReport & { error?: string };
  payment?: { pglite?: PaymentBenchResult; postgres?: PaymentBenchResult | { skipped: string }; error?: string };
  lighthouse?: LighthouseReport | { error: string };
  admin?: AdminReport & { error?: string };
  /** The memory bench: the server on PGlite with the whole IRS roster. */
  roster?: MemoryBenchReport | { error: string };
  /** Peak resident set (VmHWM, MB) of every process the benches started, and of this one. */
  memory?: { processes: MemoryRow[]; benchProcessPeakRssMb: number };
}

interface MemoryRow {
  bench: string;
  peakRssMb: number | null;
  rssAtReadyMb?: number;
  rssAtEndMb?: number;
}

/** Runs the docx bench in a child process (its memory is then its own). */
async function runDocxChild(iterations: number): Promise<{ report: DocxReport; peakRssMb: number | null }> {
  const child = fork(path.join(BENCH_DIR, 'docx-bench.ts'), [String(iterations)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let answer: { report: DocxReport; peakRssMb: number | null } | undefined;
    child.once('message', (m) => (answer = m as typeof answer));
    child.once('exit', (code) =>
      answer && code === 0 ? resolve(answer) : reject(new Error(`docx bench process exited with ${code}`)),
    );
  });
}

/**
 * Runs the IRS data bench (bench/standing-bench.ts) in two child processes started as the server
 * is (scripts/serve.sh): one writes the files and creates the database, the other loads them and
 * measures, so its peak memory is the refresh's alone.
 */
async function runStandingChild(rows: number, lookups: number): Promise<StandingBenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-standing-'));
  const run = (args: string[]) =>
    new Promise<StandingBenchReport | undefined>((resolve, reject) => {
      const command = serveCommand([path.join('bench', 'standing-bench.ts'), ...args]);
      const child = spawn(command.file, command.args, {
        env: command.env,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      let answer: { report: StandingBenchReport } | undefined;
      child.once('message', (m) => (answer = m as typeof answer));
      child.once('exit', (code) =>
        code === 0
          ? resolve(answer?.report)
          : reject(new Error(`standing bench process (${args[0]}) exited with ${code}`)),
      );
    });
  try {
    await run(['prepare', dir, String(rows)]);
    const report = await run(['measure', dir, String(rows), String(lookups)]);
    if (!report) throw new Error('the standing bench sent no report');
    return report;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The staff work queue part of the IRS data bench (bench/standing-bench.ts `queue`), in a child
 * process started as the server is, on a fresh database of its own: `items` work items, each
 * paging case 300 times beside its bare query (docs/benchmarks.md "Staff work queue").
 */
async function runWorkQueueChild(items: number): Promise<WorkQueueBenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-queue-'));
  try {
    const command = serveCommand([path.join('bench', 'standing-bench.ts'), 'queue', dir, String(items), '300']);
    const child = spawn(command.file, command.args, {
      env: command.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const report = await new Promise<WorkQueueBenchReport | undefined>((resolve, reject) => {
      let answer: { report: WorkQueueBenchReport } | undefined;
      child.once('message', (m) => (answer = m as typeof answer));
      child.once('exit', (code) =>
        code === 0 ? resolve(answer?.report) : reject(new Error(`work queue bench process exited with ${code}`)),
      );
    });
    if (!report) throw new Error('the work queue bench sent no report');
    return report;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One memory row per server process of a bench. */
function serverRow(bench: string, s: ServerStats | undefined): MemoryRow[] {
  return s
    ? [{ bench, peakRssMb: s.memory.peakRssMb, rssAtReadyMb: s.memory.rssAtReadyMb, rssAtEndMb: s.memory.rssAtEndMb }]
    : [];
}

function memoryRows(report: BenchReport): MemoryRow[] {
  const rows: MemoryRow[] = [];
  for (const kind of ['pglite', 'postgres'] as const) {
    const f = report.form?.[kind];
    if (f && !('skipped' in f))
      rows.push(...serverRow(`form ${kind} full`, f.servers.full), ...serverRow(`form ${kind} bare`, f.servers.bare));
  }
  for (const st of report.search?.states ?? []) rows.push(...serverRow(`search ${st.state}`, st.server));
  for (const kind of ['pglite', 'postgres'] as const) {
    const p = report.payment?.[kind];
    if (p && !('skipped' in p)) rows.push(...serverRow(`payment ${kind}`, p.server));
  }
  if (report.admin?.server) rows.push(...serverRow('admin postgres', report.admin.server));
  if (report.roster && 'server' in report.roster)
    rows.push(...serverRow('memory pglite full + IRS roster', report.roster.server));
  if (report.docx?.peakRssMb !== undefined)
    rows.push({ bench: 'docx (its own process)', peakRssMb: report.docx.peakRssMb });
  return rows;
}

const f = (n: number | string | null | undefined, w = 8) => String(n ?? '-').padStart(w);

function table(report: BenchReport): string {
  const lines: string[] = [];
  if (report.form) {
    lines.push('', 'Form submit (POST /contact)      req/s      p50    p97.5      p99   non2xx   ratio  pass');
    for (const kind of ['pglite', 'postgres'] as const) {
      const r = report.form[kind];
      if (!r) continue;
      if ('skipped' in r) {
        lines.push(`  ${kind}: skipped (${r.skipped})`);
        continue;
      }
      for (const which of ['full', 'bare'] as const) {
        const s = r[which];
        lines.push(
          `  ${`${kind} ${which}`.padEnd(28)}${f(s.reqPerSec, 9)}${f(s.latencyMs.p50, 9)}${f(s.latencyMs.p97_5, 9)}${f(s.latencyMs.p99, 9)}${f(s.non2xx + s.errors, 9)}` +
            (which === 'full' ? `${f(r.ratio, 8)}  ${Object.values(r.pass).every(Boolean) ? 'yes' : 'NO'}` : ''),
        );
      }
    }
  }
  if (report.search?.skipped) lines.push('', `Search: skipped (${report.search.skipped})`);
  const im = report.search?.import;
  if (im)
    lines.push(
      '',
      `Search: ${im.rowsImported} rows, import ${im.seconds} s (${im.rowsPerSec} rows/s)${im.cached ? ' [cached]' : ''}, ${report.search?.connections} connections, ${report.search?.durationS} s per case`,
    );
  for (const st of report.search?.states ?? []) {
    lines.push(
      `  [${st.state}] keyword                       page    total    req/s   p50   p99  cold max  target  ok`,
    );
    for (const c of st.cases) {
      lines.push(
        `  ${`'${c.keyword}'`.slice(0, 36).padEnd(36)}${f(c.page, 7)}${f(c.total, 9)}${f(c.load.reqPerSec, 9)}${f(c.load.latencyMs.p50, 6)}${f(c.load.latencyMs.p99, 6)}${f(c.coldMs.max, 10)}${f(c.targetP99Ms, 8)}  ${c.pass ? 'yes' : 'NO'}`,
      );
    }
    const wrong = st.correctness.filter((c) => !c.correct);
    lines.push(
      `  extra correctness pages: ${st.correctness.length - wrong.length}/${st.correctness.length} match the reference query${wrong.length ? ` (WRONG: ${wrong.map((c) => `'${c.keyword}' p${c.page}`).join(', ')})` : ''}`,
    );
    for (const [cls, t] of Object.entries(st.totals)) {
      lines.push(
        `  ${cls.padEnd(10)} worst p99 ${t.worstP99Ms} ms (target ${t.targetP99Ms}), worst cold ${t.worstColdMs} ms, correct ${t.allCorrect ? 'yes' : 'NO'}, pass ${t.pass ? 'yes' : 'NO'}`,
      );
    }
  }
  const docx = report.docx;
  if (docx?.variants) {
    lines.push(
      '',
      `Bylaws .docx (build + render, ${docx.iterations} per variant)   median      p95     mean      max  target  ok`,
    );
    for (const [variant, r] of Object.entries(docx.variants)) {
      lines.push(
        `  ${variant.padEnd(40)}${f(r.totalMs.median, 9)}${f(r.totalMs.p95, 9)}${f(r.totalMs.mean, 9)}${f(r.totalMs.max, 9)}${f(docx.target?.medianMaxMs, 8)}  ${r.pass ? 'yes' : 'NO'}`,
      );
    }
    if (docx.all)
      lines.push(
        `  ${'all'.padEnd(40)}${f(docx.all.totalMs.median, 9)}${f(docx.all.totalMs.p95, 9)}${f(docx.all.totalMs.mean, 9)}${f(docx.all.totalMs.max, 9)}`,
      );
  }
  const st2 = report.standing;
  if (st2?.refresh && st2.standingMs && st2.bareMs) {
    lines.push('', `IRS data (${st2.rows?.toLocaleString('en-US')} BMF rows, 990-N data, revocation list; PGlite)`);
    for (const file of st2.files ?? [])
      lines.push(
        `  ${file.file.padEnd(40)}${file.loaded.toLocaleString('en-US').padStart(10)} of ${file.rows.toLocaleString('en-US')} rows in ${file.seconds} s`,
      );
    lines.push(
      `  refresh: ${st2.refresh.seconds} s, peak RSS ${st2.refresh.peakRssMb} MB (target ${st2.targets?.refreshPeakRssMaxMb}) ${st2.pass?.refreshPeakRss ? 'yes' : 'NO'}`,
    );
    lines.push(
      `  standing of one group (${st2.lookups} random): median ${st2.standingMs.median} ms, p99 ${st2.standingMs.p99} ms (target median ${st2.targets?.standingMedianMaxMs}) ${st2.pass?.standingMedian ? 'yes' : 'NO'}; bare row read median ${st2.bareMs.median} ms, p99 ${st2.bareMs.p99} ms`,
    );
  }
  const irs = report.irs;
  if (irs?.load && irs.cases) {
    const t = IRS_TARGETS;
    lines.push(
      '',
      `IRS national files (${irs.rows?.bmf.toLocaleString('en-US')} BMF rows, ${irs.rows?.others.toLocaleString('en-US')} of each other data set; PostgreSQL)`,
    );
    for (const file of irs.load.files)
      lines.push(
        `  ${file.file.padEnd(52)}${file.loaded.toLocaleString('en-US').padStart(10)} rows in ${file.seconds} s`,
      );
    lines.push(
      `  load: ${irs.load.seconds} s (target ${t.loadMaxMinutes * 60}) ${irs.pass?.loadMinutes ? 'yes' : 'NO'}, peak RSS ${irs.load.peakRssMb} MB (target ${t.loadPeakRssMaxMb}) ${irs.pass?.loadPeakRss ? 'yes' : 'NO'}`,
      `  site during the load: ${irs.load.siteDuringLoad.requests} requests, ${irs.load.siteDuringLoad.failures} failed, p99 ${irs.load.siteDuringLoad.p99} ms, max ${irs.load.siteDuringLoad.max} ms`,
      `  ${irs.connections} connections, ${irs.durationS} s each          product p50    p99   req/s   bare p99  ratio  target  ok`,
    );
    for (const c of irs.cases)
      lines.push(
        `  ${c.name.padEnd(36)}${f(c.full.p50, 9)}${f(c.full.p99, 7)}${f(c.full.reqPerSec, 8)}${f(c.bare.p99, 11)}${f(c.ratioP99, 7)}${f(c.targetP99Ms, 8)}  ${c.pass ? 'yes' : 'NO'}`,
      );
  }
  const wq = report.standing?.queue;
  if (wq) {
    lines.push(
      '',
      `Staff work queue (${wq.items.toLocaleString('en-US')} items, ${wq.rounds} pages per case; PGlite), ms`,
    );
    lines.push(
      `  ${'case'.padEnd(36)}${'list p50'.padStart(10)}${'p99'.padStart(9)} |${'bare p50'.padStart(10)}${'p99'.padStart(9)} | p99 <= ${wq.targetP99Ms}`,
    );
    for (const c of wq.cases)
      lines.push(
        `  ${c.name.padEnd(36)}${f(c.listMs.median, 10)}${f(c.listMs.p99, 9)} |${f(c.bareMs.median, 10)}${f(c.bareMs.p99, 9)} | ${c.pass ? 'yes' : 'NO'}`,
      );
  }
  if (report.payment) {
    lines.push('', 'Card payment (POST /app/payments/credit)  req/s      p50    p97.5      p99   non2xx  paid once');
    for (const kind of ['pglite', 'postgres'] as const) {
      const r = report.payment[kind];
      if (!r) continue;
      if ('skipped' in r) {
        lines.push(`  ${kind}: skipped (${r.skipped})`);
        continue;
      }
      lines.push(
        `  ${`${kind}, ${r.connections} connections`.padEnd(36)}${f(r.load.reqPerSec, 9)}${f(r.load.latencyMs.p50, 9)}${f(r.load.latencyMs.p97_5, 9)}${f(r.load.latencyMs.p99, 9)}${f(r.load.non2xx + r.load.errors, 9)}  ${r.recorded.exactlyOnce ? 'yes' : 'NO'} (${r.recorded.paidRows}/${r.recorded.answered200})`,
      );
    }
  }
  if (report.admin?.skipped) lines.push('', `Staff lists: skipped (${report.admin.skipped})`);
  if (report.admin?.cases) {
    const a = report.admin;
    lines.push(
      '',
      `Staff lists at ${a.accounts} accounts (${a.seed?.cached ? 'cached schema' : `seeded in ${a.seed?.seconds} s`}), ${a.connections} connections, ${a.durationS} s per case`,
    );
    lines.push(
      '  list      address                                                  rows    total    req/s   p50   p99 | bare req/s  p50   p99 | p99 ratio  ok',
    );
    for (const c of a.cases ?? []) {
      lines.push(
        `  ${c.list.padEnd(9)} ${c.url.replace('/api/admin/', '').padEnd(54)}${f(c.rows, 6)}${f(`${c.total}${c.totalIsCapped ? '+' : ''}`, 9)}${f(c.full.reqPerSec, 9)}${f(c.full.latencyMs.p50, 6)}${f(c.full.latencyMs.p99, 6)} |${f(c.bare.reqPerSec, 11)}${f(c.bare.latencyMs.p50, 5)}${f(c.bare.latencyMs.p99, 6)} |${f(c.ratioP99, 10)}  ${c.pass ? 'yes' : 'NO'}`,
      );
    }
  }
  if (report.memory) {
    lines.push('', 'Memory (MB)                             at ready   at end  peak RSS');
    for (const m of report.memory.processes)
      lines.push(`  ${m.bench.padEnd(36)}${f(m.rssAtReadyMb, 9)}${f(m.rssAtEndMb, 9)}${f(m.peakRssMb, 10)}`);
    lines.push(
      `  ${'bench process (load generator)'.padEnd(36)}${f(undefined, 9)}${f(undefined, 9)}${f(report.memory.benchProcessPeakRssMb, 10)}`,
    );
  }
  if (report.roster && 'server' in report.roster) {
    const r = report.roster;
    lines.push(
      '',
      `Memory with the IRS roster (${r.organizations} organizations): ${r.rssAtReadyMedianMb} MB at ready, median of ${r.rssAtReadyRunsMb.length} starts (${r.rssAtReadyRunsMb.join(', ')}; target ${r.targetsMb.atReady}) ${r.pass.atReady ? 'yes' : 'NO'}, ` +
        `${r.server.memory.peakRssMb} MB peak (target ${r.targetsMb.peak}) ${r.pass.peak ? 'yes' : 'NO'}; form ${r.form.reqPerSec} req/s, search ${r.search.reqPerSec} req/s`,
    );
  }
  const profiled = [
    ...(['pglite', 'postgres'] as const).flatMap((k) => {
      const r = report.form?.[k];
      return r && !('skipped' in r)
        ? ([
            [`form ${k} full`, r.servers.full],
            [`form ${k} bare`, r.servers.bare],
          ] as const)
        : [];
    }),
    ...(report.search?.states ?? []).map((st) => [`search ${st.state}`, st.server] as const),
    ...(['pglite', 'postgres'] as const).flatMap((k) => {
      const r = report.payment?.[k];
      return r && !('skipped' in r) ? [[`payment ${k}`, r.server] as const] : [];
    }),
  ].filter(([, s]) => s?.profile);
  if (profiled.length) {
    lines.push('', 'Where the server time went during the load runs (CPU profile, share of busy time)');
    for (const [name, s] of profiled) {
      lines.push(
        `  ${name.padEnd(22)}${s!
          .profile!.areas.slice(0, 6)
          .map((a) => `${a.area} ${a.pct} %`)
          .join(', ')}`,
      );
    }
  }
  if (report.lighthouse && 'pages' in report.lighthouse) lines.push(lighthouseTable(report.lighthouse));
  lines.push(
    '',
    `Load average ${report.machine.loadAvgAtStart.join(' ')} at start, ${report.machine.loadAvgAtEnd?.join(' ')} at end (${report.machine.cpus} cores)`,
  );
  return lines.join('\n');
}

async function main() {
  const args = parse();
  const report: BenchReport = {
    notes: [
      'Latencies in ms from autocannon (whole ms); req/s = completed requests / run seconds. Each server is a child process (bench/server.ts, NODE_ENV=development as npm start runs it, a trusted local proxy, pino logs at info into a file); the load generator is this process (autocannon in a worker thread, or in the main thread for payments). cpu.serverPct / loadGeneratorPct: CPU time of each over the run, % of one core.',
      'form: full = the real app (session cookie, CSRF, rate limit, helmet, zod, insert, one log line); bare = Fastify with no plugins calling the same createInquiry. ratio = full/bare req/s. Each on its own fresh database. Each connection is one visitor: its own session and CSRF token, its own address (X-Forwarded-For from the trusted local proxy). Best of --rounds rounds, order alternating.',
      'search: one autocannon run per case, always the same URL. The exact total is reused while the database snapshot is unchanged, so these runs measure a cached count plus the page query; coldMs are single requests right after a write (nothing reused).',
      'search states: as-imported = what importBmf leaves on PGlite (no autovacuum: no statistics, no visibility map); vacuumed = after VACUUM (ANALYZE) accounts.',
      'docx: ms per document from performance.now() around buildBylawsDocument + renderBylawsDocx in a child process, after a warm-up; the variants take turns; the school document has all ten clauses ticked.',
      "payment: each request pays its own $50.00 invoice by card (opaque data from the simulator tokenizer, obtained before the run; own idempotency key; the payer's session cookie and CSRF header); the server calls the gateway simulator it serves itself over HTTP. recorded: the database afterwards.",
      'memory: VmHWM (peak resident set, start-up included) of each process from /proc/<pid>/status, in MB.',
    ],
    startedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      node: process.version,
      loadAvgAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
    },
    args,
  };
  const wanted = (name: BenchName) => args.only === undefined || args.only === name;
  const profileDir = args.profile ? path.join(RESULTS_DIR, 'profiles') : undefined;
  const url = process.env.BENCH_DATABASE_URL;
  if (url && !/^postgres(ql)?:\/\/[^/]*(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) {
    log('BENCH_DATABASE_URL must point at 127.0.0.1 or localhost');
    process.exit(2);
  }
  if (wanted('form')) {
    report.form = {};
    try {
      report.form.pglite = await runFormPair({
        kind: 'pglite',
        durationS: args.duration,
        rounds: args.rounds,
        profileDir,
        rateLimitStore: args.rateLimitStore,
      });
      if (url) {
        report.form.postgres = await runFormPair({
          kind: 'postgres',
          url,
          durationS: args.duration,
          rounds: args.rounds,
          profileDir,
          rateLimitStore: args.rateLimitStore,
        });
      } else {
        report.form.postgres = { skipped: 'BENCH_DATABASE_URL is not set' };
      }
    } catch (err) {
      report.form.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`[form] failed: ${report.form.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('search')) {
    try {
      report.search = await runSearchBench({ durationS: args.searchDuration, states: args.searchStates, profileDir });
    } catch (err) {
      report.search = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      log(`[search] failed: ${report.search.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('docx')) {
    try {
      const { report: docx, peakRssMb } = await runDocxChild(args.docxIterations);
      report.docx = { ...docx, peakRssMb };
    } catch (err) {
      report.docx = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      log(`[docx] failed: ${report.docx.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('standing')) {
    try {
      // --standing-part queue skips the full-size refresh (minutes) and measures the work queue alone.
      report.standing =
        args.standingPart === 'queue' ? {} : await runStandingChild(args.standingRows, args.standingLookups);
      if (args.standingPart !== 'refresh') report.standing.queue = await runWorkQueueChild(args.queueItems);
    } catch (err) {
      report.standing = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      log(`[standing] failed: ${report.standing.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('irs')) {
    try {
      report.irs = await runIrsBench({
        url: url ?? process.env.TEST_DATABASE_URL,
        bmfRows: args.irsBmfRows,
        rows: args.irsRows,
        connections: 10,
        durationS: args.irsDuration,
      });
      if (report.irs.skipped) log(`[irs] skipped: ${report.irs.skipped}`);
    } catch (err) {
      report.irs = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      log(`[irs] failed: ${report.irs.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('payment')) {
    report.payment = {};
    const paymentOpts = { count: args.paymentCount, connections: args.paymentConnections, profileDir };
    try {
      report.payment.pglite = await runPaymentBench({ kind: 'pglite', ...paymentOpts });
      report.payment.postgres = url
        ? await runPaymentBench({ kind: 'postgres', url, ...paymentOpts })
        : { skipped: 'BENCH_DATABASE_URL is not set' };
    } catch (err) {
      report.payment.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`[payment] failed: ${report.payment.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('lighthouse')) {
    // Public pages in the system Chromium, mobile and desktop settings (docs/requirements/platform.md §6); builds the client first.
    try {
      report.lighthouse = await runLighthouseBench({ runs: args.lighthouseRuns });
    } catch (err) {
      report.lighthouse = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      log(`[lighthouse] failed: ${report.lighthouse.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('admin')) {
    try {
      const adminUrl = url ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
      if (!/^postgres(ql)?:\/\/[^/]*(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(adminUrl))
        throw new Error('the admin bench runs against 127.0.0.1 or localhost only');
      report.admin = await runAdminBench({
        url: adminUrl,
        accounts: args.adminAccounts,
        durationS: args.adminDuration,
        fresh: args.adminFresh,
        drop: args.adminDrop,
        profileDir,
      });
      if (report.admin.cases?.some((c) => !c.pass)) process.exitCode = 1;
    } catch (err) {
      report.admin = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      log(`[admin] failed: ${report.admin.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('memory')) {
    try {
      report.roster = await runMemoryBench({ durationS: args.duration, starts: args.memoryStarts });
      if (!report.roster.pass.atReady || !report.roster.pass.peak) process.exitCode = 1;
    } catch (err) {
      report.roster = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      log(`[memory] failed: ${report.roster.error}`);
      process.exitCode = 1;
    }
  }
  report.finishedAt = new Date().toISOString();
  report.machine.loadAvgAtEnd = os.loadavg().map((n) => Math.round(n * 100) / 100);
  report.memory = {
    processes: memoryRows(report),
    benchProcessPeakRssMb: Math.round(process.resourceUsage().maxRSS / 102.4) / 10,
  };
  const json = `${JSON.stringify(report, null, 2)}\n`;
  process.stdout.write(json);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(RESULTS_DIR, 'latest.json');
  fs.writeFileSync(out, json);
  log(table(report));
  log(`\nResults written to ${path.relative(process.cwd(), out)}`);
}

await main();
// Everything is closed by now; if a stray handle (a load worker, a socket) keeps the loop alive, do not hang.
setTimeout(() => {
  log('bench: forcing exit after 10 s of idle handles');
  process.exit(process.exitCode ?? 0);
}, 10_000).unref();
