import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cookie from '@fastify/cookie';
import { and, eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  applications,
  groups,
  inquiries,
  invoices,
  irsBulkChecks,
  irsOrganizations,
  irsReleases,
  levels,
  mailOutbox,
  payments,
  users,
} from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { cacheControlPlugin } from '../../src/server/plugins/cache-control.ts';
import { errorsPlugin } from '../../src/server/plugins/errors.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { accountUserContracts } from '../../src/shared/contracts/account-settings.ts';
import { adminAccountsContracts } from '../../src/shared/contracts/admin-accounts.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { bylawContracts } from '../../src/shared/contracts/bylaws.ts';
import { inquiryContracts } from '../../src/shared/contracts/public-forms.ts';
import { publicProfileContracts } from '../../src/shared/contracts/public-profile.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { PAGES } from '../../src/shared/routes.ts';
import { BYLAW_ANSWERS } from '../helpers/bylaws.ts';
import { PDF_MINIMAL, PNG_1x1 } from '../helpers/files.ts';
import { invitationLink } from '../helpers/invitations.ts';
import { type AppRoute, createInventoriedTestApp, type InventoriedApp, sessionAgent } from '../helpers/routes.ts';
import { Agent, fillPath } from '../helpers/test-app.ts';
import type { PublicAnswer } from '../../src/server/plugins/cache-control.ts';

/**
 * Caching of answers (docs/security.md "Caching of answers"): every answer of every route the app
 * registers carries `Cache-Control: no-store`, asked by the person the route is for and by a
 * visitor, unless the route is declared public (plugins/cache-control.ts), and then only its
 * success answers carry the declared header. The routes come from the app's own inventory
 * (tests/helpers/routes.ts), so a new route is checked without being listed here; a new public
 * route fails until PUBLIC_ROUTES below names it. The private answers an attacker's review named
 * are checked one by one, as a client sees them, and so are the refusals of each kind.
 */

/** The only routes whose answers any cache may keep, with the header they declare. */
const PUBLIC_ROUTES: Record<string, { kind: PublicAnswer; header: string }> = {
  'GET /assets/*': { kind: 'built-asset', header: 'public, max-age=31536000, immutable' },
  'GET /favicon.svg': { kind: 'site-file', header: 'public, max-age=86400' },
  'GET /robots.txt': { kind: 'site-file', header: 'public, max-age=86400' },
};

/** What an answer that is not public may say: no-store, or a download's own `private, no-store`. */
const NOT_STORED = ['no-store', 'private, no-store'];

const METRICS_TOKEN = 'cache-control-metrics-token-0123456789';
const ASSET = 'index-AbC123.js';

/** Path parameters naming nothing that exists, for every route not asked for a real record. */
const NOWHERE = {
  id: 2_000_000_000,
  fileId: 2_000_000_000,
  accountId: 2_000_000_000,
  token: 'NoSuchToken0000000000',
  hash: '0'.repeat(32),
  code: 'ZZ',
  contest: 'photo',
  name: 'no-such-job',
  extensionId: 2_000_000_000,
  year: 2099,
  groupId: 2_000_000_000,
  userId: 2_000_000_000,
};

/** The query string a route is asked with, where it needs one to answer. */
const QUERIES: Record<string, string> = {
  'GET /search': '?search=verify-501c3&keyword=cedar&page=1',
  'GET /api/irs/organizations': '?query=cedar',
};

/** What a wildcard route is asked for. */
const WILDCARD: Record<string, string> = { '/assets/*': ASSET, '/api/docs/static/*': 'index.css' };

let s: InventoriedApp;
let distDir: string;
const db = () => s.t.database.db;

const fx = {} as {
  account: number;
  holder: number;
  admin: number;
  invoice: number;
  bulkCheck: number;
  group: number;
  invoiceNumber: string;
  payment: number;
  image: number;
  inquiry: number;
  invitationMail: number;
  invitationLink: string;
  applicationId: number;
  token: string;
  document: number;
  hash: string;
  bylawsOwner: Agent;
  applicant: Agent;
};
const ACCOUNT_NAME = 'Cedar Hollow Quiet Boosters';
const INVITED = 'cedar.invited@example.com';

/**
 * GET routes asked for a record of the person calling (or, for staff, of the account): each must
 * answer 2xx, so the sweep below sees private data going out, not only refusals.
 */
