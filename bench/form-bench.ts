import { count } from 'drizzle-orm';
import { inquiries, mailOutbox } from '../src/server/db/schema.ts';
import { MAX_ACKS_PER_ADDRESS_PER_DAY } from '../src/server/modules/inquiries/create-inquiry.ts';
import { freshDatabase, openSession, type BenchDatabase, type DbKind } from './lib/apps.ts';
import { log, round, runLoad, type LoadSummary } from './lib/load.ts';
import { startServer, withCpu, type ServerProcess, type ServerStats } from './lib/server-process.ts';

/** The contact form (docs/requirements/product.md tool 7) as the web client posts it. */
export const CONTACT_BODY = JSON.stringify({
  name: 'Bench Tester',
  email: 'bench.tester@example.com',
  organization: 'Bench High School Boosters',
  subject: 'General question',
  message: 'How do we keep our booster club in good standing after we change treasurers mid-year?',
});

/** One load run plus the CPU both sides used during it (% of one core). */
type MeasuredLoad = LoadSummary & { cpu: { serverPct: number; loadGeneratorPct: number; wallS: number } };

export interface FormPairResult {
  database: DbKind;
  /** RATE_LIMIT_STORE given to the full server ('default': the product's default for the database). */
  rateLimitStore: 'memory' | 'database' | 'default';
  connections: number;
  durationS: number;
  full: MeasuredLoad;
  bare: MeasuredLoad;
  /** full req/s divided by bare req/s. */
  ratio: number;
  /** Rows found afterwards; each acknowledged submit must have written 1 inquiry + 2 mails. */
  rowsCheck: { fullInquiries: number; fullMails: number; full2xxIncludingWarmup: number; ok: boolean };
  /** Each server process: memory (peak RSS), log lines, CPU profile summary when asked for. */
  servers: { full: ServerStats; bare: ServerStats };
  targets: Record<string, number>;
  pass: Record<string, boolean>;
}

/**
 * The request headers of `count` visitors posting a form to the server at `base`, one per load
 * connection: each a session of its own (cookie and CSRF token, as the page load gives them) and an
 * address of its own, passed by the local proxy the server trusts. One address for all would make
 * every submit count against one rate-limit key.
 */
export async function formVisitors(base: string, count: number): Promise<Record<string, string>[]> {
  const visitors: Record<string, string>[] = [];
  for (let i = 0; i < count; i++) {
    const session = await openSession(base);
    visitors.push({
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': session.csrfToken,
      cookie: session.cookie,
      'x-forwarded-for': `198.51.${100 + Math.floor(i / 250)}.${1 + (i % 250)}`,
    });
  }
  return visitors;
}

async function expectCreated(base: string, headers: Record<string, string>, label: string) {
  const res = await fetch(`${base}/contact`, { method: 'POST', headers, body: CONTACT_BODY });
  if (res.status !== 201) throw new Error(`${label} POST /contact answered ${res.status}: ${await res.text()}`);
}

/**
 * Runs the form-submit pair on one database kind: the full product and the bare route, each a
 * server child process (bench/server.ts) on its own fresh database, warmed up, then loaded at
 * `connections` for `durationS` seconds each from this process (order alternating per round; the
 * best round of each is kept). Each connection is one visitor with its own session and address.
 * Afterwards every acknowledged submit must be in the database.
 * @param profileDir write a CPU profile of each server there (node --cpu-prof)
 * @param rateLimitStore RATE_LIMIT_STORE of the full server; the product's default when absent
 *   (in memory on PGlite, the rate_limits table on PostgreSQL)
 */
