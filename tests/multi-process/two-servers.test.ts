import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1x1 } from '../helpers/files.ts';
import {
  Browser,
  createDatabase,
  freePort,
  startAppServer,
  startBalancer,
  startS3,
  startSmtpPeer,
  waitFor,
  type AppServer,
} from './support/cluster.ts';

/**
 * Several app servers behind a load balancer (docs/requirements/platform.md §5.9, docs/deploy.md): two processes of
 * src/server/main.ts started at the same moment on one empty PostgreSQL database, sharing an
 * S3-compatible bucket and an SMTP server, behind a round-robin proxy that appends the client's
 * address to X-Forwarded-For. Clients sit on distinct loopback addresses (127.0.0.x).
 */

const ADMIN = { email: 'admin@multi.test', password: 'Adm1n-multi-Pass' };
const HOLDER = { email: 'holder@multi.test', password: 'H0lder-multi-Pass' };
const BUCKET = 'goodstanding-multi';
const FORMS_PER_MINUTE = 4;
const NEXT_YEAR = String(new Date().getFullYear() + 1);

let database: Awaited<ReturnType<typeof createDatabase>>;
let s3: Awaited<ReturnType<typeof startS3>>;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let balancer: Awaited<ReturnType<typeof startBalancer>>;
let servers: AppServer[] = [];
let sql: pg.Client;
const dataDirs: string[] = [];

/** One row of an IRS EO BMF extract (the roster layout the admin uploader reads). */
const BMF_HEADER =
  'EIN,NAME,ICO,STREET,CITY,STATE,ZIP,GROUP,SUBSECTION,AFFILIATION,CLASSIFICATION,RULING,DEDUCTIBILITY,FOUNDATION,ACTIVITY,ORGANIZATION,STATUS,TAX_PERIOD,ASSET_CD,INCOME_CD,FILING_REQ_CD,PF_FILING_REQ_CD,ACCT_PD,ASSET_AMT,INCOME_AMT,REVENUE_AMT,NTEE_CD,SORT_NAME';
const BMF_ROW =
  '990001717,ZEBRA LAKE TWIN SERVER BOOSTERS,,1 LAKE RD,PALMER,AK,99645-9189,5271,03,9,2100,200510,1,16,000000000,1,01,202506,0,0,02,0,06,0,0,0,B112,';

