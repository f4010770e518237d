import Fastify, { type FastifyInstance } from 'fastify';
import { count } from 'drizzle-orm';
import type { Database } from '../src/server/db/client.ts';
import { inquiries, mailOutbox } from '../src/server/db/schema.ts';
import { createInquiry } from '../src/server/modules/inquiries/create-inquiry.ts';
import { freshDatabase, listenFullApp, listenLocal, openSession, type BenchDatabase, type DbKind } from './lib/apps.ts';
import { log, round, runLoad, type LoadSummary } from './lib/load.ts';

/** The contact form (SPEC tool 7) as the web client posts it. */
export const CONTACT_BODY = JSON.stringify({
  name: 'Bench Tester',
  email: 'bench.tester@example.com',
  organization: 'Bench High School Boosters',
  subject: 'General question',
  message: 'How do we keep our booster club in good standing after we change treasurers mid-year?',
});

export interface FormPairResult {
  database: DbKind;
  connections: number;
  durationS: number;
  full: LoadSummary;
  bare: LoadSummary;
  /** full req/s divided by bare req/s. */
  ratio: number;
  /** Rows found afterwards; each acknowledged submit must have written 1 inquiry + 2 mails. */
  rowsCheck: { fullInquiries: number; fullMails: number; full2xxIncludingWarmup: number; ok: boolean };
  targets: Record<string, number>;
  pass: Record<string, boolean>;
}

/**
 * The bare baseline: Fastify with no plugins, one route doing the same write as the full stack
 * (createInquiry: one inquiries row and two mail_outbox rows in a transaction). No session, CSRF,
 * validation, rate limit, helmet or logging.
 */
async function listenBareApp(database: Database): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ logger: false });
  const mail = { staffEmail: 'staff@goodstanding.local', companyName: 'GoodStanding', publicUrl: 'http://localhost:3000' };
  app.post('/contact', async (req, reply) => {
    const b = req.body as Record<string, string>;
    const id = await createInquiry(database.db, 'contact', {
      name: b.name, email: b.email, organization: b.organization, details: { subject: b.subject, message: b.message },
    }, req.ip, mail);
    return reply.status(201).send({ id, message: "Your message has been received. We'll get back with you shortly." });
  });
  return { app, base: await listenLocal(app) };
}

async function expectCreated(base: string, headers: Record<string, string>, label: string) {
  const res = await fetch(`${base}/contact`, { method: 'POST', headers, body: CONTACT_BODY });
  if (res.status !== 201) throw new Error(`${label} POST /contact answered ${res.status}: ${await res.text()}`);
}

/**
 * Runs the form-submit pair on one database kind: the full app and the bare route, each on its own
 * fresh database, both listening in this process, warmed up, then loaded at `connections` for
 * `durationS` seconds each (order alternating per round; the best round of each is kept).
 */
export async function runFormPair(opts: { kind: DbKind; url?: string; durationS: number; connections?: number; rounds?: number }): Promise<FormPairResult> {
  const connections = opts.connections ?? 50;
  const rounds = opts.rounds ?? 1;
  const dbs: BenchDatabase[] = [];
  const apps: FastifyInstance[] = [];
  try {
    log(`[form/${opts.kind}] opening databases`);
    const fullDb = await freshDatabase(opts.kind, 'full', opts.url);
    dbs.push(fullDb);
    const bareDb = await freshDatabase(opts.kind, 'bare', opts.url);
    dbs.push(bareDb);
    const full = await listenFullApp(fullDb.database);
    apps.push(full.app);
    const bare = await listenBareApp(bareDb.database);
    apps.push(bare.app);

    const session = await openSession(full.base);
    const fullHeaders = {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': session.csrfToken,
      cookie: session.cookie,
    };
    const bareHeaders = { 'content-type': 'application/json' };
    await expectCreated(full.base, fullHeaders, 'full app');
    await expectCreated(bare.base, bareHeaders, 'bare app');

    const load = (which: 'full' | 'bare', duration: number) =>
      runLoad({
        url: `${which === 'full' ? full.base : bare.base}/contact`,
        method: 'POST',
        headers: which === 'full' ? fullHeaders : bareHeaders,
        body: CONTACT_BODY,
        connections,
        duration,
      });

    const warmupS = Math.min(2, opts.durationS);
    log(`[form/${opts.kind}] warm-up ${warmupS} s each`);
    const warm = { full: await load('full', warmupS), bare: await load('bare', warmupS) };

    const results: { full: LoadSummary[]; bare: LoadSummary[] } = { full: [], bare: [] };
    for (let r = 0; r < rounds; r++) {
      const order: ('full' | 'bare')[] = r % 2 === 0 ? ['full', 'bare'] : ['bare', 'full'];
      for (const which of order) {
        log(`[form/${opts.kind}] ${which} stack: ${connections} connections, ${opts.durationS} s${rounds > 1 ? ` (round ${r + 1})` : ''}`);
        const s = await load(which, opts.durationS);
        log(`[form/${opts.kind}]   ${s.reqPerSec} req/s, p99 ${s.latencyMs.p99} ms, non-2xx ${s.non2xx}, errors ${s.errors}`);
        results[which].push(s);
      }
    }
    const best = (list: LoadSummary[]) => list.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
    const fullBest = best(results.full);
    const bareBest = best(results.bare);

    const [{ n: fullInquiries }] = await fullDb.database.db.select({ n: count() }).from(inquiries);
    const [{ n: fullMails }] = await fullDb.database.db.select({ n: count() }).from(mailOutbox);
    const full2xx = 1 + (warm.full.statusCodes['201'] ?? 0) + results.full.reduce((n, s) => n + (s.statusCodes['201'] ?? 0), 0);

    const ratio = round(fullBest.reqPerSec / bareBest.reqPerSec, 3);
    const targets: Record<string, number> = opts.kind === 'pglite'
      ? { ratioMin: 0.6, fullP99MaxMs: 50 }
      : { fullReqPerSecMin: 3000, fullP99MaxMs: 30 };
    const pass: Record<string, boolean> = opts.kind === 'pglite'
      ? { ratio: ratio >= 0.6, fullP99: fullBest.latencyMs.p99 <= 50, noErrors: fullBest.non2xx + fullBest.errors === 0 }
      : { fullReqPerSec: fullBest.reqPerSec >= 3000, fullP99: fullBest.latencyMs.p99 <= 30, noErrors: fullBest.non2xx + fullBest.errors === 0 };
    return {
      database: opts.kind,
      connections,
      durationS: opts.durationS,
      full: fullBest,
      bare: bareBest,
      ratio,
      rowsCheck: {
        fullInquiries, fullMails, full2xxIncludingWarmup: full2xx,
        // Every acknowledged (201) submit is in the table; a request cut off at the end of a run may add one more.
        ok: fullInquiries >= full2xx && fullMails === 2 * fullInquiries,
      },
      targets,
      pass,
    };
  } finally {
    for (const app of apps.reverse()) await app.close().catch((err) => log(`close app: ${err}`));
    for (const d of dbs.reverse()) await d.dispose().catch((err) => log(`dispose ${d.where}: ${err}`));
  }
}
