/**
 * npm run bench [-- --only form|search|docx] [--duration N] [--search-duration N] [--rounds N] [--docx-iterations N]
 *
 * Benchmarks of DESIGN §6, printing one JSON document on stdout (progress and a summary table on
 * stderr). All traffic goes to 127.0.0.1.
 * - form: POST /contact through the full app vs a bare Fastify route doing the same insert, 50
 *   connections, on PGlite and, when BENCH_DATABASE_URL is set, on PostgreSQL (private schemas,
 *   dropped afterwards).
 * - search: GET /search over every IRS EO BMF row of ../shared/data/irs-eo-bmf (imported once,
 *   cached in bench/.cache), selective and "any" keywords at 4 connections.
 * - docx: bylaws document model + .docx bytes for each variant, in process (no HTTP), median and
 *   p95 per document against "median <= 20 ms per document".
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { runFormPair, type FormPairResult } from './form-bench.ts';
import { runSearchBench, type SearchReport, type SearchState } from './search-bench.ts';
import { runDocxBench, type DocxReport } from './docx-bench.ts';
import { log } from './lib/load.ts';

const USAGE = 'Usage: npm run bench -- [--only form|search|docx] [--duration SECONDS] [--search-duration SECONDS] [--search-state as-imported|vacuumed|both] [--rounds N] [--docx-iterations N]';
const BENCHES = ['form', 'search', 'docx'] as const;
type BenchName = (typeof BENCHES)[number];

function parse() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      duration: { type: 'string', default: '10' },
      'search-duration': { type: 'string' },
      'search-state': { type: 'string', default: 'both' },
      rounds: { type: 'string', default: '1' },
      'docx-iterations': { type: 'string', default: '200' },
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
    log(`--only takes form, search or docx\n${USAGE}`);
    process.exit(2);
  }
  const duration = num('duration', values.duration, 1, 600);
  const state = values['search-state'];
  if (state !== 'both' && state !== 'as-imported' && state !== 'vacuumed') {
    log(`--search-state takes as-imported, vacuumed or both\n${USAGE}`);
    process.exit(2);
  }
  return {
    only: values.only as BenchName | undefined,
    duration,
    searchDuration: values['search-duration'] === undefined ? duration : num('search-duration', values['search-duration'], 1, 600),
    searchStates: (state === 'both' ? ['as-imported', 'vacuumed'] : [state]) as SearchState[],
    rounds: Math.round(num('rounds', values.rounds, 1, 10)),
    docxIterations: Math.round(num('docx-iterations', values['docx-iterations'], 10, 100_000)),
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
  docx?: Partial<DocxReport> & { error?: string };
}

const f = (n: number | undefined, w = 8) => String(n ?? '-').padStart(w);

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
        lines.push(`  ${`${kind} ${which}`.padEnd(28)}${f(s.reqPerSec, 9)}${f(s.latencyMs.p50, 9)}${f(s.latencyMs.p97_5, 9)}${f(s.latencyMs.p99, 9)}${f(s.non2xx + s.errors, 9)}` +
          (which === 'full' ? `${f(r.ratio, 8)}  ${Object.values(r.pass).every(Boolean) ? 'yes' : 'NO'}` : ''));
      }
    }
  }
  if (report.search?.skipped) lines.push('', `Search: skipped (${report.search.skipped})`);
  const im = report.search?.import;
  if (im) lines.push('', `Search: ${im.rowsImported} rows, import ${im.seconds} s (${im.rowsPerSec} rows/s)${im.cached ? ' [cached]' : ''}, ${report.search?.connections} connections, ${report.search?.durationS} s per case`);
  for (const st of report.search?.states ?? []) {
    lines.push(`  [${st.state}] keyword                       page    total    req/s   p50   p99  cold max  target  ok`);
    for (const c of st.cases) {
      lines.push(`  ${`'${c.keyword}'`.slice(0, 36).padEnd(36)}${f(c.page, 7)}${f(c.total, 9)}${f(c.load.reqPerSec, 9)}${f(c.load.latencyMs.p50, 6)}${f(c.load.latencyMs.p99, 6)}${f(c.coldMs.max, 10)}${f(c.targetP99Ms, 8)}  ${c.pass ? 'yes' : 'NO'}`);
    }
    const wrong = st.correctness.filter((c) => !c.correct);
    lines.push(`  extra correctness pages: ${st.correctness.length - wrong.length}/${st.correctness.length} match the reference query${wrong.length ? ` (WRONG: ${wrong.map((c) => `'${c.keyword}' p${c.page}`).join(', ')})` : ''}`);
    for (const [cls, t] of Object.entries(st.totals)) {
      lines.push(`  ${cls.padEnd(10)} worst p99 ${t.worstP99Ms} ms (target ${t.targetP99Ms}), worst cold ${t.worstColdMs} ms, correct ${t.allCorrect ? 'yes' : 'NO'}, pass ${t.pass ? 'yes' : 'NO'}`);
    }
  }
  const docx = report.docx;
  if (docx?.variants) {
    lines.push('', `Bylaws .docx (build + render, ${docx.iterations} per variant)   median      p95     mean      max  target  ok`);
    for (const [variant, r] of Object.entries(docx.variants)) {
      lines.push(`  ${variant.padEnd(40)}${f(r.totalMs.median, 9)}${f(r.totalMs.p95, 9)}${f(r.totalMs.mean, 9)}${f(r.totalMs.max, 9)}${f(docx.target?.medianMaxMs, 8)}  ${r.pass ? 'yes' : 'NO'}`);
    }
    if (docx.all) lines.push(`  ${'all'.padEnd(40)}${f(docx.all.totalMs.median, 9)}${f(docx.all.totalMs.p95, 9)}${f(docx.all.totalMs.mean, 9)}${f(docx.all.totalMs.max, 9)}`);
  }
  return lines.join('\n');
}

async function main() {
  const args = parse();
  const report: BenchReport = {
    notes: [
      'Latencies in ms from autocannon (whole ms); req/s = completed requests / run seconds. The load generator runs in a worker thread of this process.',
      'form: full = the real app (session cookie, CSRF, rate limit, helmet, zod, insert); bare = Fastify with no plugins calling the same createInquiry. ratio = full/bare req/s. Each on its own fresh database.',
      'search: one autocannon run per case, always the same URL. The exact total is reused while the database snapshot is unchanged, so these runs measure a cached count plus the page query; coldMs are single requests right after a write (nothing reused).',
      "search states: as-imported = what importBmf leaves on PGlite (no autovacuum: no statistics, no visibility map); vacuumed = after VACUUM (ANALYZE) accounts.",
      'docx: ms per document from performance.now() around buildBylawsDocument + renderBylawsDocx in this process, after a warm-up; the variants take turns; the school document has all ten clauses ticked.',
    ],
    startedAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '', node: process.version, loadAvgAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100) },
    args,
  };
  const wanted = (name: BenchName) => args.only === undefined || args.only === name;
  if (wanted('form')) {
    report.form = {};
    try {
      report.form.pglite = await runFormPair({ kind: 'pglite', durationS: args.duration, rounds: args.rounds });
      const url = process.env.BENCH_DATABASE_URL;
      if (url) {
        if (!/^postgres(ql)?:\/\/[^/]*(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) throw new Error('BENCH_DATABASE_URL must point at 127.0.0.1 or localhost');
        report.form.postgres = await runFormPair({ kind: 'postgres', url, durationS: args.duration, rounds: args.rounds });
      } else {
        report.form.postgres = { skipped: 'BENCH_DATABASE_URL is not set' };
      }
    } catch (err) {
      report.form.error = err instanceof Error ? err.stack ?? err.message : String(err);
      log(`[form] failed: ${report.form.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('search')) {
    try {
      report.search = await runSearchBench({ durationS: args.searchDuration, states: args.searchStates });
    } catch (err) {
      report.search = { error: err instanceof Error ? err.stack ?? err.message : String(err) };
      log(`[search] failed: ${report.search.error}`);
      process.exitCode = 1;
    }
  }
  if (wanted('docx')) {
    try {
      report.docx = await runDocxBench({ iterations: args.docxIterations });
    } catch (err) {
      report.docx = { error: err instanceof Error ? err.stack ?? err.message : String(err) };
      log(`[docx] failed: ${report.docx.error}`);
      process.exitCode = 1;
    }
  }
  report.finishedAt = new Date().toISOString();
  report.machine.loadAvgAtEnd = os.loadavg().map((n) => Math.round(n * 100) / 100);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  log(table(report));
}

await main();
// Everything is closed by now; if a stray handle (a load worker, a socket) keeps the loop alive, do not hang.
setTimeout(() => {
  log('bench: forcing exit after 10 s of idle handles');
  process.exit(process.exitCode ?? 0);
}, 10_000).unref();