const RECORDS: Record<string, () => Record<string, string | number>> = {
  'GET /api/invoices/:id': () => ({ id: fx.invoice }),
  'GET /api/payments/:id/receipt': () => ({ id: fx.payment }),
  'GET /app/account/image/:id/:fileId': () => ({ id: fx.account, fileId: fx.image }),
  'GET /api/accounts/:id/public': () => ({ id: fx.account }),
  'GET /api/irs/organizations/:ein': () => ({ ein: '990000321' }),
  'GET /api/applications/:token': () => ({ token: fx.token }),
  'GET /application/upload/:token/:fileId': () => ({ token: fx.token, fileId: fx.document }),
  'GET /api/bylaws/:hash': () => ({ hash: fx.hash }),
  'GET /api/bylaws/:hash/document': () => ({ hash: fx.hash }),
  'GET /bylaws-generator/download/:hash': () => ({ hash: fx.hash }),
  'GET /api/admin/accounts/:id': () => ({ id: fx.account }),
  'GET /api/admin/inquiries/:id': () => ({ id: fx.inquiry }),
  'GET /api/admin/applications/:id': () => ({ id: fx.applicationId }),
  'GET /api/admin/outbox/:id': () => ({ id: fx.invitationMail }),
  'GET /api/admin/jobs/:name/runs': () => ({ name: 'retention' }),
  'GET /api/admin/contests/:contest/entries': () => ({ contest: 'photo' }),
  'GET /api/admin/irs-bulk-checks/:id': () => ({ id: fx.bulkCheck }),
  'GET /api/admin/irs-bulk-checks/:id/result.csv': () => ({ id: fx.bulkCheck }),
  'GET /api/app/groups/:groupId': () => ({ groupId: fx.group }),
  'GET /api/app/groups/:groupId/users': () => ({ groupId: fx.group }),
  'GET /api/app/groups/:groupId/irs-bulk-checks': () => ({ groupId: fx.group }),
  'GET /api/app/groups/:groupId/supervision/overview': () => ({ groupId: fx.group }),
  'GET /api/app/groups/:groupId/supervision': () => ({ groupId: fx.group }),
  'GET /api/app/groups/:groupId/irs-bulk-checks/:id': () => ({ groupId: fx.group, id: fx.bulkCheck }),
  'GET /api/app/groups/:groupId/irs-bulk-checks/:id/result.csv': () => ({ groupId: fx.group, id: fx.bulkCheck }),
};

type Who = 'visitor' | 'bylaws owner' | 'applicant' | 'account holder' | 'admin' | 'metrics scraper';

/** The person a route is for: by its access level, a page's access, or what it serves. */
function personFor(route: AppRoute): Who {
  if (route.url === '/metrics') return 'metrics scraper';
  if (/^\/(api\/)?bylaws(-generator)?\/(download\/)?:hash/.test(route.url)) return 'bylaws owner';
  if (route.url.startsWith('/application/') || route.url.startsWith('/api/application')) return 'applicant';
  const access = route.access ?? PAGES.find((p) => p.path === route.url)?.access;
  switch (access) {
    case 'signed-in':
    case 'account-user':
    case 'primary-user':
      return 'account holder';
    // Staff reach every central organization's workspace.
    case 'group-user':
    case 'staff':
      return 'admin';
    default:
      return 'visitor';
  }
}

async function agentFor(who: Who): Promise<Agent> {
  switch (who) {
    case 'bylaws owner':
      return fx.bylawsOwner;
    case 'applicant':
      return fx.applicant;
    case 'account holder':
      return sessionAgent(s.t, fx.holder);
    case 'admin':
      return sessionAgent(s.t, fx.admin);
    default:
      return new Agent(s.t.app).start();
  }
}

/** The route's address with its parameters filled: a record of the caller's where RECORDS has one. */
function addressOf(route: AppRoute): string {
  const pattern = route.url.endsWith('*') ? route.url.replace(/\*$/, WILDCARD[route.url] ?? 'x') : route.url;
  return fillPath(pattern, { ...NOWHERE, ...RECORDS[route.key]?.() }) + (QUERIES[route.key] ?? '');
}

const cacheControlOf = (res: LightMyRequestResponse) => res.headers['cache-control'];
const isSuccess = (status: number) => (status >= 200 && status < 300) || status === 304;

