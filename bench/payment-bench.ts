import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { count, countDistinct, eq, sql } from 'drizzle-orm';
import { accounts, invoiceLines, invoices, paymentInvoices, payments, users } from '../src/server/db/schema.ts';
import { hashPassword } from '../src/server/passwords.ts';
import { freshDatabase, signIn, type BenchDatabase, type DbKind } from './lib/apps.ts';
import { log, round, summarize, type LoadSummary } from './lib/load.ts';
import { startServer, withCpu, type ServerProcess, type ServerStats } from './lib/server-process.ts';
import type { Database } from '../src/server/db/client.ts';

/** Every invoice is a $50.00 state filing service fee, like the demo's. */
const INVOICE_CENTS = 5_000;
const PAYER_PASSWORD = 'Bench-payer-pass-1';
const NEXT_YEAR = String(new Date().getFullYear() + 1);

export interface PaymentBenchResult {
  database: DbKind;
  connections: number;
  /** Accounts paying (each with its own signed-in user); the invoices are spread over them. */
  payers: number;
  /** Opaque data obtained from the simulator's tokenizer before the timed run (as Accept.js does in the browser). */
  tokenize: { tokens: number; seconds: number; perSec: number };
  warmup: LoadSummary;
  load: LoadSummary & { cpu: { serverPct: number; loadGeneratorPct: number; wallS: number } };
  /**
   * Read from the database afterwards: every payment answered 200 is one `paid` row for its own
   * invoice (one payment_invoices row, balance 0, its own gateway transaction id), and nothing
   * else was written (no declined, failed or pending rows, no invoice paid twice).
   */
  recorded: {
    answered200: number;
    paymentRows: number;
    paidRows: number;
    otherRows: number;
    distinctKeys: number;
    distinctTransIds: number;
    paidInvoices: number;
    paymentInvoiceRows: number;
    invoicesPaidTwice: number;
    exactlyOnce: boolean;
  };
  server: ServerStats;
}

interface PreparedPayment {
  headers: Record<string, string>;
  body: string;
}

/** Payer accounts, each with one user, and `invoices` unpaid invoices spread over them. */
async function preparePayers(
  database: Database,
  payers: number,
  invoiceCount: number,
): Promise<{ emails: string[]; invoicesByAccount: Map<number, number[]> }> {
  const passwordHash = await hashPassword(PAYER_PASSWORD);
  const emails: string[] = [];
  const accountIds: number[] = [];
  for (let i = 0; i < payers; i++) {
    const name = `Bench Payer Boosters ${i + 1}`;
    const [a] = await database.db
      .insert(accounts)
      .values({ name, legalName: name, searchText: name.toLowerCase(), isListed: false })
      .returning({ id: accounts.id });
    const email = `payer${i + 1}@bench.test`;
    await database.db
      .insert(users)
      .values({ email, passwordHash, accountId: a.id, firstName: 'Bench', lastName: `Payer ${i + 1}` });
    emails.push(email);
    accountIds.push(a.id);
  }
  const invoicesByAccount = new Map<number, number[]>(accountIds.map((id) => [id, []]));
  const BATCH = 500;
  for (let start = 0; start < invoiceCount; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, invoiceCount - start) }, (_, k) => ({
      accountId: accountIds[(start + k) % payers],
      number: `BENCH-${start + k + 1}`,
      valueCents: INVOICE_CENTS,
      balanceCents: INVOICE_CENTS,
    }));
    const ids = await database.db
      .insert(invoices)
      .values(rows)
      .returning({ id: invoices.id, accountId: invoices.accountId });
    await database.db.insert(invoiceLines).values(
      ids.map((r) => ({
        invoiceId: r.id,
        label: 'State filing service fee',
        type: 'service_fee',
        valueCents: INVOICE_CENTS,
      })),
    );
    for (const r of ids) invoicesByAccount.get(r.accountId)!.push(r.id);
  }
  return { emails, invoicesByAccount };
}

