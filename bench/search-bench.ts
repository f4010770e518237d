import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { MIGRATIONS_DIR, openDatabase, type Database } from '../src/server/db/client.ts';
import { accounts } from '../src/server/db/schema.ts';
import { importBmf } from '../src/server/modules/subordinates/import-bmf.ts';
import { SEARCH_PER_PAGE } from '../src/shared/schemas/search.ts';
import { CONTACT_BODY } from './form-bench.ts';
import { openSession } from './lib/apps.ts';
import { log, round, runLoad, type LoadSummary } from './lib/load.ts';
import { startServer, type ServerProcess, type ServerStats } from './lib/server-process.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BMF_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'irs-eo-bmf');
const CACHE_DIR = path.join(REPO_ROOT, 'bench', '.cache');
const IMPORT_SOURCE = path.join(REPO_ROOT, 'src', 'server', 'modules', 'subordinates', 'import-bmf.ts');

type SearchClass = 'selective' | 'any';
export interface SearchCase {
  keyword: string;
  page: number;
  class: SearchClass;
}

/** Selective keywords (few matches) and "any keyword" cases (very common words, short words, all rows, deep pages). */
const SEARCH_CASES: SearchCase[] = [
  { keyword: 'wrestling', page: 1, class: 'selective' },
  { keyword: 'lutheran', page: 1, class: 'selective' },
  { keyword: 'bulldog', page: 1, class: 'selective' },
  { keyword: 'soldotna', page: 1, class: 'selective' },
  { keyword: 'Copper River Wrestling Booster Club', page: 1, class: 'selective' },
  { keyword: 'church', page: 1, class: 'any' },
  { keyword: 'inc', page: 1, class: 'any' },
  { keyword: 'a', page: 1, class: 'any' },
  { keyword: 'of', page: 1, class: 'any' },
  { keyword: '', page: 1, class: 'any' },
  { keyword: 'church', page: 50, class: 'any' },
  { keyword: '', page: 20000, class: 'any' },
];

/**
 * Checked for correctness only (no load): pages that take each plan of the search (walk forward
 * and backward, walk that runs out of budget, sort of few matches, short words, odd characters).
 */
const CORRECTNESS_CASES: { keyword: string; page: number }[] = [
  { keyword: 'church', page: 1459 },
  { keyword: 'lutheran', page: 20 },
  { keyword: 'of', page: 1000 },
  { keyword: 'a', page: 20000 },
  { keyword: 'zion', page: 2 },
  { keyword: 'st', page: 3 },
  { keyword: 'qz', page: 1 },
  { keyword: '&', page: 2 },
  { keyword: 'booster club', page: 7 },
  { keyword: 'club booster boost', page: 2 },
  { keyword: '', page: 10875 },
  { keyword: 'inc', page: 6000 },
  { keyword: 'youth', page: 1 },
  { keyword: 'zzzqqq', page: 1 },
];

const SEARCH_TARGETS_P99_MS: Record<SearchClass, number> = { selective: 50, any: 200 };

export interface ImportReport {
  files: number;
  rowsRead: number;
  rowsImported: number;
  seconds: number;
  rowsPerSec: number;
  /** true when this run reused bench/.cache instead of importing. */
  cached: boolean;
  cacheDir: string;
}

interface SearchCaseResult extends SearchCase {
  total: number;
  /** The page matches a plain reference query (count + ORDER BY name, id LIMIT/OFFSET). */
  correct: boolean;
  /** Single requests right after a write (fresh snapshot, nothing cached), one at a time. */
  coldMs: { samples: number[]; max: number };
  load: LoadSummary;
  targetP99Ms: number;
  pass: boolean;
}

type SearchTotals = Record<
  SearchClass,
  {
    cases: number;
    requests: number;
    reqPerSec: number;
    worstP50Ms: number;
    worstP99Ms: number;
    worstColdMs: number;
    targetP99Ms: number;
    allCorrect: boolean;
    pass: boolean;
  }
>;