/** What is wrong with an answer's Cache-Control for its route, or null. */
function cacheProblem(route: AppRoute, res: LightMyRequestResponse): string | null {
  const header = cacheControlOf(res);
  const declared = PUBLIC_ROUTES[route.key];
  if (declared && isSuccess(res.statusCode)) {
    if (header !== declared.header) return `public answer ${res.statusCode} with "${String(header)}"`;
    if (res.headers['set-cookie']) return 'public answer sets a cookie';
    return null;
  }
  return NOT_STORED.includes(String(header)) ? null : `${res.statusCode} with "${String(header)}"`;
}

beforeAll(async () => {
  // A built client as the build leaves it: the pages' static files are served only when it exists.
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-cache-dist-'));
  fs.mkdirSync(path.join(distDir, 'assets'));
  fs.writeFileSync(path.join(distDir, 'assets', ASSET), 'console.log(1);\n');
  fs.writeFileSync(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(distDir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  s = await createInventoriedTestApp({
    config: { webDistDir: distDir, metricsToken: METRICS_TOKEN, rateLimits: { loginPerMinute: 4 } },
  });

  const [{ id: levelId }] = await db().select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));
  fx.account = (await createAccount(db(), { name: ACCOUNT_NAME, state: 'IN', city: 'Cedar Hollow' })).id;
  // An organization of the IRS data, for the instant check.
  const [release] = await db()
    .insert(irsReleases)
    .values({
      dataset: 'bmf',
      fileName: 'eo_in.csv',
      releasedOn: '2026-04-01',
      rowCount: 1,
      loadedCount: 1,
      sha256: 'c'.repeat(64),
    })
    .returning({ id: irsReleases.id });
  await db().insert(irsOrganizations).values({
    ein: '990000321',
    name: 'CEDAR HOLLOW BOOSTERS',
    city: 'CEDAR HOLLOW',
    state: 'IN',
    irsStatus: '01',
    filingRequirement: '02',
    fiscalYearEndMonth: 12,
    searchText: 'cedar hollow boosters',
    releaseId: release.id,
  });
  await db()
    .update(accounts)
    .set({ levelId, renewalDueAt: new Date(Date.now() + 20 * 86_400_000), fiscalYearEndMonth: 6 })
    .where(eq(accounts.id, fx.account));
  fx.holder = (
    await createUser(db(), { email: 'cedar.holder@example.com', password: 'Cedar-pass-2026', accountId: fx.account })
  ).id;
  await db().update(users).set({ isPrimary: true }).where(eq(users.id, fx.holder));
  await db().update(accounts).set({ primaryUserId: fx.holder }).where(eq(accounts.id, fx.account));
  fx.admin = (
    await createUser(db(), { email: 'cedar.admin@example.com', password: 'Cedar-admin-2026', isAdmin: true })
  ).id;

  // A finished check of a list of EINs, made by a central organization's users: its progress and
  // its CSV of standings are the group's and staff's downloads.
  [{ id: fx.group }] = await db()
    .insert(groups)
    .values({ label: 'Cedar Hollow Council', gen: '9902' })
    .returning({ id: groups.id });
  [{ id: fx.bulkCheck }] = await db()
    .insert(irsBulkChecks)
    .values({
      groupId: fx.group,
      fileName: 'eins.csv',
      status: 'done',
      eins: ['990000321'],
      total: 1,
      done: 1,
      resultCsv: 'EIN\r\n99-0000321\r\n',
    })
    .returning({ id: irsBulkChecks.id });

  fx.invoice = await createInvoice(db(), { accountId: fx.account, cents: 7_000, prefix: 'CEDAR' });
  [{ number: fx.invoiceNumber }] = await db()
    .select({ number: invoices.number })
    .from(invoices)
    .where(eq(invoices.id, fx.invoice));
  [{ id: fx.payment }] = await db()
    .insert(payments)
    .values({
      accountId: fx.account,
      userId: fx.holder,
      method: 'card',
      status: 'paid',
      amountCents: 7_000,
      invoiceIds: [fx.invoice],
      idempotencyKey: randomUUID(),
      gatewayTransId: '60009876543',
      authCode: 'CEDAR1',
      accountType: 'Visa',
      accountLast4: 'XXXX1111',
      settledAt: new Date(),
    })
    .returning({ id: payments.id });

  const holder = await sessionAgent(s.t, fx.holder);
  const image = await holder.upload(`/app/account/image/${fx.account}`, {}, [
    { field: 'file', fileName: 'cedar.png', content: PNG_1x1, type: 'image/png' },
  ]);
  expect(image.statusCode, image.body).toBe(200);
  fx.image = Number(/\/(\d+)$/.exec(image.json().public_profile_image)![1]);

  // A new user of the account: the invitation with its set-password link waits in the outbox (no SMTP_URL).
  const stored = await holder.call(accountUserContracts.store, {
    body: {
      email: INVITED,
      first_name: 'Ida',
      last_name: 'Invited',
      phone: '',
      sms_phone: '',
    },
  });
  expect(stored.statusCode, stored.body).toBe(201);
  fx.invitationLink = (await invitationLink(db(), INVITED)).link;
  [{ id: fx.invitationMail }] = await db()
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, 'account_users.invitation'), eq(mailOutbox.toAddress, INVITED)));

  fx.bylawsOwner = await new Agent(s.t.app).start();
  const bylaw = await fx.bylawsOwner.call(bylawContracts.createStandard, {
    body: { ...BYLAW_ANSWERS.standard, name: 'Cedar Track Club' },
  });
  expect(bylaw.statusCode, bylaw.body).toBe(201);
  fx.hash = bylaw.json().bylaw.hash;

  fx.applicant = await new Agent(s.t.app).start();
  const started = await fx.applicant.call(applicationWizardContracts.start, {
    body: {
      email: 'cedar.applicant@example.com',
      password: 'Applicant-pass-2026',
      level_id: levelId,
    },
  });
  expect(started.statusCode, started.body).toBe(201);
  fx.applicant.csrfToken = started.json().csrfToken;
  fx.token = started.json().token;
  const doc = await fx.applicant.upload(`/application/upload/${fx.token}`, {}, [
    { field: 'file', fileName: 'cedar-letter.pdf', content: PDF_MINIMAL, type: 'application/pdf' },
  ]);
  expect(doc.statusCode, doc.body).toBe(201);
  fx.document = doc.json().file_upload.id;
  [{ id: fx.applicationId }] = await db()
    .select({ id: applications.id })
    .from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .where(eq(users.email, 'cedar.applicant@example.com'));

  const inquiry = await (
    await new Agent(s.t.app).start()
  ).post('/contact', {
    name: 'Ann Lee',
    email: 'ann.cedar@example.com',
    organization: 'Cedar Hollow Boosters',
    subject: '990 help',
    message: 'Which 990 do we file?',
  });
  expect(inquiry.statusCode, inquiry.body).toBe(201);
  [{ id: fx.inquiry }] = await db().select({ id: inquiries.id }).from(inquiries).limit(1);
});

