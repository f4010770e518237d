import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { productionProblems } from '../../src/server/config.ts';
import { mailOutbox, paymentAlerts } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { JOBS } from '../../src/server/jobs/definitions.ts';
import { deliverPendingMail } from '../../src/server/modules/mail/deliver-pending-mail.ts';
import { registerMetricsCollector } from '../../src/server/plugins/metrics.ts';
import { smtpTransport } from '../../src/server/providers/mail/transport.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { cardPayload, createGatewayTestApp, testCard, tokenizeAtSimulator } from '../helpers/gateway.ts';
import { startSmtpPeer } from '../helpers/local-peers.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';
import type { AddressInfo } from 'node:net';

/**
 * docs/deploy.md "Observability": request ids (from a trusted proxy, or generated) in the answer,
 * the log, error pages and mail; /metrics behind its bearer token; errors sent to Sentry without
 * cookies or secrets.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function testApp(opts: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(opts);
  cleanups.push(() => t.close());
  return t;
}

type LogLine = { msg: string; reqId?: string; level: number };

describe('request ids', () => {
  it('takes X-Request-Id from a trusted proxy, echoes it and logs it on every line of the request; replaces it from anyone else', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'goodstanding-reqid-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(path.join(dir, 'file'), 'x');
    // Storage that cannot be written, so /readyz logs a warning (through app.log) during the request.
    const t = await testApp({
      seed: false,
      config: { trustProxy: '127.0.0.1', storage: { driver: 'disk', dir: path.join(dir, 'file', 'files') } },
    });
    const lines: string[] = [];
    const app = await buildApp(
      { ...t.config, logLevel: 'info' },
      { database: t.database, logStream: { write: (line) => void lines.push(line) } },
    );
    await app.ready();
    cleanups.push(() => app.close());
    const logged = () => lines.map((l) => JSON.parse(l) as LogLine);

    const fromProxy = await app.inject({
      method: 'GET',
      url: '/api/session',
      remoteAddress: '127.0.0.1',
      headers: { 'x-request-id': 'lb-7f3a.01:req_9' },
    });
    expect(fromProxy.statusCode).toBe(200);
    expect(fromProxy.headers['x-request-id']).toBe('lb-7f3a.01:req_9');
    expect(
      logged()
        .filter((l) => l.msg === 'request completed')
        .map((l) => l.reqId),
    ).toEqual(['lb-7f3a.01:req_9']);

    const ready = await app.inject({
      method: 'GET',
      url: '/readyz',
      remoteAddress: '127.0.0.1',
      headers: { 'x-request-id': 'lb-readyz-2' },
    });
    expect(ready.statusCode).toBe(503);
    const warning = logged().find((l) => l.msg === 'readiness: storage is not writable');
    expect(warning?.reqId).toBe('lb-readyz-2');

    // A client that is not the proxy, or a proxy sending a malformed id: a new random id.
    for (const [remoteAddress, sent] of [
      ['203.0.113.9', 'planted-by-client'],
      ['127.0.0.1', 'spaces are not allowed'],
      ['127.0.0.1', 'x'.repeat(129)],
    ]) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/session',
        remoteAddress,
        headers: { 'x-request-id': sent },
      });
      expect(res.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(lines.join('\n')).not.toContain(sent);
      expect(logged().at(-1)?.reqId).toBe(res.headers['x-request-id']);
    }
  });

  it('carries a mail enqueued by the request as its X-Request-Id header to the SMTP server', async () => {
    const t = await testApp();
    const smtp = await startSmtpPeer();
    cleanups.push(() => smtp.close());
    await createUser(t.database.db, { email: 'traced.user@example.com', password: 'Traced-pass-123' });
    const visitor = await new Agent(t.app).start();
    const res = await visitor.call(signInContracts.forgotPassword, { body: { email: 'traced.user@example.com' } });
    expect(res.statusCode, res.body).toBe(200);
    const requestId = String(res.headers['x-request-id']);
    expect(requestId).not.toBe('');

    // The reset is queued after the answer (same timing for known and unknown addresses).
    expect(
      await waitFor(async () => (await t.database.db.select({ n: count() }).from(mailOutbox))[0].n === 1, 10_000),
    ).toBe(true);
    const transport = smtpTransport(smtp.url);
    cleanups.push(async () => transport.close());
    expect(await deliverPendingMail(t.database.db, transport, t.config.mail.from)).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['traced.user@example.com']);
    const headers = smtp.received[0].body.split(/\r\n\r\n/)[0];
    expect(headers).toMatch(new RegExp(`^X-Request-Id: ${requestId.replace(/[.:-]/g, '\\$&')}$`, 'im'));
  });
});

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const t = await testApp({ seed: false });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer anything' } });
    expect(res.statusCode).toBe(404);
  });

  it('asks for the bearer token, then reports requests by route, payments, the outbox, the pool, job runs and open payment alerts', async () => {
    const token = 'metrics-token-0123456789abcdef0123456789';
    const gw = await createGatewayTestApp(10_000, { config: { metricsToken: token } });
    cleanups.push(() => gw.close());
    const { t, urls } = gw;
    const db = t.database.db;

    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}x` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="metrics"');

    // A few requests and a card payment.
    const account = await createAccount(db, { name: 'Metered Boosters', isListed: true });
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: `/api/accounts/${account.id}/public` })).statusCode).toBe(200);
    const holder = { email: 'metered.payer@example.com', password: 'Metered-pass-123' };
    await createUser(db, { ...holder, accountId: account.id });
    const invoiceId = await createInvoice(db, { accountId: account.id, cents: 5_000, type: 'renewal', prefix: 'MT' });
    const payer = await signedIn(t.app, holder);
    const paid = await payer.call(paymentContracts.credit, {
      body: cardPayload(await tokenizeAtSimulator(urls, testCard()), [invoiceId], '50.00'),
    });
    expect(paid.statusCode, paid.body).toBe(200);

    // A mail waiting in the outbox (no SMTP server here).
    expect(
      (
        await new Agent(t.app)
          .start()
          .then((a) => a.call(signInContracts.forgotPassword, { body: { email: holder.email } }))
      ).statusCode,
    ).toBe(200);
    expect(
      await waitFor(
        async () => (await db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'pending')))[0].n > 0,
        10_000,
      ),
    ).toBe(true);

    // A job run, recorded in job_runs (docs/jobs.md).
    await t.app.jobs.runNow(JOBS.find((job) => job.name === 'level-wizard-refresh')!);

    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    // By route pattern, never the address.
    expect(text).toContain(
      'goodstanding_http_request_duration_seconds_count{method="GET",route="/api/accounts/:id/public",status="200"} 3',
    );
    expect(text).toContain(
      'goodstanding_http_request_duration_seconds_count{method="POST",route="/app/payments/credit",status="200"} 1',
    );
    expect(text).not.toContain(`/api/accounts/${account.id}/public`);
    expect(text).toContain('goodstanding_payments{status="paid"} 1');
    const [{ pending }] = await db
      .select({ pending: count() })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'pending'));
    expect(pending).toBeGreaterThan(0);
    expect(text).toMatch(new RegExp(`^goodstanding_mail_outbox_pending ${pending}$`, 'm'));
    const age = Number(/^goodstanding_mail_outbox_oldest_pending_age_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(120);
    const total = Number(/^goodstanding_db_pool_connections\{state="total"\} (\d+)$/m.exec(text)?.[1]);
    expect(total).toBeGreaterThanOrEqual(1);
    if (t.database.kind === 'postgres')
      expect(text).toMatch(/^goodstanding_db_pool_connections\{state="waiting"\} 0$/m);
    expect(text).toMatch(/^goodstanding_process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^goodstanding_job_runs\{job="level-wizard-refresh",result="ok"\} 1$/m);
    // Payment alerts staff have not reviewed, by kind (docs/payments.md "Card testing"): 0 is reported too.
    expect(text).toMatch(/^goodstanding_payment_alerts_open\{kind="possible_card_testing"\} 0$/m);
    const alert = { kind: 'possible_card_testing', rule: 'payment_attempts_per_ip', ip: '203.0.113.9', count: 21 };
    await db.insert(paymentAlerts).values([
      { ...alert, maxCount: 20, windowKey: 'metrics:open' },
      { ...alert, maxCount: 20, windowKey: 'metrics:reviewed', reviewedAt: new Date() },
    ]);
    const after = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(after.body).toMatch(/^goodstanding_payment_alerts_open\{kind="possible_card_testing"\} 1$/m);
  });

  it('takes collectors registered later by other modules', async () => {
    const token = 'another-metrics-token-0123456789abcdef';
    const t = await testApp({ seed: false, config: { metricsToken: token } });
    registerMetricsCollector(t.app, {
      name: 'goodstanding_mail_kinds',
      help: 'Outbox mails by kind (a collector of this test).',
      labelNames: ['kind'],
      async collect() {
        const rows = await t.database.db
          .select({ kind: mailOutbox.kind, n: count() })
          .from(mailOutbox)
          .groupBy(mailOutbox.kind);
        return rows.map((r) => ({ labels: { kind: r.kind }, value: r.n }));
      },
    });
    await t.database.db
      .insert(mailOutbox)
      .values({ kind: 'test.kind', toAddress: 'a@example.com', subject: 's', textBody: 'b' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(res.body).toContain('goodstanding_mail_kinds{kind="test.kind"} 1');
    // Outbox mails enqueued outside a request carry no request id.
    const [row] = await t.database.db
      .select({ requestId: mailOutbox.requestId })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'test.kind'));
    expect(row.requestId).toBeNull();
  });

  it('refuses a token shorter than 32 characters in production', () => {
    expect(productionProblems({ NODE_ENV: 'production', METRICS_TOKEN: 'short-token' }).join('\n')).toMatch(
      /^METRICS_TOKEN: too short/m,
    );
    expect(productionProblems({ NODE_ENV: 'production', METRICS_TOKEN: 'x'.repeat(32) }).join('\n')).not.toMatch(
      /METRICS_TOKEN/,
    );
  });
});

/** A local peer that accepts Sentry envelopes (POST /api/<project>/envelope/) and keeps their raw text. */
async function startSentryPeer() {
  const envelopes: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url?.startsWith('/api/1/envelope/')) {
        envelopes.push((req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8'));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    envelopes,
    dsn: `http://publickey@127.0.0.1:${port}/1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('Sentry', () => {
  it('receives an unexpected error with the request id and without cookies or secrets; not a validation error', async () => {
    const sentry = await startSentryPeer();
    cleanups.push(() => sentry.close());
    const t = await testApp({ seed: false });
    const app = await buildApp({ ...t.config, sentryDsn: sentry.dsn }, { database: t.database, logger: false });
    // Routes whose handlers fail unexpectedly, as a bug would.
    app.post('/api/broken-report', { config: { access: 'visitor' } }, async () => {
      throw new Error('report builder exploded');
    });
    app.get('/broken-page', async () => {
      throw new Error('page builder exploded');
    });
    await app.ready();
    cleanups.push(() => app.close());

    const agent = await new Agent(app).start();
    // A validation error (422) is the client's, not ours: nothing is sent.
    expect((await agent.call(signInContracts.forgotPassword, { body: { email: 'nope' } })).statusCode).toBe(422);

    const res = await agent.request(
      'POST',
      '/api/broken-report?token=query-secret-123',
      { password: 'body-secret-456', cardNumber: '4111111111111111' },
      {
        authorization: 'Bearer header-secret-789',
      },
    );
    expect(res.statusCode).toBe(500);
    const requestId = String(res.headers['x-request-id']);
    expect(res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.', requestId });

    expect(await waitFor(() => sentry.envelopes.length >= 1, 10_000)).toBe(true);
    expect(sentry.envelopes).toHaveLength(1);
    const raw = sentry.envelopes[0];
    const event = raw
      .split('\n')
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return null;
        }
      })
      .find((item) => item?.exception);
    expect(event.tags).toMatchObject({ request_id: requestId, route: '/api/broken-report' });
    expect(event.exception.values[0].value).toBe('report builder exploded');
    expect(event.request).toMatchObject({ method: 'POST', url: '/api/broken-report?token=[redacted]' });
    const cookieValue = [...agent.cookies.values()][0];
    expect(cookieValue.length).toBeGreaterThan(10);
    for (const secret of [
      cookieValue,
      'query-secret-123',
      'body-secret-456',
      '4111111111111111',
      'header-secret-789',
      agent.csrfToken,
    ]) {
      expect(raw).not.toContain(secret);
    }
    expect(raw.toLowerCase()).not.toContain('cookie');

    // A browser's page request gets a readable page with the request id.
    const page = await app.inject({ method: 'GET', url: '/broken-page', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(500);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<h1>Something went wrong</h1>');
    expect(page.body).toContain(`<code>${page.headers['x-request-id']}</code>`);
    expect(page.body).not.toContain('page builder exploded');
  });
});