/** One state of the imported database. */
interface SearchStateReport {
  /** 'as-imported': what importBmf leaves (PGlite has no autovacuum: no statistics, no visibility map). 'vacuumed': after VACUUM (ANALYZE) accounts. */
  state: SearchState;
  cases: SearchCaseResult[];
  /** Extra pages compared with the reference query; ms is one request, timed once. */
  correctness: { keyword: string; page: number; total: number; correct: boolean; ms: number }[];
  totals: SearchTotals;
  /** The server process of this state: memory (peak RSS), log lines, CPU profile summary when asked for. */
  server?: ServerStats;
}

export type SearchState = 'as-imported' | 'vacuumed';

export interface SearchReport {
  skipped?: string;
  import?: ImportReport;
  connections?: number;
  durationS?: number;
  states?: SearchStateReport[];
}

function bmfFiles(): string[] {
  return fs
    .readdirSync(BMF_DIR)
    .filter((f) => f.toLowerCase().endsWith('.csv'))
    .sort();
}

/** Cache key: the file list (name, size, mtime) plus the code that shapes the database (importer, migrations). */
function cacheKey(files: string[]): string {
  const h = crypto.createHash('sha256');
  for (const f of files) {
    const st = fs.statSync(path.join(BMF_DIR, f));
    h.update(`${f}\0${st.size}\0${st.mtimeMs}\n`);
  }
  h.update(fs.readFileSync(IMPORT_SOURCE));
  for (const f of fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    h.update(f);
    h.update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)));
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * A PGlite directory holding every BMF file, imported with importBmf the way `npm run import:bmf`
 * does (batches of 2000). Imported once into a temp directory, then kept in bench/.cache/bmf-KEY.
 */