/** Tokenizes a test card at the simulator the way the billing page's Accept.js does, `n` times, `parallel` at once. */
async function tokenizeCards(
  base: string,
  gateway: { api_login_id: string; client_key: string },
  n: number,
  parallel = 8,
): Promise<{ dataDescriptor: string; dataValue: string }[]> {
  const out: { dataDescriptor: string; dataValue: string }[] = [];
  const one = async () => {
    const res = await fetch(`${base}/gateway-simulator/tokenize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        securePaymentContainerRequest: {
          merchantAuthentication: { name: gateway.api_login_id, clientKey: gateway.client_key },
          data: {
            type: 'TOKEN',
            id: randomUUID(),
            token: { cardNumber: '4111111111111111', expirationDate: `12${NEXT_YEAR}`, cardCode: '123' },
          },
        },
      }),
    });
    const answer = JSON.parse((await res.text()).replace(/^\uFEFF/, '')) as {
      opaqueData?: { dataDescriptor: string; dataValue: string };
      messages: { resultCode: string };
    };
    if (answer.messages.resultCode !== 'Ok' || !answer.opaqueData)
      throw new Error(`tokenize answered ${JSON.stringify(answer)}`);
    out.push(answer.opaqueData);
  };
  let started = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (started < n) {
        started++;
        await one();
      }
    }),
  );
  return out;
}

/**
 * Runs `list.length` card payments through autocannon, each request taking the next prepared
 * payment (its own invoice, opaque data and idempotency key, with its payer's session cookie and
 * CSRF header). Runs in this process (the server is another process): the per-request bodies
 * need a callback, which autocannon's worker threads cannot take.
 */
async function pay(base: string, list: PreparedPayment[], connections: number): Promise<LoadSummary> {
  let next = 0;
  const result = await autocannon({
    url: `${base}/app/payments/credit`,
    connections: Math.min(connections, list.length),
    amount: list.length,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: Record<string, unknown>) => {
          // Each connection builds one request more than it sends at the end of the run (never sent).
          const p = list[next++];
          if (!p) return req;
          return { ...req, headers: p.headers, body: p.body };
        },
      },
    ],
  });
  return summarize(result, Math.min(connections, list.length));
}

/**
 * The card payment of the billing screen under load (docs/requirements/product.md tool 14, docs/requirements/platform.md §5.8): the product in a
 * server child process with the built-in gateway simulator; `payers` signed-in account holders,
 * each request paying one of their own unpaid invoices with its own opaque data from the
 * simulator's tokenizer and its own idempotency key, over `connections` connections. The
 * invoices are written into the database before the server starts. Afterwards the database must
 * hold exactly one `paid` payment per 200 answer (docs/requirements/platform.md §6 sets no target: figures only).
 * @param count payments in the timed run (after `warmup` more)
 */
export async function runPaymentBench(opts: {
  kind: DbKind;
  url?: string;
  count?: number;
  warmup?: number;
  connections?: number;
  payers?: number;
  profileDir?: string;
}): Promise<PaymentBenchResult> {
  const connections = opts.connections ?? 10;
  const payers = opts.payers ?? 20;
  const warmupCount = opts.warmup ?? 200;
  const timedCount = opts.count ?? 2000;
  const invoiceCount = warmupCount + timedCount;
  let bench: BenchDatabase | undefined;
  let server: ServerProcess | undefined;
  try {
    log(`[payment/${opts.kind}] preparing ${payers} payers and ${invoiceCount} unpaid invoices`);
    let prepared: Awaited<ReturnType<typeof preparePayers>> | undefined;
    bench = await freshDatabase(opts.kind, 'payment', opts.url, async (database) => {
      prepared = await preparePayers(database, payers, invoiceCount);
    });
    const { emails, invoicesByAccount } = prepared!;
    server = await startServer({
      mode: 'full',
      label: `payment-${opts.kind}`,
      database: bench.server,
      profileDir: opts.profileDir,
    });
    const base = server.base;

    log(`[payment/${opts.kind}] signing in ${payers} payers`);
    const sessions = [];
    for (const email of emails) sessions.push(await signIn(base, email, PAYER_PASSWORD));
    const headersOf = sessions.map((s) => ({
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': s.csrfToken,
      cookie: s.cookie,
    }));
    // The billing screen gives the tokenizer's public settings and lists the open invoices.
    const screenRes = await fetch(`${base}/api/payments/screen`, { headers: headersOf[0] });
    if (screenRes.status !== 200) throw new Error(`GET /api/payments/screen answered ${screenRes.status}`);
    const screen = (await screenRes.json()) as {
      gateway: { api_login_id: string; client_key: string };
      invoices: unknown[];
    };

    const tokenCount = invoiceCount;
    log(`[payment/${opts.kind}] tokenizing ${tokenCount} cards at the simulator`);
    const t0 = performance.now();
    const tokens = await tokenizeCards(base, screen.gateway, tokenCount);
    const tokenizeS = (performance.now() - t0) / 1000;

    // Payment i pays the i-th invoice of payer i mod payers, with that payer's session.
    const accountIds = [...invoicesByAccount.keys()];
    const list: PreparedPayment[] = tokens.map((opaque, i) => {
      const payer = i % payers;
      const invoiceId = invoicesByAccount.get(accountIds[payer])![Math.floor(i / payers)];
      return {
        headers: headersOf[payer],
        body: JSON.stringify({
          name: 'Pat Q Doe',
          address: '1 Main St',
          city: 'Indianapolis',
          state: 'IN',
          zip: '46201',
          phone: '',
          expMonth: '12',
          expYear: NEXT_YEAR,
          dataDescriptor: opaque.dataDescriptor,
          dataValue: opaque.dataValue,
          value: (INVOICE_CENTS / 100).toFixed(2),
          invoices: [invoiceId],
          discount_id: null,
          idempotency_key: randomUUID(),
          type: 'credit_card',
        }),
      };
    });

    log(`[payment/${opts.kind}] warm-up: ${warmupCount} payments`);
    const warmup = await pay(base, list.slice(0, warmupCount), connections);
    log(`[payment/${opts.kind}] ${timedCount} payments, ${connections} connections`);
    const { result: load, cpu } = await withCpu(server, () => pay(base, list.slice(warmupCount), connections));
    log(
      `[payment/${opts.kind}]   ${load.reqPerSec} req/s, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms, non-2xx ${load.non2xx}, errors ${load.errors}; CPU server ${cpu.serverPct} %, load generator ${cpu.loadGeneratorPct} %`,
    );

    const serverStats = await server.stop();
    server = undefined;

    const database = await bench.open();
    let recorded: PaymentBenchResult['recorded'];
    try {
      const db = database.db;
      const [totals] = await db
        .select({
          rows: count(),
          paid: sql<number>`count(*) FILTER (WHERE ${payments.status} = 'paid')`.mapWith(Number),
          keys: countDistinct(payments.idempotencyKey),
          transIds: countDistinct(payments.gatewayTransId),
        })
        .from(payments);
      const [links] = await db
        .select({ n: count(), invoices: countDistinct(paymentInvoices.invoiceId) })
        .from(paymentInvoices);
      const [settled] = await db.select({ n: count() }).from(invoices).where(eq(invoices.balanceCents, 0));
      const answered200 = (warmup.statusCodes['200'] ?? 0) + (load.statusCodes['200'] ?? 0);
      recorded = {
        answered200,
        paymentRows: totals.rows,
        paidRows: totals.paid,
        otherRows: totals.rows - totals.paid,
        distinctKeys: totals.keys,
        distinctTransIds: totals.transIds,
        paidInvoices: settled.n,
        paymentInvoiceRows: links.n,
        invoicesPaidTwice: links.n - links.invoices,
        exactlyOnce: false,
      };
      recorded.exactlyOnce =
        answered200 === totals.paid &&
        totals.rows === totals.paid &&
        totals.keys === totals.rows &&
        totals.transIds === totals.paid &&
        settled.n === totals.paid &&
        links.n === totals.paid &&
        links.invoices === totals.paid;
    } finally {
      await database.close();
    }
    log(
      `[payment/${opts.kind}]   ${recorded.paidRows} paid rows for ${recorded.answered200} answers 200; exactly once: ${recorded.exactlyOnce ? 'yes' : 'NO'}; peak RSS ${serverStats.memory.peakRssMb} MB`,
    );
    return {
      database: opts.kind,
      connections,
      payers,
      tokenize: { tokens: tokens.length, seconds: round(tokenizeS, 1), perSec: round(tokens.length / tokenizeS) },
      warmup,
      load: { ...load, cpu },
      recorded,
      server: serverStats,
    };
  } finally {
    await server?.stop().catch((err) => log(`stop server: ${err}`));
    await bench?.dispose().catch((err) => log(`dispose ${bench?.where}: ${err}`));
  }
}