beforeAll(async () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error(
      'Set TEST_DATABASE_URL to a PostgreSQL server (npm run test:multi-process sets postgres://postgres@127.0.0.1:5432/test)',
    );
  database = await createDatabase(adminUrl);
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  [s3, smtp] = await Promise.all([startS3(BUCKET), startSmtpPeer()]);
  const ports = [await freePort(), await freePort()];
  balancer = await startBalancer(ports.map((port) => ({ port })));
  const env = (i: number): Record<string, string> => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gs-multi-app${i}-`));
    dataDirs.push(dataDir);
    return {
      // Not production, which refuses the gateway simulator, the demo seed and a generated secret;
      // what the deployment relies on is set explicitly (TRUST_PROXY).
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PUBLIC_URL: balancer.url,
      TRUST_PROXY: '127.0.0.1',
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '4',
      DATA_DIR: dataDir,
      SESSION_SECRET: '',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '100',
      RATE_LIMIT_FORMS_PER_MINUTE: String(FORMS_PER_MINUTE),
      RATE_LIMIT_STORE: '',
      REMINDERS_ENABLED: '0',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_EMAIL: HOLDER.email,
      DEMO_PASSWORD: HOLDER.password,
    };
  };
  // Both at the same moment, on a database without a single table.
  const started = await Promise.allSettled(ports.map((port, i) => startAppServer(port, env(i))));
  servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await balancer?.close();
  await sql?.end();
  await s3?.close();
  await smtp?.close();
  await database?.drop();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const rowsOf = async <T>(text: string, values: unknown[] = []) => (await sql.query(text, values)).rows as T[];

describe('two app servers on one PostgreSQL database behind a load balancer', () => {
  it('both start at once on the empty database: one migrates and seeds, both answer the health check', async () => {
    const firstStarts = servers.filter((s) => s.output().includes('First start: these sign-ins were created'));
    expect(firstStarts).toHaveLength(1);
    const journal = JSON.parse(fs.readFileSync('src/server/db/migrations/meta/_journal.json', 'utf8')) as {
      entries: unknown[];
    };
    expect(await rowsOf('SELECT hash FROM drizzle.__drizzle_migrations')).toHaveLength(journal.entries.length);
    expect(await rowsOf<{ email: string }>('SELECT email FROM users ORDER BY email')).toEqual([
      { email: ADMIN.email },
      { email: HOLDER.email },
    ]);
    expect(await rowsOf('SELECT key FROM app_settings WHERE key = $1', ['csrf_hmac_key'])).toHaveLength(1);

    for (const server of servers) {
      const res = await new Browser('127.0.0.1').get(server.url, '/healthz');
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', storage: 'ok' } });
    }
    const viaBalancer = [];
    for (let i = 0; i < 4; i++) viaBalancer.push(await new Browser('127.0.0.1').get(balancer.url, '/healthz'));
    expect(viaBalancer.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(viaBalancer.map((r) => r.backend))).toEqual(new Set([0, 1]));
  });

  it('a session and a CSRF token made by one server are accepted by the other', async () => {
    const [a, b] = servers;
    const browser = new Browser('127.0.0.2');
    await browser.start(a.url);
    // A's token for the visitor session, presented to B.
    const login = await browser.login(b.url, HOLDER.email, HOLDER.password);
    expect(login.status, login.body.toString()).toBe(200);
    const onA = await browser.get(a.url, '/api/account');
    expect(onA.status).toBe(200);
    expect(onA.json().user.email).toBe(HOLDER.email);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await browser.get(balancer.url, '/api/account'));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((r) => r.backend))).toEqual(new Set([0, 1]));

    // B's token signs out on A; B then sees no session.
    expect((await browser.post(a.url, '/logout')).status).toBe(200);
    expect((await browser.get(b.url, '/api/account')).status).toBe(401);
    // A state-changing request with no token is refused by either.
    const bare = new Browser('127.0.0.2');
    await bare.get(a.url, '/api/session');
    expect((await bare.post(b.url, '/login', HOLDER)).status).toBe(419);
  });

  it(`counts the public-form limit across both servers by the real client address: the ${FORMS_PER_MINUTE + 1}th submission gets 429 from either`, async () => {
    const clients = ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
    const okBackends = new Set<number | undefined>();
    for (const [n, address] of clients.entries()) {
      const browser = new Browser(address);
      await browser.start(balancer.url);
      for (let i = 0; i < FORMS_PER_MINUTE; i++) {
        const res = await browser.post(balancer.url, '/contact', {
          name: `Visitor ${n}-${i}`,
          email: `visitor.${n}.${i}@example.com`,
          organization: 'Twin Server Boosters',
          subject: '990 help',
          message: `Message ${n}-${i}`,
        });
        expect(res.status, res.body.toString()).toBe(201);
        okBackends.add(res.backend);
      }
      const limited = [];
      for (let i = 0; i < 2; i++)
        limited.push(
          await browser.post(balancer.url, '/contact', {
            name: 'Late',
            email: 'late@example.com',
            subject: '990 help',
            message: 'Again',
          }),
        );
      expect(limited.map((r) => r.status)).toEqual([429, 429]);
      expect(new Set(limited.map((r) => r.backend))).toEqual(new Set([0, 1]));
      // Writing another address into X-Forwarded-For does not help: the balancer adds the real one.
      const forged = await browser.request(
        balancer.url,
        'POST',
        '/contact',
        { name: 'Forged', email: 'forged@example.com', subject: '990 help', message: 'Forged' },
        { 'x-forwarded-for': '198.51.100.23' },
      );
      expect(forged.status).toBe(429);
    }
    expect(okBackends).toEqual(new Set([0, 1]));
    // Each submission is kept with the address of the client, not the balancer's.
    const stored = await rowsOf<{ email: string; ip: string }>(
      "SELECT email, ip FROM inquiries WHERE email LIKE 'visitor.%' ORDER BY id",
    );
    expect(stored).toHaveLength(clients.length * FORMS_PER_MINUTE);
    for (const row of stored) expect(row.ip).toBe(clients[Number(row.email.split('.')[1])]);
  });

  it('delivers every mail enqueued through either server to the SMTP peer exactly once', async () => {
    const outbox = async () =>
      rowsOf<{ to_address: string; subject: string; status: string }>(
        'SELECT to_address, subject, status FROM mail_outbox ORDER BY id',
      );
    const delivered = await waitFor(async () => {
      const rows = await outbox();
      return rows.length > 0 && rows.every((r) => r.status === 'sent') && smtp.received.length >= rows.length;
    }, 30_000);
    const rows = await outbox();
    expect(delivered, JSON.stringify(rows.filter((r) => r.status !== 'sent'))).toBe(true);
    // Each contact submission wrote a notice to staff and an acknowledgement to the visitor.
    expect(rows.filter((r) => r.to_address.startsWith('visitor.'))).toHaveLength(5 * FORMS_PER_MINUTE);
    expect(rows.filter((r) => r.subject.startsWith('New contact request #'))).toHaveLength(5 * FORMS_PER_MINUTE);
    const sent = rows.map((r) => `${r.to_address} | ${r.subject}`).sort();
    const received = smtp.received.map((m) => `${m.to.join(',')} | ${m.subject}`).sort();
    expect(received).toEqual(sent);
    expect(new Set(received).size).toBe(received.length);
  });

  it('serves an upload made through one server from the other, out of the shared bucket', async () => {
    const [a, b] = servers;
    const browser = new Browser('127.0.0.8');
    await browser.start(a.url);
    expect((await browser.login(a.url, HOLDER.email, HOLDER.password)).status).toBe(200);
    const accountId = (await browser.get(a.url, '/api/account')).json().account.id as number;
    const set = await browser.upload(a.url, `/app/account/image/${accountId}`, {}, [
      { field: 'file', fileName: 'header.png', content: PNG_1x1, type: 'image/png' },
    ]);
    expect(set.status, set.body.toString()).toBe(200);
    const imageUrl = set.json().public_profile_image as string;
    expect(imageUrl).toMatch(new RegExp(`^/app/account/image/${accountId}/\\d+$`));

    const served = await new Browser('127.0.0.9').get(b.url, imageUrl);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.body.equals(PNG_1x1)).toBe(true);
    expect(s3.objectKeys().filter((k) => k.startsWith('profile_image/'))).toHaveLength(1);
    for (const dir of dataDirs) expect(fs.existsSync(path.join(dir, 'files'))).toBe(false);
  });

  it('shows a card payment made through one server in the finances read through the other', async () => {
    const [a, b] = servers;
    const browser = new Browser('127.0.0.10');
    await browser.start(b.url);
    expect((await browser.login(b.url, HOLDER.email, HOLDER.password)).status).toBe(200);
    // The gateway simulator keeps its tokens in the process that issued them: the billing screen,
    // the tokenizer and the charge go to one server (docs/deploy.md).
    const screen = (await browser.get(b.url, '/api/payments/screen')).json();
    const invoice = [...screen.invoices].sort(
      (x: { balance_cents: number }, y: { balance_cents: number }) => x.balance_cents - y.balance_cents,
    )[0];
    const tokenized = await browser.post(b.url, '/gateway-simulator/tokenize', {
      securePaymentContainerRequest: {
        merchantAuthentication: { name: screen.gateway.api_login_id, clientKey: screen.gateway.client_key },
        data: {
          type: 'TOKEN',
          id: randomUUID(),
          token: { cardNumber: '4111111111111111', expirationDate: `12${NEXT_YEAR}`, cardCode: '123' },
        },
      },
    });
    const opaque = JSON.parse(tokenized.body.toString('utf8').replace(/^\uFEFF/, '')).opaqueData;
    expect(opaque.dataValue).toEqual(expect.any(String));
    const paid = await browser.post(b.url, '/app/payments/credit', {
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
      value: (invoice.balance_cents / 100).toFixed(2),
      invoices: [invoice.id],
      discount_id: null,
      idempotency_key: randomUUID(),
      type: 'credit_card',
    });
    expect(paid.status, paid.body.toString()).toBe(200);

    const finances = await browser.get(a.url, '/api/finances');
    expect(finances.status).toBe(200);
    expect(finances.json().payments.data[0]).toMatchObject({
      method: 'card',
      status: 'paid',
      amount_cents: invoice.balance_cents,
      account_last4: 'XXXX1111',
      invoices: [{ id: invoice.id, number: invoice.number, amount_cents: invoice.balance_cents }],
    });
    const unpaid = (await browser.get(a.url, '/api/payments/screen')).json().invoices.map((i: { id: number }) => i.id);
    expect(unpaid).not.toContain(invoice.id);
  });

  it('a roster import confirmed through one server changes the search totals the other serves', async () => {
    const [a, b] = servers;
    const visitor = new Browser('127.0.0.11');
    const search = async (base: string) =>
      (await visitor.get(base, '/search?search=verify-501c3&keyword=zebra%20lake&page=1')).json();
    // Counted, and kept, by both.
    for (const base of [a.url, b.url, a.url, b.url]) expect((await search(base)).total).toBe(0);

    const admin = new Browser('127.0.0.12');
    await admin.start(balancer.url);
    expect((await admin.login(balancer.url, ADMIN.email, ADMIN.password)).status).toBe(200);
    const [group] = await rowsOf<{ id: number }>("SELECT id FROM groups WHERE gen = '5271'");
    const upload = await admin.upload(
      a.url,
      '/admin/uploads',
      { create_new_accounts: '1', profile_id: String(group.id), params: '{}' },
      [
        {
          field: 'uploads[]',
          fileName: 'zebra-lake.csv',
          content: Buffer.from(`${BMF_HEADER}\n${BMF_ROW}\n`),
          type: 'text/csv',
        },
      ],
    );
    expect(upload.status, upload.body.toString()).toBe(201);
    // An IRS file is staged as a preview: nothing is listed on either server until staff confirm.
    const preview = upload.json().roster_import;
    expect(preview).toMatchObject({ status: 'preview', counts: { adds: 1 } });
    expect((await search(b.url)).total).toBe(0);
    const confirmed = await admin.post(a.url, `/api/admin/roster-imports/${preview.id}/confirm`);
    expect(confirmed.status, confirmed.body.toString()).toBe(200);

    const onB = await search(b.url);
    expect(onB.total).toBe(1);
    expect(onB.data.map((r: { name: string }) => r.name)).toEqual(['ZEBRA LAKE TWIN SERVER BOOSTERS']);
    expect((await search(a.url)).total).toBe(1);
  });
});