afterAll(async () => {
  await s?.close();
  if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
});

describe('what the attacker review named: private answers a client receives, never to be kept', () => {
  const cases: { name: string; url: () => string; who: 'account holder' | 'admin'; shows: () => string }[] = [
    { name: 'the account overview', url: () => '/api/account', who: 'account holder', shows: () => ACCOUNT_NAME },
    {
      name: "the account's payments",
      url: () => '/api/finances',
      who: 'account holder',
      shows: () => '60009876543',
    },
    {
      name: 'a payment receipt',
      url: () => `/api/payments/${fx.payment}/receipt`,
      who: 'account holder',
      shows: () => ACCOUNT_NAME,
    },
    {
      name: 'an invoice',
      url: () => `/api/invoices/${fx.invoice}`,
      who: 'account holder',
      shows: () => fx.invoiceNumber,
    },
    {
      name: "the account's users",
      url: () => '/app/account/users/json',
      who: 'account holder',
      shows: () => INVITED,
    },
    { name: "the group's home", url: () => '/api/app/home', who: 'account holder', shows: () => ACCOUNT_NAME },
    {
      name: 'the outbox mail with a live set-password link (no mail server set)',
      url: () => `/api/admin/outbox/${fx.invitationMail}`,
      who: 'admin',
      shows: () => fx.invitationLink,
    },
    { name: 'the API document', url: () => '/api/docs/json', who: 'admin', shows: () => '/api/admin/outbox/' },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s: shown to its reader with no-store', async (_name, c) => {
    const agent = c.who === 'admin' ? await sessionAgent(s.t, fx.admin) : await sessionAgent(s.t, fx.holder);
    const res = await agent.get(c.url());
    expect(res.statusCode, res.body).toBe(200);
    // JSON escapes `/` nowhere and `&` nowhere, so the text is found as it is.
    expect(res.body).toContain(c.shows());
    expect(cacheControlOf(res)).toBe('no-store');
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: refused to a visitor with no-store', async (_name, c) => {
    const res = await (await new Agent(s.t.app).start()).get(c.url());
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain(c.shows());
    expect(cacheControlOf(res)).toBe('no-store');
  });

  it('the outbox mail, refused to an account holder, is no-store too', async () => {
    const res = await (await sessionAgent(s.t, fx.holder)).get(`/api/admin/outbox/${fx.invitationMail}`);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(fx.invitationLink);
    expect(cacheControlOf(res)).toBe('no-store');
  });

  it('downloads keep their own private, no-store: a staff CSV export, a stored document, generated bylaws', async () => {
    const admin = await sessionAgent(s.t, fx.admin);
    for (const [agent, url, type] of [
      [admin, '/api/admin/accounts/export.csv', 'text/csv'],
      [admin, `/api/admin/irs-bulk-checks/${fx.bulkCheck}/result.csv`, 'text/csv'],
      [fx.applicant, `/application/upload/${fx.token}/${fx.document}`, 'application/pdf'],
      [fx.bylawsOwner, `/bylaws-generator/download/${fx.hash}`, 'application/vnd.openxmlformats'],
    ] as const) {
      const res = await agent.get(url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['content-type'], url).toContain(type);
      expect(cacheControlOf(res), url).toBe('private, no-store');
    }
  });

  it("a signed-in page's HTML shell, with the session's CSRF token, is no-store", async () => {
    const holder = await sessionAgent(s.t, fx.holder);
    const res = await holder.request('GET', '/account', undefined, { accept: 'text/html' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<meta name="csrf-token" content="[^"]+"/);
    expect(res.body).toContain('cedar.holder@example.com');
    expect(cacheControlOf(res)).toBe('no-store');
  });
});

