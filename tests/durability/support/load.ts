import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createAccount, createUser } from '../../../src/server/db/seed/factories.ts';
import { seedReference } from '../../../src/server/db/seed/seed.ts';
import { HttpClient, tokenizeCard } from './client.ts';
import type { Db } from '../../../src/server/db/client.ts';

/** What a request got: an HTTP status, or no answer at all (the server died while it was in flight or before it arrived). */
type Outcome = number | 'no answer';

/** One public form submission, told apart from every other by its e-mail address. */
export interface FormAttempt {
  cycle: number;
  path: '/contact' | '/campus-report';
  email: string;
  outcome: Outcome;
  /** The inquiry id of a 201 answer. */
  id?: number;
}

/** One card payment of one invoice, told apart by its idempotency key (and its invoice). */
export interface PaymentAttempt {
  cycle: number;
  key: string;
  invoiceId: number;
  outcome: Outcome;
  /** payment_id and status of an answer. */
  paymentId?: number;
  status?: string;
}

/** An account holder who pays, and the unpaid invoices (ids) set aside for its payments. */
export interface Payer {
  email: string;
  password: string;
  invoiceIds: number[];
}

/** Amount of every seeded invoice: $12.34 (the simulator approves it; $13.13 would never answer). */
const INVOICE_CENTS = 1_234;

/**
 * Seeds a fresh database for the load: reference data, one admin, and `payers` account holders
 * each with `invoicesEach` unpaid service-fee invoices of {@link INVOICE_CENTS} (one line each).
 * Writes: companies, levels, states, accounts, users, invoices, invoice_lines.
 */
export async function seedForLoad(
  db: Db,
  opts: { payers: number; invoicesEach: number; admin: { email: string; password: string } },
): Promise<Payer[]> {
  await seedReference(db);
  await createUser(db, { ...opts.admin, isAdmin: true, firstName: 'Admin' });
  const payers: Payer[] = [];
  for (let p = 1; p <= opts.payers; p++) {
    const account = await createAccount(db, { name: `Durable Boosters ${p}` });
    const payer = {
      email: `payer${p}@durability.test`,
      password: `Payer-${p}-durable-pass`,
      invoiceIds: [] as number[],
    };
    await createUser(db, { email: payer.email, password: payer.password, accountId: account.id });
    const created = await db.execute(sql`
      WITH i AS (
        INSERT INTO invoices (account_id, number, value_cents, balance_cents)
        SELECT ${account.id}, 'DUR-' || ${p} || '-' || g, ${INVOICE_CENTS}, ${INVOICE_CENTS} FROM generate_series(1, ${opts.invoicesEach}) g
        RETURNING id, value_cents
      ), l AS (
        INSERT INTO invoice_lines (invoice_id, label, type, value_cents) SELECT id, 'State filing service fee', 'service_fee', value_cents FROM i
      )
      SELECT id FROM i ORDER BY id`);
    payer.invoiceIds = (created as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
    payers.push(payer);
  }
  return payers;
}

/**
 * The clients of the load and every attempt they made. Each client keeps its session across
 * restarts, so a session or CSRF token lost to a kill shows up as a refused request. Counts the
 * requests sent but not yet answered, to prove the kill lands mid-request.
 */
export class Load {
  forms: FormAttempt[] = [];
  payments: PaymentAttempt[] = [];
  inFlight = 0;
  private seq = 0;
  private clients = new Map<string, HttpClient>();

  private runId: string;
  constructor(runId: string) {
    this.runId = runId;
  }

  private async track<T>(send: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await send();
    } finally {
      this.inFlight--;
    }
  }

  /**
   * One visitor submitting public forms back to back, each with a new e-mail address, until the
   * server stops answering (or `stop()` says so). Records every attempt.
   */
  async formWorker(baseUrl: string, cycle: number, worker: number, stop: () => boolean): Promise<void> {
    let client = this.clients.get(`visitor ${worker}`);
    if (!client) {
      try {
        client = await this.track(() => new HttpClient(baseUrl).start());
      } catch {
        return;
      }
      this.clients.set(`visitor ${worker}`, client);
    }
    while (!stop()) {
      const n = ++this.seq;
      const path = n % 4 === 0 ? '/campus-report' : '/contact';
      const email = `dur-${this.runId}-c${cycle}-w${worker}-${n}@example.com`;
      const body =
        path === '/contact'
          ? {
              name: `Visitor ${n}`,
              email,
              organization: 'Durable High Boosters',
              subject: 'Renewals',
              message: `Message ${randomUUID()} sent under load.`,
            }
          : { email, organization: `Durable State University ${n}` };
      const attempt: FormAttempt = { cycle, path, email, outcome: 'no answer' };
      this.forms.push(attempt);
      try {
        const res = await this.track(() => client.request('POST', path, body));
        attempt.outcome = res.status;
        if (res.status === 201) attempt.id = (res.body as { id: number }).id;
      } catch {
        return;
      }
    }
  }

  /**
   * One account holder paying its set-aside invoices one at a time by card through the gateway
   * simulator (tokenize, then POST /app/payments/credit), until the server stops answering.
   */
  async paymentWorker(baseUrl: string, cycle: number, payer: Payer, stop: () => boolean): Promise<void> {
    let client = this.clients.get(payer.email);
    let gateway: { api_login_id: string; client_key: string };
    try {
      if (!client) {
        const signedIn = await this.track(() => new HttpClient(baseUrl).start());
        await this.track(() => signedIn.login(payer.email, payer.password));
        client = signedIn;
        this.clients.set(payer.email, client);
      }
      // The simulator's credentials are new at each start.
      const screen = await this.track(() => client!.request('GET', '/api/payments/screen'));
      if (screen.status !== 200)
        throw new Error(`GET /api/payments/screen answered ${screen.status} in cycle ${cycle}`);
      gateway = (screen.body as { gateway: typeof gateway }).gateway;
    } catch (err) {
      if (err instanceof TypeError || (err as Error).name === 'TimeoutError') return;
      throw err;
    }
    while (!stop() && payer.invoiceIds.length) {
      const invoiceId = payer.invoiceIds[0];
      let opaque: { dataDescriptor: string; dataValue: string };
      try {
        opaque = await this.track(() => tokenizeCard(baseUrl, gateway, randomUUID()));
      } catch {
        return;
      }
      payer.invoiceIds.shift();
      const key = randomUUID();
      const attempt: PaymentAttempt = { cycle, key, invoiceId, outcome: 'no answer' };
      this.payments.push(attempt);
      try {
        const res = await this.track(() =>
          client.request('POST', '/app/payments/credit', {
            name: 'Pat Q Doe',
            address: '1 Main St',
            city: 'Indianapolis',
            state: 'IN',
            zip: '46201',
            phone: '',
            expMonth: '12',
            expYear: String(new Date().getFullYear() + 1),
            ...opaque,
            value: (INVOICE_CENTS / 100).toFixed(2),
            invoices: [invoiceId],
            discount_id: null,
            idempotency_key: key,
            type: 'credit_card',
          }),
        );
        attempt.outcome = res.status;
        const answer = res.body as { payment_id?: number; status?: string };
        attempt.paymentId = answer.payment_id;
        attempt.status = answer.status;
      } catch {
        return;
      }
    }
  }
}
