import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.ts';
import { pgliteBackend, postgresBackend, type Backend } from './support/backends.ts';
import { HttpClient } from './support/client.ts';
import { Load, seedForLoad } from './support/load.ts';
import { freePort, serverEnv, startServer, type ServerProcess } from './support/server.ts';
import { verify } from './support/verify.ts';

/**
 * docs/requirements/platform.md §5.10: no acknowledged write is lost when the server process is killed (kill -9) under
 * load. The real server (src/server/main.ts) takes public form submissions and card payments
 * through its gateway simulator from several clients at once; after a few seconds it is killed with
 * SIGKILL while requests are in flight, restarted on the same data, and loaded again, three times.
 * Then the database must hold every submission and payment that got a 2xx exactly once, at most
 * one copy of those that got no answer, and nothing half-written (an inquiry without its mails, a
 * paid payment without its invoice settled, an invoice settled without a payment).
 * Runs on PGlite, and also on PostgreSQL when TEST_DATABASE_URL is set (a fresh database).
 */

const CYCLES = 3;
/** How long each cycle loads the server before the kill. */
const LOAD_MS = 4_000;
const FORM_CLIENTS = 4;
const PAYERS = 6;
const INVOICES_EACH = 300;
const ADMIN = { email: 'admin@durability.test', password: 'Durable-admin-pass-1' };

/** Waits until `condition` holds. @throws with `what()` after `timeoutMs` */
async function until(condition: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  if (!(await waitFor(condition, timeoutMs))) throw new Error(`Timed out waiting: ${what()}`);
}

const backends: { label: string; make: () => Promise<Backend> }[] = [
  { label: 'PGlite', make: async () => pgliteBackend() },
  ...(process.env.TEST_DATABASE_URL
    ? [{ label: 'PostgreSQL', make: () => postgresBackend(process.env.TEST_DATABASE_URL!) }]
    : []),
];

describe.each(backends)('the server killed with SIGKILL under load ($label)', ({ make }) => {
  let backend: Backend | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.killHard();
    await backend?.cleanup();
  });

  it(`keeps every answered submission and payment exactly once and nothing half-written, over ${CYCLES} kills`, async () => {
    backend = await make();
    const seeding = await backend.open();
    await seeding.migrate();
    const payers = await seedForLoad(seeding.db, { payers: PAYERS, invoicesEach: INVOICES_EACH, admin: ADMIN });
    await seeding.close();

    const runId = randomBytes(3).toString('hex');
    const load = new Load(runId);
    const port = await freePort();
    const env = serverEnv(port, backend.env);
    const cycles: { forms: number; payments: number; inFlightAtKill: number; unanswered: number }[] = [];

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      // After a kill the lock left behind names a dead process: the restart must take it over.
      server = await startServer(port, env);
      if (backend.lockFile) expect(fs.readFileSync(backend.lockFile, 'utf8').split(' ')[0]).toBe(String(server.pid));

      let stopped = false;
      const stop = () => stopped;
      const base = server.baseUrl;
      const workers = [
        ...Array.from({ length: FORM_CLIENTS }, (_, w) => load.formWorker(base, cycle, w, stop)),
        ...payers.map((payer) => load.paymentWorker(base, cycle, payer, stop)),
      ];
      const started = Date.now();
      const answered = (kind: 'forms' | 'payments') =>
        load[kind].filter((a) => a.cycle === cycle && typeof a.outcome === 'number').length;
      await until(
        () => Date.now() - started >= LOAD_MS && answered('forms') >= 20 && answered('payments') >= 5,
        120_000,
        () =>
          `load in cycle ${cycle}: ${answered('forms')} forms and ${answered('payments')} payments answered\n${server!.output}`,
      );
      const inFlightAtKill = load.inFlight;
      await server.killHard();
      stopped = true;
      await Promise.all(workers);
      expect(server.stderr, 'the server wrote errors under load').toBe('');
      cycles.push({
        forms: answered('forms'),
        payments: answered('payments'),
        inFlightAtKill,
        unanswered: [...load.forms, ...load.payments].filter((a) => a.cycle === cycle && a.outcome === 'no answer')
          .length,
      });
      // The kill must land mid-request, or it proves nothing.
      expect(inFlightAtKill).toBeGreaterThan(0);
    }

    // The data opens after the last kill, the server serves, and stops cleanly.
    server = await startServer(port, env);
    const visitor = await new HttpClient(server.baseUrl).start();
    const email = `dur-${runId}-after-restart@example.com`;
    const last = await visitor.request('POST', '/contact', {
      name: 'Last Visitor',
      email,
      subject: 'Renewals',
      message: 'Sent after the last restart.',
    });
    expect(last.status).toBe(201);
    load.forms.push({ cycle: CYCLES + 1, path: '/contact', email, outcome: 201, id: (last.body as { id: number }).id });
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    if (backend.lockFile) expect(fs.existsSync(backend.lockFile)).toBe(false);

    const database = await backend.open();
    const { findings, tally } = await verify(database.db, load.forms, load.payments, `dur-${runId}`);
    await database.close();
    console.log(`[durability ${backend.label}] ${JSON.stringify({ cycles, tally })}`);

    // Every answer under load was a success: a refusal or a 5xx is a fault too.
    expect(load.forms.filter((a) => typeof a.outcome === 'number' && a.outcome !== 201)).toEqual([]);
    expect(
      load.payments.filter((a) => typeof a.outcome === 'number' && a.outcome !== 200 && a.outcome !== 202),
    ).toEqual([]);
    expect(findings).toEqual({
      acknowledgedFormsNotOnce: [],
      unansweredFormsDoubled: [],
      inquiriesWithoutTheirMails: [],
      orphanMails: [],
      strayInquiries: [],
      acknowledgedPaymentsNotOnce: [],
      acceptedPaymentsWrong: [],
      unansweredPaymentsDoubled: [],
      invoicesInconsistent: [],
      paymentsHalfWritten: [],
      strayPayments: [],
    });
    expect(tally.acknowledgedForms).toBeGreaterThanOrEqual(CYCLES * 20);
    expect(tally.acknowledgedPayments).toBeGreaterThanOrEqual(CYCLES * 5);
  });
});