describe('refusals of every kind are no-store', () => {
  it('401, 403, 404 (API, page, missing built file), 419, 422, 429, 400 and 414', async () => {
    const visitor = await new Agent(s.t.app).start();
    const holder = await sessionAgent(s.t, fx.holder);
    const answers: [string, number, LightMyRequestResponse][] = [
      ['a visitor asking for the account', 401, await visitor.call(accountOverviewContracts.account)],
      ['a holder asking for a staff list', 403, await holder.call(adminAccountsContracts.list)],
      ['an unknown API address', 404, await visitor.get('/api/no-such-thing')],
      ['an unknown page', 404, await visitor.request('GET', '/no-such-page', undefined, { accept: 'text/html' })],
      ['a built file that does not exist', 404, await visitor.get('/assets/index-Missing1.js')],
      ['a form without its CSRF token', 419, await visitor.request('POST', '/contact', {}, {}, false)],
      ['a form with nothing filled in', 422, await visitor.call(inquiryContracts.contact)],
      ['an address with broken percent-encoding', 400, await visitor.get('/api/accounts/%E0%A4%A/public')],
      [
        'a path parameter over the length limit',
        414,
        await visitor.call(publicProfileContracts.show, { params: { id: '9'.repeat(120) } }),
      ],
    ];
    const crowd = new Agent(s.t.app, '10.20.30.40');
    await crowd.start();
    let limited: LightMyRequestResponse | undefined;
    for (let i = 0; i < 6 && limited?.statusCode !== 429; i += 1)
      limited = await crowd.call(signInContracts.login, {
        body: { email: 'nobody@example.com', password: 'Wrong-pass-2026' },
      });
    answers.push(['sign-ins past the rate limit', 429, limited!]);
    for (const [what, status, res] of answers) {
      expect(res.statusCode, what).toBe(status);
      expect(cacheControlOf(res), what).toBe('no-store');
    }
  });
});