export async function importedDatabaseDir(): Promise<{ dir: string; report: ImportReport }> {
  const files = bmfFiles();
  const key = cacheKey(files);
  const dir = path.join(CACHE_DIR, `bmf-${key}`);
  const marker = `${dir}.json`;
  if (fs.existsSync(marker) && fs.existsSync(dir)) {
    const report = JSON.parse(fs.readFileSync(marker, 'utf8')) as ImportReport;
    log(`[search] reusing imported database ${path.relative(REPO_ROOT, dir)} (${report.rowsImported} rows)`);
    return { dir, report: { ...report, cached: true, cacheDir: path.relative(REPO_ROOT, dir) } };
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-bmf-'));
  const tmpDb = path.join(tmp, 'db');
  try {
    const database = await openDatabase({ pgliteDir: tmpDb });
    let rowsRead = 0;
    let rowsImported = 0;
    const started = performance.now();
    try {
      await database.migrate();
      for (const [i, f] of files.entries()) {
        const r = await importBmf(database.db, path.join(BMF_DIR, f), { batchSize: 2000 });
        rowsRead += r.read;
        rowsImported += r.imported;
        const s = (performance.now() - started) / 1000;
        log(`[search] import ${i + 1}/${files.length} ${f}: ${r.imported} rows (${rowsImported} in ${s.toFixed(0)} s)`);
      }
    } finally {
      await database.close();
    }
    const seconds = round((performance.now() - started) / 1000, 1);
    const report: ImportReport = {
      files: files.length,
      rowsRead,
      rowsImported,
      seconds,
      rowsPerSec: Math.round(rowsImported / seconds),
      cached: false,
      cacheDir: path.relative(REPO_ROOT, dir),
    };
    // Keep one imported database only: they are large.
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    for (const old of fs.readdirSync(CACHE_DIR).filter((f) => f.startsWith('bmf-'))) {
      fs.rmSync(path.join(CACHE_DIR, old), { recursive: true, force: true });
    }
    try {
      fs.renameSync(tmpDb, dir);
    } catch {
      fs.cpSync(tmpDb, dir, { recursive: true });
    }
    fs.writeFileSync(marker, JSON.stringify(report, null, 2));
    return { dir, report };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The public search's address for a case, as the verify-501c3 page asks it. */
export const searchUrl = (c: SearchCase) =>
  `/search?${new URLSearchParams({ search: 'verify-501c3', keyword: c.keyword, page: String(c.page) })}`;

/** The plain query the page must agree with: every word as a LIKE, count, ORDER BY name, id. */
async function referencePage(database: Database, c: SearchCase): Promise<{ total: number; ids: number[] }> {
  const words = c.keyword.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  const conditions: SQL[] = [eq(accounts.isListed, true)];
  for (const w of words) conditions.push(sql`strpos(${accounts.searchText}, ${w}) > 0`);
  const where = and(...conditions);
  const [{ total }] = await database.db.select({ total: count() }).from(accounts).where(where);
  const rows = await database.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(where)
    .orderBy(asc(accounts.name), asc(accounts.id))
    .limit(SEARCH_PER_PAGE)
    .offset((c.page - 1) * SEARCH_PER_PAGE);
  return { total, ids: rows.map((r) => r.id) };
}

/** A reference answer per keyword and page, computed before the server takes the database. */
type References = Map<string, { total: number; ids: number[] }>;
const refKey = (c: { keyword: string; page: number }) => `${c.page}|${c.keyword}`;

/**
 * Writes something, as visitors do (a contact form submit), so the next search sees a new
 * database snapshot and cannot reuse its cached total.
 */
async function makeWrite(base: string, session: { cookie: string; csrfToken: string }) {
  const res = await fetch(`${base}/contact`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': session.csrfToken,
      cookie: session.cookie,
    },
    body: CONTACT_BODY,
  });
  if (res.status !== 201) throw new Error(`POST /contact answered ${res.status}: ${await res.text()}`);
}

async function timedGet(
  base: string,
  url: string,
): Promise<{ ms: number; body: { total: number; data: { id: number }[] } }> {
  const t = performance.now();
  const res = await fetch(base + url);
  const body = (await res.json()) as { total: number; data: { id: number }[] };
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return { ms, body };
}

/** Correctness pages, cold single requests and an autocannon run per case, against one server. */
async function measureState(
  state: SearchState,
  refs: References,
  server: ServerProcess,
  opts: { durationS: number; connections: number; coldSamples: number },
): Promise<SearchStateReport> {
  const base = server.base;
  const session = await openSession(base);
  // Warm-up: JIT, catalog caches and the first plans, so the first measured case is not penalised.
  // Warm-up of the fresh server process: JIT, PGlite's buffers and the first plans, so that the
  // first measured case is not the one paying for them.
  log(`[search/${state}] warm-up`);
  for (const kw of ['warm', 'up', 'booster club', ''])
    await timedGet(base, searchUrl({ keyword: kw, page: 2, class: 'any' }));
  for (const c of SEARCH_CASES) await timedGet(base, searchUrl(c));
  await runLoad({
    url: base + searchUrl({ keyword: 'booster', page: 3, class: 'selective' }),
    connections: opts.connections,
    duration: 3,
  });

  log(`[search/${state}] correctness of ${CORRECTNESS_CASES.length} more pages against the reference query`);
  const correctness: SearchStateReport['correctness'] = [];
  for (const c of CORRECTNESS_CASES) {
    const got = await timedGet(base, searchUrl({ ...c, class: 'any' }));
    const ref = refs.get(refKey(c))!;
    const correct =
      got.body.total === ref.total && JSON.stringify(got.body.data.map((d) => d.id)) === JSON.stringify(ref.ids);
    if (!correct)
      log(`[search/${state}] WRONG RESULT for '${c.keyword}' page ${c.page}: total ${got.body.total} vs ${ref.total}`);
    correctness.push({ ...c, total: ref.total, correct, ms: round(got.ms, 1) });
  }

  const cases: SearchCaseResult[] = [];
  for (const c of SEARCH_CASES) {
    const label = `'${c.keyword}' page ${c.page}`;
    const cold: number[] = [];
    let first: Awaited<ReturnType<typeof timedGet>>['body'] | undefined;
    for (let i = 0; i < opts.coldSamples; i++) {
      await makeWrite(base, session);
      const r = await timedGet(base, searchUrl(c));
      cold.push(round(r.ms, 1));
      first ??= r.body;
    }
    const ref = refs.get(refKey(c))!;
    const correct =
      !!first && first.total === ref.total && JSON.stringify(first.data.map((d) => d.id)) === JSON.stringify(ref.ids);
    if (!correct) log(`[search/${state}] WRONG RESULT for ${label}: total ${first?.total} vs ${ref.total}`);
    log(
      `[search/${state}] ${label}: ${ref.total} matches; cold ${cold.join(', ')} ms; load ${opts.connections} connections, ${opts.durationS} s`,
    );
    const load = await runLoad({ url: base + searchUrl(c), connections: opts.connections, duration: opts.durationS });
    const targetP99Ms = SEARCH_TARGETS_P99_MS[c.class];
    log(
      `[search/${state}]   ${load.reqPerSec} req/s, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms, non-2xx ${load.non2xx}`,
    );
    cases.push({
      ...c,
      total: ref.total,
      correct,
      coldMs: { samples: cold, max: Math.max(...cold) },
      load,
      targetP99Ms,
      pass: correct && load.latencyMs.p99 <= targetP99Ms && load.non2xx === 0 && load.errors === 0,
    });
  }
  const totals = {} as SearchTotals;
  for (const cls of ['selective', 'any'] as const) {
    const list = cases.filter((c) => c.class === cls);
    const requests = list.reduce((n, c) => n + c.load.requests, 0);
    totals[cls] = {
      cases: list.length,
      requests,
      reqPerSec: round(requests / list.reduce((sum, c) => sum + c.load.durationS, 0)),
      worstP50Ms: Math.max(...list.map((c) => c.load.latencyMs.p50)),
      worstP99Ms: Math.max(...list.map((c) => c.load.latencyMs.p99)),
      worstColdMs: Math.max(...list.map((c) => c.coldMs.max)),
      targetP99Ms: SEARCH_TARGETS_P99_MS[cls],
      allCorrect: list.every((c) => c.correct),
      pass: list.every((c) => c.pass),
    };
  }
  return { state, cases, correctness, totals };
}

/**
 * Subordinate search over every BMF row: import (or reuse the cached import), copy it to a temp
 * directory, then measure it as imported and again after VACUUM (ANALYZE) accounts.
 */
export async function runSearchBench(opts: {
  durationS: number;
  connections?: number;
  coldSamples?: number;
  states?: SearchState[];
  profileDir?: string;
}): Promise<SearchReport> {
  if (!fs.existsSync(BMF_DIR) || !bmfFiles().length) {
    return { skipped: `no IRS EO BMF files in ${BMF_DIR}` };
  }
  const connections = opts.connections ?? 4;
  const coldSamples = opts.coldSamples ?? 3;
  const states = opts.states ?? ['as-imported', 'vacuumed'];
  const { dir, report: importReport } = await importedDatabaseDir();

  // Work on a copy: the server writes (contact submits), and VACUUM changes the files.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-search-'));
  const copy = path.join(dataDir, 'db');
  log(`[search] copying the imported database to ${copy}`);
  fs.cpSync(dir, copy, { recursive: true });
  let server: ServerProcess | undefined;
  try {
    // The answers every page must match, from plain queries (the same rows in every state).
    log(`[search] reference answers of ${SEARCH_CASES.length + CORRECTNESS_CASES.length} pages`);
    const refs: References = new Map();
    let database: Database = await openDatabase({ pgliteDir: copy });
    try {
      await database.migrate();
      for (const c of [...SEARCH_CASES, ...CORRECTNESS_CASES])
        refs.set(refKey(c), await referencePage(database, { ...c, class: 'any' }));
    } finally {
      await database.close();
    }
    const results: SearchStateReport[] = [];
    for (const state of states) {
      if (state === 'vacuumed') {
        database = await openDatabase({ pgliteDir: copy });
        try {
          const t = performance.now();
          await database.db.execute(sql`VACUUM (ANALYZE) accounts`);
          log(`[search] VACUUM (ANALYZE) accounts took ${round((performance.now() - t) / 1000, 1)} s`);
        } finally {
          await database.close();
        }
      }
      // A fresh server process per database state: the search keeps per-database plan facts for minutes.
      server = await startServer({
        mode: 'full',
        label: `search-${state}`,
        database: { kind: 'pglite', dataDir },
        profileDir: opts.profileDir,
      });
      const report = await measureState(state, refs, server, { durationS: opts.durationS, connections, coldSamples });
      report.server = await server.stop();
      server = undefined;
      log(`[search/${state}] server peak RSS ${report.server.memory.peakRssMb} MB`);
      results.push(report);
    }
    return { import: importReport, connections, durationS: opts.durationS, states: results };
  } finally {
    await server?.stop().catch((err) => log(`stop server: ${err}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
