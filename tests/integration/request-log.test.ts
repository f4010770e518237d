import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { levels, mailOutbox } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { bylawContracts } from '../../src/shared/contracts/bylaws.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { BYLAW_ANSWERS } from '../helpers/bylaws.ts';
import { PDF_MINIMAL } from '../helpers/files.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';
import type { FastifyInstance } from 'fastify';

/**
 * The access log never carries a token (docs/security.md "Logs"): the real app, logging at info
 * into a stream this test reads, is sent every kind of address that carries one.
 */

let t: TestApp;
let app: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  app = await buildApp(
    { ...t.config, logLevel: 'info' },
    { database: t.database, logStream: { write: (line) => void lines.push(line) } },
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

/** The logged request lines (the one line per request of request-log.ts), parsed. */
const requestLines = () =>
  lines
    .map((l) => JSON.parse(l) as { msg: string; req?: { url: string; method: string }; res?: { statusCode: number } })
    .filter((l) => l.msg === 'request completed' || l.msg === 'request errored');
const loggedUrls = () => requestLines().map((l) => `${l.req!.method} ${l.req!.url}`);

describe('the request log', () => {
  it('redacts reset tokens, application tokens and ids, bylaws hashes and token query values, and keeps the rest', async () => {
    const secrets: string[] = [];

    // An application: its token in every address that carries it, and the sign-in link back to it.
    const applicant = await new Agent(app).start();
    const [maintain] = await t.database.db.select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));
    const started = await applicant.call(applicationWizardContracts.start, {
      body: {
        email: 'logged.applicant@example.com',
        password: 'Booster-club-2026',
        level_id: maintain.id,
      },
    });
    expect(started.statusCode).toBe(201);
    applicant.csrfToken = started.json().csrfToken;
    const token: string = started.json().token;
    secrets.push(token);
    expect((await applicant.call(applicationWizardContracts.show, { params: { token: token } })).statusCode).toBe(200);
    expect(
      (await applicant.request('GET', `/application/create/${token}`, undefined, { accept: 'text/html' })).statusCode,
    ).toBe(200);
    expect(
      (await applicant.call(applicationWizardContracts.savePage, { params: { token: token }, body: { page: 1 } }))
        .statusCode,
    ).toBe(422);
    expect((await applicant.request('PATCH', `/application/create/${token}`, { page: 1 })).statusCode).toBe(200);
    expect((await applicant.call(applicationWizardContracts.bylaws, { params: { token: token } })).statusCode).toBe(
      404,
    );
    expect(
      (
        await applicant.upload(`/application/upload/${token}`, {}, [
          { field: 'file', fileName: 'letter.pdf', content: PDF_MINIMAL, type: 'application/pdf' },
        ])
      ).statusCode,
    ).toBe(201);
    expect((await applicant.call(applicationWizardContracts.switchType, { params: { token: token } })).statusCode).toBe(
      200,
    );
    expect(
      (
        await applicant.request('GET', `/login?next=${encodeURIComponent(`/application/create/${token}`)}`, undefined, {
          accept: 'text/html',
        })
      ).statusCode,
    ).toBe(200);

    // A password reset link, opened as the mail gives it.
    await createUser(t.database.db, { email: 'logged.user@example.com', password: 'Logged-pass-123' });
    const visitor = await new Agent(app).start();
    expect(
      (await visitor.call(signInContracts.forgotPassword, { body: { email: 'logged.user@example.com' } })).statusCode,
    ).toBe(200);
    const resetMail = async () =>
      (
        await t.database.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.kind, 'password.reset'), eq(mailOutbox.toAddress, 'logged.user@example.com')))
          .orderBy(desc(mailOutbox.id))
      )[0];
    // The link is written after the answer (so timing reveals nothing): wait for the mail.
    expect(await waitFor(async () => Boolean(await resetMail()), 10_000)).toBe(true);
    const mail = (await resetMail())!;
    const resetPath = /\/password\/reset\/\S+/.exec(mail.textBody)![0];
    const resetToken = /\/password\/reset\/([^?]+)/.exec(resetPath)![1];
    secrets.push(resetToken);
    expect((await visitor.request('GET', resetPath, undefined, { accept: 'text/html' })).statusCode).toBe(200);
    // An invitation's "This was not me" page carries the same kind of token in its path.
    expect(
      (await visitor.request('GET', `/invitation/not-me/${resetToken}`, undefined, { accept: 'text/html' })).statusCode,
    ).toBe(200);

    // Bylaws: the hash is the capability to read them.
    const bylaw = (await visitor.call(bylawContracts.createStandard, { body: BYLAW_ANSWERS.standard })).json();
    const hash: string = bylaw.bylaw.hash;
    secrets.push(hash);
    for (const url of [`/api/bylaws/${hash}`, `/api/bylaws/${hash}/document`, `/bylaws-generator/download/${hash}`]) {
      expect((await visitor.get(url)).statusCode, url).toBe(200);
    }
    for (const url of [
      `/bylaws-generator/edit/${hash}`,
      `/bylaws-generator/preview/${hash}`,
      '/bylaws-generator/school',
    ]) {
      expect((await visitor.request('GET', url, undefined, { accept: 'text/html' })).statusCode, url).toBe(200);
    }
    expect(
      (await visitor.call(bylawContracts.update, { params: { hash: hash }, body: BYLAW_ANSWERS.standard })).statusCode,
    ).toBe(200);

    // PayPal's return to the billing page, and any other token in a query string.
    secrets.push('EC-5JW81447PG4171234', 'PAYERX7TQ2Z', 'query-secret-value-1');
    await visitor.request(
      'GET',
      '/app/payments?paypal=return&token=EC-5JW81447PG4171234&PayerID=PAYERX7TQ2Z',
      undefined,
      { accept: 'text/html' },
    );
    await visitor.request('GET', '/pricing?utm_source=mail&access_token=query-secret-value-1', undefined, {
      accept: 'text/html',
    });

    // The line is written when the answer has gone out.
    expect(await waitFor(() => loggedUrls().some((u) => u.startsWith('GET /pricing')), 10_000)).toBe(true);
    const everything = lines.join('\n');
    for (const secret of secrets) expect(everything, secret).not.toContain(secret);

    const urls = loggedUrls();
    const redacted = [
      'GET /api/applications/[redacted]',
      'GET /application/create/[redacted]',
      'PUT /application/create/[redacted]',
      'PATCH /application/create/[redacted]',
      'GET /application/bylaws/[redacted]',
      'POST /application/upload/[redacted]',
      'POST /application/switch/[redacted]',
      `GET /login?next=${encodeURIComponent('/application/create/[redacted]')}`,
      'GET /password/reset/[redacted]?email=logged.user%40example.com',
      'GET /invitation/not-me/[redacted]',
      'GET /api/bylaws/[redacted]',
      'GET /api/bylaws/[redacted]/document',
      'GET /bylaws-generator/download/[redacted]',
      'GET /bylaws-generator/edit/[redacted]',
      'GET /bylaws-generator/preview/[redacted]',
      'PUT /bylaws-generator/[redacted]',
      'GET /app/payments?paypal=return&token=[redacted]&PayerID=[redacted]',
      'GET /pricing?utm_source=mail&access_token=[redacted]',
    ];
    for (const url of redacted) expect(urls, url).toContain(url);
    // What carries no secret is logged as it came.
    expect(urls).toContain('POST /application/start');
    expect(urls).toContain('GET /bylaws-generator/school');
    expect(urls).toContain('POST /password/forgot');
    // Each line still says how the request ended.
    expect(requestLines().every((l) => typeof l.res?.statusCode === 'number')).toBe(true);
  });
});