describe('public answers', () => {
  it('the routes declaring a public answer are exactly the table above', () => {
    const declared = Object.fromEntries(s.routes.filter((r) => r.cache).map((r) => [r.key, r.cache]));
    expect(declared).toEqual(Object.fromEntries(Object.entries(PUBLIC_ROUTES).map(([k, v]) => [k, v.kind])));
  });

  it('a built file is kept a year by any cache, starts no session, and its 304 says the same', async () => {
    const first = await s.t.app.inject({ method: 'GET', url: `/assets/${ASSET}` });
    expect(first.statusCode).toBe(200);
    expect(cacheControlOf(first)).toBe('public, max-age=31536000, immutable');
    expect(first.headers['set-cookie']).toBeUndefined();
    const again = await s.t.app.inject({
      method: 'GET',
      url: `/assets/${ASSET}`,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(cacheControlOf(again)).toBe('public, max-age=31536000, immutable');
  });

  it('public data that changes or belongs to a group is not public: prices, the search, a profile and its image', async () => {
    const visitor = await new Agent(s.t.app).start();
    for (const url of [
      '/api/pricing',
      '/search?search=verify-501c3&keyword=cedar&page=1',
      `/api/accounts/${fx.account}/public`,
      `/app/account/image/${fx.account}/${fx.image}`,
    ]) {
      const res = await visitor.get(url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(NOT_STORED, url).toContain(cacheControlOf(res));
    }
  });
});

describe('every route of the app (the route inventory)', () => {
  it('answers no-store to the person it is for and to a visitor, unless declared public', async () => {
    expect(s.routes.length).toBeGreaterThan(150);
    for (const key of Object.keys(PUBLIC_ROUTES)) expect(s.routes.map((r) => r.key)).toContain(key);
    const problems: string[] = [];
    const unanswered: string[] = [];
    for (const route of s.routes) {
      const url = addressOf(route);
      const person = personFor(route);
      const callers: Who[] = person === 'visitor' ? ['visitor'] : [person, 'visitor'];
      for (const who of callers) {
        const agent = await agentFor(who);
        const headers: Record<string, string> =
          who === 'metrics scraper' ? { authorization: `Bearer ${METRICS_TOKEN}` } : {};
        const body = ['GET', 'HEAD', 'OPTIONS'].includes(route.method) ? undefined : {};
        const res = await agent.request(route.method, url, body, headers);
        const problem = cacheProblem(route, res);
        if (problem) problems.push(`${route.key} as ${who}: ${problem}`);
        if (who === person && (RECORDS[route.key] || QUERIES[route.key]) && !isSuccess(res.statusCode))
          unanswered.push(`${route.key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(problems, 'answers with the wrong Cache-Control').toEqual([]);
    expect(unanswered, 'routes asked for a real record that did not answer it').toEqual([]);
  });

  it('asks every route of RECORDS and QUERIES, so none is left over from a route that is gone', () => {
    const known = new Set(s.routes.map((r) => r.key));
    expect([...Object.keys(RECORDS), ...Object.keys(QUERIES)].filter((k) => !known.has(k))).toEqual([]);
  });
});

describe('the rule on its own (plugins/cache-control.ts)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    await app.register(errorsPlugin, {});
    await app.register(cookie);
    await app.register(cacheControlPlugin);
    app.get('/declared', { config: { cache: 'site-file' } }, async () => 'same for all');
    app.get('/declared-with-cookie', { config: { cache: 'site-file' } }, async (_req, reply) =>
      reply.setCookie('who', 'one-person').send('same for all'),
    );
    app.get('/declared-fails', { config: { cache: 'site-file' } }, async () => {
      throw new Error('broken');
    });
    app.get('/own-public-header', async (_req, reply) =>
      reply.header('cache-control', 'public, max-age=600').send('x'),
    );
    app.get('/own-no-store', async (_req, reply) => reply.header('cache-control', 'private, no-store').send('x'));
    app.get('/redirect', async (_req, reply) => reply.redirect('/elsewhere'));
    app.get('/database-gone', async () => {
      throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    });
    await app.ready();
  });
  afterAll(async () => app?.close());

  it.each([
    ['a declared route', '/declared', 200, 'public, max-age=86400'],
    ['a declared route that sets a cookie', '/declared-with-cookie', 200, 'no-store'],
    ['a declared route that fails', '/declared-fails', 500, 'no-store'],
    ["an undeclared route's own public header", '/own-public-header', 200, 'no-store'],
    ["a route's own private, no-store", '/own-no-store', 200, 'private, no-store'],
    ['a redirect', '/redirect', 302, 'no-store'],
    ['a database that has gone away', '/database-gone', 503, 'no-store'],
    ['an unknown address', '/nowhere', 404, 'no-store'],
  ])('%s: %s answers %i with %s', async (_what, url, status, header) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(cacheControlOf(res)).toBe(header);
  });
});
