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
 * 3. Checks LOOKUPS random organizations (default 2,000) as the instant check does (the BMF
 *    release creates no account: checkOrganization by EIN, docs/irs-standing.md "Instant check"),
 *    against a bare baseline in the same run: the same irs_organizations row read by its EIN.
 * Sends the report to the parent over IPC (or prints it).
 *
 * The staff work queue part runs on its own (`npm run bench -- --only standing --standing-part
 * queue` skips the refresh above; `--standing-part all`, the default, runs both):
 *
 *   sh scripts/serve.sh bench/standing-bench.ts queue DIR ITEMS ROUNDS
 *
 * 4. Fills a fresh embedded database with ITEMS work items (default 10,000) over 2,000 accounts,
 *    every kind, 80% open, a third assigned, then pages the list as the staff page does
 *    (listWorkItems: counts per kind and one page) ROUNDS times (default 300) per case — first
 *    page, a deep page, filtered by kind and assignee, sorted by account name — each beside the
 *    bare SELECT of the same 25 rows (same WHERE, ORDER BY, OFFSET; no joins, no counts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client.ts';
import { rowsOf } from '../src/server/db/rows-of.ts';
import { accounts as accountsTable, irsOrganizations, users, workItems } from '../src/server/db/schema.ts';
import { collectStartupGarbage } from '../src/server/memory.ts';
import { checkOrganization } from '../src/server/modules/irs-data/check-organization.ts';
import { BMF_HEADER, type IrsDataset } from '../src/server/modules/irs-data/irs-files.ts';
import { loadIrsRelease } from '../src/server/modules/irs-data/load-release.ts';
import { listWorkItems } from '../src/server/modules/work-queue/list-work-items.ts';
import { WORK_ITEM_KINDS, WORK_QUEUE_PER_PAGE, workQueueQuery } from '../src/shared/schemas/work-queue.ts';
import { log, percentile, round } from './lib/load.ts';

/** The targets of docs/benchmarks.md. */
const STANDING_TARGETS = { refreshPeakRssMaxMb: 1024, standingMedianMaxMs: 5, queuePageP99MaxMs: 100 };

const SHARED_BMF = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
  '..',
  'shared',
  'data',
  'irs-eo-bmf',
);

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
  const files = fs
    .readdirSync(SHARED_BMF)
    .filter((f) => f.endsWith('.csv'))
    .sort();
  if (!files.length) throw new Error(`No BMF extracts in ${SHARED_BMF}`);
  let given = 0;
  for (;;) {
    for (const f of files) {
      const lines = readline.createInterface({
        input: fs.createReadStream(path.join(SHARED_BMF, f)),
        crlfDelay: Infinity,
      });
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
async function writeFiles(
  dir: string,
  rows: number,
): Promise<{ bmf: string[]; epostcard: string; revocations: string }> {
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
    if (n % (Math.floor(rows / 10_000) || 1) === 1)
      revoked.push(`${ein}|BENCH ORGANIZATION||1 MAIN ST|ANYTOWN|OK|73501|US|03|15-MAY-2025|12-AUG-2025|`);
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
  return {
    median: round(percentile(values, 50), 3),
    p95: round(percentile(values, 95), 3),
    p99: round(percentile(values, 99), 3),
  };
}

/**
 * Step 1, in its own process: the files, and the empty database created and migrated (creating a
 * cluster takes far more memory than a server that opens one, so it stays out of the measure).
 */
async function prepareStandingBench(dir: string, rows: number): Promise<void> {
  log(`[standing] writing ${rows.toLocaleString('en-US')} BMF rows, the 990-N data and the revocation list`);
  const files = await writeFiles(dir, rows);
  fs.writeFileSync(path.join(dir, 'files.json'), JSON.stringify(files));
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db'), pgliteSharedBuffersMb: 32 });
  await database.migrate();
  await database.close();
}

/** Steps 2 and 3, in a process started as the server is (scripts/serve.sh): returns the report. */
async function measureStandingBench(dir: string, rows: number, lookups: number): Promise<StandingBenchReport> {
  const files = JSON.parse(fs.readFileSync(path.join(dir, 'files.json'), 'utf8')) as Awaited<
    ReturnType<typeof writeFiles>
  >;
  // As the server opens it (PGLITE_SHARED_BUFFERS_MB's default, docs/operations.md "Memory").
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db'), pgliteSharedBuffersMb: 32 });
  await database.migrate();
  collectStartupGarbage();
  // The peak from here on is the refresh's.
  fs.writeFileSync('/proc/self/clear_refs', '5');
  const rssBeforeMb = round(status().VmRSS, 1);
  const loaded: StandingBenchReport['files'] = [];
  const start = performance.now();
  const plan: [IrsDataset, string][] = [
    ...files.bmf.map((f) => ['bmf', f] as [IrsDataset, string]),
    ['epostcard', files.epostcard],
    ['revocations', files.revocations],
  ];
  for (const [dataset, file] of plan) {
    const t0 = performance.now();
    const r = await loadIrsRelease(database.db, { dataset, file, releasedOn: '2026-11-10', batchSize: 2000 });
    loaded.push({
      file: path.basename(file),
      dataset,
      rows: r.rows,
      loaded: r.loaded,
      seconds: round((performance.now() - t0) / 1000, 1),
    });
    log(
      `[standing]   ${path.basename(file)}: ${r.loaded.toLocaleString('en-US')} of ${r.rows.toLocaleString('en-US')} rows in ${loaded.at(-1)!.seconds} s, peak ${round(status().VmHWM, 0)} MB`,
    );
  }
  const refresh = {
    seconds: round((performance.now() - start) / 1000, 1),
    peakRssMb: round(status().VmHWM, 1),
    rssBeforeMb,
  };

  // A BMF release creates no account (docs/irs-data.md "IRS facts"): the lookups are the instant
  // check of random organizations by EIN, as the compliance check page asks it.
  const sample = await rowsOf<{ ein: string }>(
    database.db,
    sql`SELECT ein FROM irs_organizations TABLESAMPLE SYSTEM (1) LIMIT ${lookups}`,
  );
  const eins = Array.from({ length: lookups }, (_, i) => sample[i % Math.max(1, sample.length)]?.ein ?? '000000000');
  const today = '2026-11-25';
  const standing: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < eins.length; i++) {
    const ein = eins[i];
    const timeStanding = async () => {
      const t0 = performance.now();
      await checkOrganization(database.db, ein, today);
      standing.push(performance.now() - t0);
    };
    const timeBare = async () => {
      const t0 = performance.now();
      await database.db.select().from(irsOrganizations).where(eq(irsOrganizations.ein, ein));
      bare.push(performance.now() - t0);
    };
    // Alternate which goes first, so neither always finds the page the other just read.
    if (i % 2) {
      await timeStanding();
      await timeBare();
    } else {
      await timeBare();
      await timeStanding();
    }
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
    pass: {
      refreshPeakRss: refresh.peakRssMb <= STANDING_TARGETS.refreshPeakRssMaxMb,
      standingMedian: standingMs.median <= STANDING_TARGETS.standingMedianMaxMs,
    },
  };
}

/** One case of the work queue part: the list's p99 beside the bare query's. */
interface WorkQueueCase {
  name: string;
  query: Record<string, string>;
  rows: number;
  total: number;
  listMs: { median: number; p95: number; p99: number };
  bareMs: { median: number; p95: number; p99: number };
  pass: boolean;
}

export interface WorkQueueBenchReport {
  items: number;
  accounts: number;
  rounds: number;
  seedSeconds: number;
  cases: WorkQueueCase[];
  targetP99Ms: number;
  pass: boolean;
}

/**
 * Step 4, in a process started as the server is: `items` work items in a fresh database in `dir`,
 * then each case's list page (listWorkItems) and its bare SELECT, `rounds` times each, alternating
 * which goes first. Requirement: docs/benchmarks.md "Staff work queue".
 */
async function measureWorkQueueBench(dir: string, items = 10_000, rounds = 300): Promise<WorkQueueBenchReport> {
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db'), pgliteSharedBuffersMb: 32 });
  await database.migrate();
  const db = database.db;
  const seedStart = performance.now();
  const accountCount = 2_000;
  const names = ['Eagles', 'Tigers', 'Bears', 'Hawks', 'Lions', 'Wolves', 'Falcons', 'Panthers'];
  for (let i = 0; i < accountCount; i += 1000) {
    await db.insert(accountsTable).values(
      Array.from({ length: 1000 }, (_, j) => {
        const n = i + j;
        return {
          name: `${names[n % names.length].toUpperCase()} BOOSTER CLUB ${n}`,
          ein: String(910_000_000 + n),
          gen: '5271',
          source: 'irs-bmf',
          isListed: true,
        };
      }),
    );
  }
  const staff = await db
    .insert(users)
    .values(
      [1, 2, 3].map((n) => ({
        email: `queue.staff${n}@bench.test`,
        passwordHash: 'x',
        isAdmin: true,
        firstName: `Staff ${n}`,
      })),
    )
    .returning({ id: users.id });
  const [{ min }] = await db.select({ min: sql<number>`min(${accountsTable.id})::int` }).from(accountsTable);
  const start = Date.now() - items * 60_000;
  for (let i = 0; i < items; i += 1000) {
    await db.insert(workItems).values(
      Array.from({ length: Math.min(1000, items - i) }, (_, j) => {
        const n = i + j;
        const kind = WORK_ITEM_KINDS[n % WORK_ITEM_KINDS.length];
        const at = new Date(start + n * 60_000);
        return {
          key: `${kind}:bench:${n}`,
          kind,
          accountId: min + (n % accountCount),
          ein: String(910_000_000 + (n % accountCount)),
          details: { gen: '5271' },
          status: n % 5 === 0 ? ('resolved' as const) : ('open' as const),
          assignedTo: n % 3 === 0 ? staff[n % staff.length].id : null,
          createdAt: at,
          updatedAt: at,
        };
      }),
    );
  }
  await database.db.execute(sql`VACUUM (ANALYZE) work_items`);
  await database.db.execute(sql`VACUUM (ANALYZE) accounts`);
  const seedSeconds = round((performance.now() - seedStart) / 1000, 1);
  const open = Math.round(items * 0.8);
  const deepPage = Math.ceil(open / WORK_QUEUE_PER_PAGE);
  const actorId = staff[0].id;
  const cases: { name: string; query: Record<string, string>; bare: ReturnType<typeof sql> }[] = [
    {
      name: 'first page (open, oldest first)',
      query: {},
      bare: sql`SELECT * FROM work_items WHERE status = 'open' ORDER BY created_at, id LIMIT 25`,
    },
    {
      name: `deep page ${deepPage}`,
      query: { page: String(deepPage) },
      bare: sql`SELECT * FROM work_items WHERE status = 'open' ORDER BY created_at, id LIMIT 25 OFFSET ${(deepPage - 1) * 25}`,
    },
    {
      name: 'filtered: kind and assignee',
      query: { kind: 'left_roster', assignee: String(actorId) },
      bare: sql`SELECT * FROM work_items WHERE status = 'open' AND assigned_to = ${actorId} AND kind = 'left_roster' ORDER BY created_at, id LIMIT 25`,
    },
    {
      name: 'sorted by account, page 10',
      query: { sort: 'account', page: '10' },
      bare: sql`SELECT w.* FROM work_items w LEFT JOIN accounts a ON a.id = w.account_id WHERE w.status = 'open' ORDER BY a.name, w.id LIMIT 25 OFFSET 225`,
    },
  ];
  const out: WorkQueueCase[] = [];
  for (const c of cases) {
    const q = workQueueQuery.parse(c.query);
    const list: number[] = [];
    const bare: number[] = [];
    let rows = 0;
    let total = 0;
    for (let i = 0; i < rounds + 20; i++) {
      const timeList = async () => {
        const t0 = performance.now();
        const page = await listWorkItems(db, q, actorId);
        list.push(performance.now() - t0);
        rows = page.data.length;
        total = page.total;
      };
      const timeBare = async () => {
        const t0 = performance.now();
        await db.execute(c.bare);
        bare.push(performance.now() - t0);
      };
      if (i % 2) {
        await timeList();
        await timeBare();
      } else {
        await timeBare();
        await timeList();
      }
    }
    // The first 20 of each warm the JIT and the page cache.
    const listMs = msStats(list.slice(20));
    out.push({
      name: c.name,
      query: c.query,
      rows,
      total,
      listMs,
      bareMs: msStats(bare.slice(20)),
      pass: listMs.p99 <= STANDING_TARGETS.queuePageP99MaxMs,
    });
    log(
      `[standing] queue ${c.name}: list p99 ${listMs.p99} ms, bare p99 ${out.at(-1)!.bareMs.p99} ms (${rows} rows of ${total})`,
    );
  }
  await database.close();
  return {
    items,
    accounts: accountCount,
    rounds,
    seedSeconds,
    cases: out,
    targetP99Ms: STANDING_TARGETS.queuePageP99MaxMs,
    pass: out.every((c) => c.pass),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [mode, dir, rows, lookups] = process.argv.slice(2);
  const send = (report: unknown) => {
    if (process.send) process.send({ report });
    else console.log(JSON.stringify(report, null, 2));
  };
  const done =
    mode === 'prepare'
      ? prepareStandingBench(dir, Number(rows)).then(() => undefined)
      : mode === 'queue'
        ? measureWorkQueueBench(dir, Number(rows), Number(lookups)).then(send)
        : measureStandingBench(dir, Number(rows), Number(lookups)).then(send);
  done.then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