export async function runFormPair(opts: {
  kind: DbKind;
  url?: string;
  durationS: number;
  connections?: number;
  rounds?: number;
  profileDir?: string;
  rateLimitStore?: 'memory' | 'database';
}): Promise<FormPairResult> {
  const connections = opts.connections ?? 50;
  const rounds = opts.rounds ?? 1;
  const dbs: BenchDatabase[] = [];
  const servers: ServerProcess[] = [];
  try {
    log(`[form/${opts.kind}] preparing databases`);
    const fullDb = await freshDatabase(opts.kind, 'form-full', opts.url);
    dbs.push(fullDb);
    const bareDb = await freshDatabase(opts.kind, 'form-bare', opts.url);
    dbs.push(bareDb);
    log(`[form/${opts.kind}] starting the server processes`);
    const full = await startServer({
      mode: 'full',
      label: `form-${opts.kind}-full`,
      database: fullDb.server,
      profileDir: opts.profileDir,
      env: opts.rateLimitStore ? { RATE_LIMIT_STORE: opts.rateLimitStore } : undefined,
    });
    servers.push(full);
    const bare = await startServer({
      mode: 'bare',
      label: `form-${opts.kind}-bare`,
      database: bareDb.server,
      profileDir: opts.profileDir,
    });
    servers.push(bare);

    const visitors = await formVisitors(full.base, connections);
    // The bare route reads none of these; it gets the same bytes.
    await expectCreated(full.base, visitors[0], 'full app');
    await expectCreated(bare.base, visitors[0], 'bare app');

    const load = async (which: 'full' | 'bare', duration: number): Promise<MeasuredLoad> => {
      const server = which === 'full' ? full : bare;
      const { result, cpu } = await withCpu(server, () =>
        runLoad({
          url: `${server.base}/contact`,
          method: 'POST',
          perConnectionHeaders: visitors,
          body: CONTACT_BODY,
          connections,
          duration,
        }),
      );
      return { ...result, cpu };
    };

    // Long enough for the JIT to settle on the full stack's larger code path.
    const warmupS = Math.min(5, opts.durationS);
    log(`[form/${opts.kind}] warm-up ${warmupS} s each`);
    const warm = { full: await load('full', warmupS), bare: await load('bare', warmupS) };

    const results: { full: MeasuredLoad[]; bare: MeasuredLoad[] } = { full: [], bare: [] };
    for (let r = 0; r < rounds; r++) {
      const order: ('full' | 'bare')[] = r % 2 === 0 ? ['full', 'bare'] : ['bare', 'full'];
      for (const which of order) {
        log(
          `[form/${opts.kind}] ${which} stack: ${connections} connections, ${opts.durationS} s${rounds > 1 ? ` (round ${r + 1})` : ''}`,
        );
        const s = await load(which, opts.durationS);
        log(
          `[form/${opts.kind}]   ${s.reqPerSec} req/s, p50 ${s.latencyMs.p50} ms, p99 ${s.latencyMs.p99} ms, non-2xx ${s.non2xx}, errors ${s.errors}; CPU server ${s.cpu.serverPct} %, load generator ${s.cpu.loadGeneratorPct} %`,
        );
        results[which].push(s);
      }
    }
    const best = (list: MeasuredLoad[]) => list.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
    const fullBest = best(results.full);
    const bareBest = best(results.bare);

    const fullStats = await full.stop();
    const bareStats = await bare.stop();
    servers.length = 0;
    log(`[form/${opts.kind}]   peak RSS full ${fullStats.memory.peakRssMb} MB, bare ${bareStats.memory.peakRssMb} MB`);

    const check = await fullDb.open();
    let fullInquiries: number;
    let fullMails: number;
    try {
      [{ n: fullInquiries }] = await check.db.select({ n: count() }).from(inquiries);
      [{ n: fullMails }] = await check.db.select({ n: count() }).from(mailOutbox);
    } finally {
      await check.close();
    }
    const full2xx =
      1 + (warm.full.statusCodes['201'] ?? 0) + results.full.reduce((n, s) => n + (s.statusCodes['201'] ?? 0), 0);

    const ratio = round(fullBest.reqPerSec / bareBest.reqPerSec, 3);
    const targets: Record<string, number> =
      opts.kind === 'pglite'
        ? { ratioMin: 0.6, fullP99MaxMs: 50 }
        : { ratioMin: 0.6, fullReqPerSecMin: 3000, fullP99MaxMs: 30 };
    const noErrors = fullBest.non2xx + fullBest.errors === 0;
    const pass: Record<string, boolean> =
      opts.kind === 'pglite'
        ? { ratio: ratio >= 0.6, fullP99: fullBest.latencyMs.p99 <= 50, noErrors }
        : {
            ratio: ratio >= 0.6,
            fullReqPerSec: fullBest.reqPerSec >= 3000,
            fullP99: fullBest.latencyMs.p99 <= 30,
            noErrors,
          };
    return {
      database: opts.kind,
      rateLimitStore: opts.rateLimitStore ?? 'default',
      connections,
      durationS: opts.durationS,
      full: fullBest,
      bare: bareBest,
      ratio,
      rowsCheck: {
        fullInquiries,
        fullMails,
        full2xxIncludingWarmup: full2xx,
        // Every acknowledged (201) submit is in the table; a request cut off at the end of a run may add one more.
        // Each has its staff notice; the one sender address gets at most MAX_ACKS_PER_ADDRESS_PER_DAY acknowledgements.
        ok:
          fullInquiries >= full2xx &&
          fullInquiries <= full2xx + connections * (rounds + 1) &&
          fullMails === fullInquiries + Math.min(fullInquiries, MAX_ACKS_PER_ADDRESS_PER_DAY),
      },
      servers: { full: fullStats, bare: bareStats },
      targets,
      pass,
    };
  } finally {
    for (const s of servers.reverse()) await s.stop().catch((err) => log(`stop server: ${err}`));
    for (const d of dbs.reverse()) await d.dispose().catch((err) => log(`dispose ${d.where}: ${err}`));
  }
}
