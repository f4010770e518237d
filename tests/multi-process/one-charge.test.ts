import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewaySimulator,
  GatewaySimulatorState,
  simulatorUrls,
} from '../../src/server/local-peers/gateway-simulator.ts';
import { limitSettingsAt } from '../../src/server/modules/limits/limit-rules.ts';
import { tokenizeAtSimulator, testBankAccount, testCard } from '../helpers/gateway.ts';
import { Browser, createDatabase, freePort, startAppServer, type AppServer } from './support/cluster.ts';
import type { AddressInfo } from 'node:net';

/**
 * docs/payments.md "One charge per invoice", across processes: two server processes
 * (src/server/main.ts) on one PostgreSQL database, both charging through the real Authorize.Net
 * client at ONE gateway peer (the simulator, listening on 127.0.0.1 in this test), receive twenty
 * payments of the same invoice at once, with distinct idempotency keys, by card, bank account and
 * zero payment. Exactly one is paid, and the gateway charged once (or not at all when the zero
 * payment won).
 */

const HOLDER = { email: 'holder@once.test', password: 'H0lder-once-Pass' };
const CREDS = { apiLoginId: 'onceLogin', transactionKey: 'onceTransactionKey01', clientKey: 'onceClientKey-public' };

let database: Awaited<ReturnType<typeof createDatabase>>;
let sql: pg.Client;
let gateway: FastifyInstance;
const sim = new GatewaySimulatorState();
let urls: ReturnType<typeof simulatorUrls>;
const servers: AppServer[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error(
      'Set TEST_DATABASE_URL to a PostgreSQL server (npm run test:multi-process sets postgres://postgres@127.0.0.1:5432/test)',
    );
  database = await createDatabase(adminUrl);
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  gateway = Fastify({ logger: false });
  await gateway.register(gatewaySimulator, { prefix: '/gateway', ...CREDS, state: sim });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  urls = simulatorUrls(`http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`, '/gateway');

  const env = (i: number): Record<string, string> => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gs-once-app${i}-`));
    dataDirs.push(dataDir);
    return {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '8',
      DATA_DIR: dataDir,
      PAYMENT_GATEWAY: 'authorize-net',
      AUTHORIZE_NET_ENDPOINT: urls.endpoint,
      AUTHORIZE_NET_API_LOGIN_ID: CREDS.apiLoginId,
      AUTHORIZE_NET_TRANSACTION_KEY: CREDS.transactionKey,
      AUTHORIZE_NET_CLIENT_KEY: CREDS.clientKey,
      RECONCILE_INTERVAL_MINUTES: '0',
      REMINDERS_ENABLED: '0',
      RATE_LIMIT_STORE: 'memory',
      // Twenty attempts at once from one account: the payment limits would refuse most with 429
      // before the invoice's own lock is reached, and this test is about that lock.
      ...limitSettingsAt(1_000_000),
      LOG_LEVEL: 'warn',
      DEMO_EMAIL: HOLDER.email,
      DEMO_PASSWORD: HOLDER.password,
      ADMIN_PASSWORD: 'Adm1n-once-Pass',
    };
  };
  const ports = [await freePort(), await freePort()];
  // One at a time: the first migrates and seeds the demo account both use.
  servers.push(await startAppServer(ports[0], env(0)));
  servers.push(await startAppServer(ports[1], env(1)));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await gateway?.close();
  await sql?.end();
  await database?.drop();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const rowsOf = async <T>(text: string, values: unknown[] = []) => (await sql.query(text, values)).rows as T[];

/** A $75.00 renewal invoice of the demo account, written straight into the shared database. */
async function addInvoice(): Promise<{ id: number; number: string }> {
  const number = `ONCE-${randomUUID().slice(0, 8)}`;
  const [account] = await rowsOf<{ account_id: number }>('SELECT account_id FROM users WHERE email = $1', [
    HOLDER.email,
  ]);
  const [invoice] = await rowsOf<{ id: number }>(
    'INSERT INTO invoices (account_id, number, value_cents, balance_cents) VALUES ($1, $2, 7500, 7500) RETURNING id',
    [account.account_id, number],
  );
  await sql.query(
    "INSERT INTO invoice_lines (invoice_id, label, type, value_cents) VALUES ($1, 'Renewal', 'renewal', 7500)",
    [invoice.id],
  );
  return { id: invoice.id, number };
}

/** Fires twenty payments of one invoice at the two servers at once; `kinds` picks each one's method. */
async function race(kinds: readonly ('card' | 'bank' | 'zero')[]) {
  const invoice = await addInvoice();
  const browsers = await Promise.all(
    servers.map(async (s, i) => {
      const b = new Browser(`127.0.0.${30 + i}`);
      await b.start(s.url);
      expect((await b.login(s.url, HOLDER.email, HOLDER.password)).status).toBe(200);
      return b;
    }),
  );
  let discountId: number | null = null;
  if (kinds.includes('zero')) {
    const reserved = await browsers[0].post(servers[0].url, '/app/discount/reserve', { code: 'WELCOME100' });
    discountId = reserved.json().discount.id;
  }
  const sends = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const kind = kinds[i % kinds.length];
      const server = servers[i % 2];
      const browser = browsers[i % 2];
      const common = { value: '75.00', invoices: [invoice.id], idempotency_key: randomUUID() };
      if (kind === 'zero') {
        return {
          kind,
          send: () =>
            browser.post(server.url, '/app/payments/zero-payment', {
              ...common,
              value: '0.00',
              discount_id: discountId,
              discount_total: '75.00',
              type: 'zero_payment',
            }),
        };
      }
      const opaque = await tokenizeAtSimulator(urls, kind === 'card' ? testCard() : testBankAccount(), CREDS);
      const fields =
        kind === 'card'
          ? {
              name: 'Pat Q Doe',
              address: '1 Main St',
              city: 'Indianapolis',
              state: 'IN',
              zip: '46201',
              phone: '',
              expMonth: '12',
              expYear: String(new Date().getFullYear() + 1),
              type: 'credit_card',
            }
          : { nameOnAccount: 'Booster Club', accountType: 'checking', type: 'bank_account' };
      return {
        kind,
        send: () =>
          browser.post(server.url, kind === 'card' ? '/app/payments/credit' : '/app/payments/bank', {
            ...fields,
            ...opaque,
            ...common,
            discount_id: null,
          }),
      };
    }),
  );
  const answers = await Promise.all(sends.map(async (s) => ({ kind: s.kind, res: await s.send() })));
  return { invoice, answers };
}

describe('twenty concurrent payments of one invoice at two server processes', () => {
  it('card and bank: one is paid, the gateway charged once, every other attempt is 409 and never reached it', async () => {
    const { invoice, answers } = await race(['card', 'bank']);
    const paid = answers.filter((a) => a.res.status === 200);
    expect(paid, answers.map((a) => `${a.kind} ${a.res.status} ${a.res.body.toString()}`).join('\n')).toHaveLength(1);
    for (const other of answers.filter((a) => a.res.status !== 200)) {
      expect(other.res.status).toBe(409);
      expect([
        'A payment for this invoice is already being processed.',
        'This invoice has already been paid.',
      ]).toContain(other.res.json().message);
    }
    expect(sim.listTransactions().filter((t) => t.invoiceNumber === invoice.number)).toHaveLength(1);
    expect(await rowsOf('SELECT status FROM payments WHERE $1 = ANY(invoice_ids)', [invoice.id])).toEqual([
      { status: 'paid' },
    ]);
    expect(await rowsOf('SELECT balance_cents, held_by_payment_id FROM invoices WHERE id = $1', [invoice.id])).toEqual([
      { balance_cents: 0, held_by_payment_id: null },
    ]);
  });

  it('card, bank and zero mixed: one is paid, and the gateway charged once unless the zero payment won', async () => {
    const { invoice, answers } = await race(['card', 'bank', 'zero']);
    const paid = answers.filter((a) => a.res.status === 200);
    expect(paid, answers.map((a) => `${a.kind} ${a.res.status} ${a.res.body.toString()}`).join('\n')).toHaveLength(1);
    for (const other of answers.filter((a) => a.res.status !== 200)) expect(other.res.status).toBe(409);
    const charges = sim.listTransactions().filter((t) => t.invoiceNumber === invoice.number);
    expect(charges).toHaveLength(paid[0].kind === 'zero' ? 0 : 1);
    expect(await rowsOf('SELECT status FROM payments WHERE $1 = ANY(invoice_ids)', [invoice.id])).toEqual([
      { status: 'paid' },
    ]);
    expect(await rowsOf('SELECT balance_cents FROM invoices WHERE id = $1', [invoice.id])).toEqual([
      { balance_cents: 0 },
    ]);
  });
});
