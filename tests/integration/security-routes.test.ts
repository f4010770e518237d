import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, bylaws, groups, levels, payments, users } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { bylawContracts } from '../../src/shared/contracts/bylaws.ts';
import { BYLAW_ANSWERS } from '../helpers/bylaws.ts';
import { PDF_MINIMAL, PNG_1x1 } from '../helpers/files.ts';
import {
  createInventoriedTestApp,
  databaseFingerprint,
  exemptionOf,
  type InventoriedApp,
  needsCsrf,
  sessionAgent,
} from '../helpers/routes.ts';
import { Agent, fillPath } from '../helpers/test-app.ts';
import type { Access } from '../../src/server/plugins/access.ts';
import type { LightMyRequestResponse } from 'fastify';

/**
 * Route-by-route security tables (docs/requirements/platform.md §5.2, §5.6; docs/requirements/platform.md §5.9), driven by the app's own
 * route inventory and each route's contract (who may call it, and whether it is scoped to one
 * account: src/shared/contracts/contract.ts): every state-changing route refuses a request without a valid CSRF token and
 * writes nothing; admin routes answer 401 to visitors and 403 to account holders; signed-in routes
 * answer 401 to visitors; a holder of account A asking for anything of account B gets 404 (or the
 * route acts on A alone) and reads nothing of B.
 */

/** The access levels of a signed-in user of an account (src/shared/contracts/contract.ts `Access`). */
const SIGNED_IN: ReadonlySet<Access> = new Set<Access>(['signed-in', 'account-user', 'primary-user']);

/** Path parameters naming nothing that exists, so a request that gets through changes nothing. */
const NOWHERE = {
  id: 2_000_000_000,
  fileId: 2_000_000_000,
  accountId: 2_000_000_000,
  extensionId: 2_000_000_000,
  year: 2099,
  token: 'NoSuchToken0000000000',
  hash: '0'.repeat(32),
  code: 'ZZ',
  contest: 'photo',
  name: 'no-such-job',
  ein: '000000000',
  groupId: 2_000_000_000,
  userId: 2_000_000_000,
};

const CSRF_REFUSED = 'Your session has expired. Please reload the page and try again.';

let s: InventoriedApp;
const db = () => s.t.database.db;
const checked = () => s.routes.filter((r) => exemptionOf(r) === null);

/** The fixtures of the two accounts: A asks, B is asked for. */
const fx = {} as {
  accountA: number;
  accountB: number;
  holderA: number;
  holderB: number;
  userB2: number;
  admin: number;
  applicantA: Agent;
  applicantB: Agent;
  tokenA: string;
  tokenB: string;
  invoiceB: number;
  paymentB: number;
  documentB: number;
  imageB: number;
  hashB: string;
  levelId: number;
};

/** Text that belongs to account B (and its applicant) alone: none of it may reach A. */
const B_SECRETS = {
  name: 'Birchwood Quietly Secret Boosters',
  holderEmail: 'birch.holder@example.com',
  userEmail: 'birch.second@example.com',
  applicantEmail: 'birch.applicant@example.com',
  documentName: 'birchwood-determination-letter.pdf',
  bylawName: 'Birchwood Quietly Secret Track Club',
  invoiceNumber: '',
};

async function bState(): Promise<string> {
  const applicantId = (
    await db().select({ id: users.id }).from(users).where(eq(users.email, B_SECRETS.applicantEmail))
  )[0]!.id;
  const result = await db().execute(sql`
    SELECT md5(coalesce(string_agg(t, '|' ORDER BY t), '')) AS d FROM (
      SELECT a::text AS t FROM accounts a WHERE a.id = ${fx.accountB}
      UNION ALL SELECT u::text FROM users u WHERE u.account_id = ${fx.accountB} OR u.id = ${applicantId}
      UNION ALL SELECT i::text FROM invoices i WHERE i.account_id = ${fx.accountB}
      UNION ALL SELECT p::text FROM payments p WHERE p.account_id = ${fx.accountB}
      UNION ALL SELECT ap::text FROM applications ap WHERE ap.user_id = ${applicantId} OR ap.account_id = ${fx.accountB}
      UNION ALL SELECT f::text FROM files f WHERE f.account_id = ${fx.accountB} OR f.id IN (${fx.documentB}, ${fx.imageB})
      UNION ALL SELECT b::text FROM bylaws b WHERE b.hash = ${fx.hashB}
      UNION ALL SELECT r::text FROM discount_reservations r WHERE r.account_id = ${fx.accountB}
      UNION ALL SELECT x::text FROM filing_extensions x WHERE x.account_id = ${fx.accountB}
      UNION ALL SELECT c::text FROM reinstatement_checklist c WHERE c.account_id = ${fx.accountB}
      UNION ALL SELECT o::text FROM reinstatement_orders o WHERE o.account_id = ${fx.accountB}
    ) s`);
  return (result.rows[0] as { d: string }).d;
}

function expectJsonMessage(res: LightMyRequestResponse, status: number, context: string) {
  expect(res.statusCode, `${context}: ${res.body}`).toBe(status);
  // A HEAD answer has the headers of the GET answer and no body.
  if (res.raw.req.method === 'HEAD') return;
  expect(res.headers['content-type'], context).toMatch(/^application\/json/);
  expect(typeof res.json().message, context).toBe('string');
}

function expectNothingOfB(res: LightMyRequestResponse, context: string) {
  for (const [what, text] of Object.entries(B_SECRETS)) {
    if (text) expect(res.body.includes(text), `${context} shows B's ${what}`).toBe(false);
  }
}

beforeAll(async () => {
  s = await createInventoriedTestApp();
  [{ id: fx.levelId }] = await db().select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));
  fx.accountA = (await createAccount(db(), { name: 'Alderwood Boosters', state: 'IN' })).id;
  fx.accountB = (await createAccount(db(), { name: B_SECRETS.name, state: 'IN', city: 'Birchwood' })).id;
  const dueAt = new Date(Date.now() + 20 * 86_400_000);
  await db()
    .update(accounts)
    .set({ levelId: fx.levelId, renewalDueAt: dueAt, fiscalYearEndMonth: 6 })
    .where(eq(accounts.id, fx.accountA));
  await db()
    .update(accounts)
    .set({ levelId: fx.levelId, renewalDueAt: dueAt, fiscalYearEndMonth: 6 })
    .where(eq(accounts.id, fx.accountB));
  fx.holderA = (
    await createUser(db(), { email: 'alder.holder@example.com', password: 'Alder-pass-2026', accountId: fx.accountA })
  ).id;
  fx.holderB = (
    await createUser(db(), { email: B_SECRETS.holderEmail, password: 'Birch-pass-2026', accountId: fx.accountB })
  ).id;
  fx.userB2 = (
    await createUser(db(), { email: B_SECRETS.userEmail, password: 'Birch-pass-2027', accountId: fx.accountB })
  ).id;
  fx.admin = (
    await createUser(db(), { email: 'security.admin@example.com', password: 'Admin-pass-2026', isAdmin: true })
  ).id;
  for (const [account, primary] of [
    [fx.accountA, fx.holderA],
    [fx.accountB, fx.holderB],
  ] as const) {
    await db().update(users).set({ isPrimary: true }).where(eq(users.id, primary));
    await db().update(accounts).set({ primaryUserId: primary }).where(eq(accounts.id, account));
  }

  fx.invoiceB = await createInvoice(db(), { accountId: fx.accountB, cents: 7_000, prefix: 'BIRCH' });
  await createInvoice(db(), { accountId: fx.accountA, cents: 5_000, prefix: 'ALDER' });
  B_SECRETS.invoiceNumber = (await db().execute(sql`SELECT number FROM invoices WHERE id = ${fx.invoiceB}`)).rows.map(
    (r) => (r as { number: string }).number,
  )[0]!;
  [{ id: fx.paymentB }] = await db()
    .insert(payments)
    .values({
      accountId: fx.accountB,
      userId: fx.holderB,
      method: 'card',
      status: 'paid',
      amountCents: 7_000,
      invoiceIds: [fx.invoiceB],
      idempotencyKey: randomUUID(),
      gatewayTransId: '60001234567',
      authCode: 'BIRCH1',
      accountType: 'Visa',
      accountLast4: 'XXXX1111',
      settledAt: new Date(),
    })
    .returning({ id: payments.id });

  // B's header image, uploaded by B's holder.
  const holderB = await sessionAgent(s.t, fx.holderB);
  const image = await holderB.upload(`/app/account/image/${fx.accountB}`, {}, [
    { field: 'file', fileName: 'birch.png', content: PNG_1x1, type: 'image/png' },
  ]);
  expect(image.statusCode, image.body).toBe(200);
  fx.imageB = Number(/\/(\d+)$/.exec(image.json().public_profile_image)![1]);

  // B's bylaws, created by B's holder.
  const bylaw = await holderB.call(bylawContracts.createStandard, {
    body: { ...BYLAW_ANSWERS.standard, name: B_SECRETS.bylawName },
  });
  expect(bylaw.statusCode, bylaw.body).toBe(201);
  fx.hashB = bylaw.json().bylaw.hash;
  expect((await db().select({ id: bylaws.id }).from(bylaws).where(eq(bylaws.hash, fx.hashB))).length).toBe(1);

  // Two applicants, each with a draft; B's has a document.
  const applicant = async (email: string) => {
    const a = await new Agent(s.t.app).start();
    const res = await a.call(applicationWizardContracts.start, {
      body: { email, password: 'Applicant-pass-2026', level_id: fx.levelId },
    });
    expect(res.statusCode, res.body).toBe(201);
    a.csrfToken = res.json().csrfToken;
    return { a, token: res.json().token as string };
  };
  ({ a: fx.applicantA, token: fx.tokenA } = await applicant('alder.applicant@example.com'));
  ({ a: fx.applicantB, token: fx.tokenB } = await applicant(B_SECRETS.applicantEmail));
  const doc = await fx.applicantB.upload(`/application/upload/${fx.tokenB}`, {}, [
    { field: 'file', fileName: B_SECRETS.documentName, content: PDF_MINIMAL, type: 'application/pdf' },
  ]);
  expect(doc.statusCode, doc.body).toBe(201);
  fx.documentB = doc.json().file_upload.id;
  expect(Number.isInteger(fx.documentB), doc.body).toBe(true);
});

afterAll(async () => {
  await s?.close();
});

describe('route inventory', () => {
  // Every route has a contract (route-contracts.test.ts), the API document's pages aside, which state their level in `config`.
  it('every route of the app states who may call it, in its contract, or is exempt with a reason', () => {
    expect(s.routes.length).toBeGreaterThan(50);
    const unstated = checked()
      .filter((r) => r.access === undefined || (r.contract && r.access !== r.contract.access))
      .map((r) => `${r.key}: states ${r.access ?? 'nothing'}, its contract ${r.contract?.access ?? 'is missing'}`);
    expect(unstated, 'each route states its access (src/shared/contracts/)').toEqual([]);
  });

  it("marks every route of the acting account's users as scoped, so each has a cross-account case", () => {
    const unscoped = checked()
      .filter((r) => (r.access === 'account-user' || r.access === 'primary-user') && !r.contract?.scoped)
      .map((r) => r.key);
    expect(unscoped, 'add scoped: true to the contract').toEqual([]);
  });

  it('only exempt routes opt out of the CSRF check', () => {
    expect(
      checked()
        .filter((r) => r.csrf === false)
        .map((r) => r.key),
    ).toEqual([]);
  });
});

describe('CSRF (docs/requirements/platform.md §5.2): every state-changing route refuses a request without a valid token', () => {
  it('the table of state-changing routes is taken from the app', () => {
    const changing = checked()
      .filter(needsCsrf)
      .map((r) => r.key);
    expect(changing.length).toBeGreaterThan(40);
    expect(changing).toContain('GET /app/payments/paypal/init');
    expect(changing).toContain('GET /app/payments/paypal/clear');
  });

  it.each(['admin', 'visitor'] as const)(
    "as a %s: no token, another session's token, a made-up token or a token in the body all get 419 and write nothing",
    async (who) => {
      const other = await new Agent(s.t.app).start();
      const agent = who === 'admin' ? await sessionAgent(s.t, fx.admin) : await new Agent(s.t.app).start();
      const validToken = agent.csrfToken;
      for (const route of checked().filter(needsCsrf)) {
        const url = fillPath(route.url, NOWHERE);
        const body = route.method === 'GET' ? undefined : {};
        const before = await databaseFingerprint(db());
        const attempts: [string, Record<string, string>, unknown][] = [
          ['no token', {}, body],
          ["another session's token", { 'x-csrf-token': other.csrfToken }, body],
          ['a made-up token', { 'x-csrf-token': `${validToken.slice(0, -4)}AAAA` }, body],
        ];
        if (body) attempts.push(['the token in the body', {}, { _csrf: validToken, csrfToken: validToken }]);
        for (const [what, headers, payload] of attempts) {
          const res = await agent.request(route.method, url, payload, headers, false);
          expectJsonMessage(res, 419, `${route.key} with ${what}`);
          expect(res.json().message).toBe(CSRF_REFUSED);
        }
        expect(await databaseFingerprint(db()), `${route.key} wrote while refusing`).toBe(before);
        // The same request with the session's token gets past the check: the token was the reason.
        const control = who === 'admin' ? await sessionAgent(s.t, fx.admin) : await new Agent(s.t.app).start();
        const res = await control.request(route.method, url, body);
        expect(res.statusCode, `${route.key} with a valid token: ${res.body}`).not.toBe(419);
      }
    },
  );

  it('a route without the CSRF check writes nothing (so none is missing from the table above)', async () => {
    const agents = [
      await sessionAgent(s.t, fx.admin),
      await sessionAgent(s.t, fx.holderA),
      await new Agent(s.t.app).start(),
    ];
    for (const route of checked().filter((r) => !needsCsrf(r))) {
      const before = await databaseFingerprint(db());
      for (const agent of agents) {
        const res = await agent.request(route.method, fillPath(route.url, NOWHERE), undefined, {}, false);
        expect(res.statusCode, `${route.key}: ${res.body}`).toBeLessThan(500);
      }
      expect(await databaseFingerprint(db()), `${route.key} wrote without a CSRF check`).toBe(before);
    }
  });
});

describe('who may call what (docs/requirements/platform.md §5.6)', () => {
  it('admin routes answer 401 to visitors and 403 to account holders', async () => {
    const visitor = await new Agent(s.t.app).start();
    const holder = await sessionAgent(s.t, fx.holderA);
    const adminOnly = checked().filter((r) => r.access === 'staff');
    expect(adminOnly.length).toBeGreaterThan(25);
    for (const route of adminOnly) {
      const url = fillPath(route.url, { ...NOWHERE, id: fx.accountB, fileId: fx.documentB });
      const body = route.method === 'GET' ? undefined : {};
      const before = await databaseFingerprint(db());
      expectJsonMessage(await visitor.request(route.method, url, body), 401, `${route.key} as a visitor`);
      const res = await holder.request(route.method, url, body);
      expectJsonMessage(res, 403, `${route.key} as an account holder`);
      expectNothingOfB(res, route.key);
      expect(await databaseFingerprint(db()), `${route.key} wrote for a non-admin`).toBe(before);
    }
  });

  it("group routes answer 401 to visitors and 404 to an account holder who is not one of the group's users", async () => {
    const [{ id: groupId }] = await db()
      .insert(groups)
      .values({ label: 'Birchwood Quietly Secret Council', gen: '9901' })
      .returning({ id: groups.id });
    const visitor = await new Agent(s.t.app).start();
    const holder = await sessionAgent(s.t, fx.holderB);
    const groupOnly = checked().filter((r) => r.access === 'group-user');
    expect(groupOnly.length).toBeGreaterThan(5);
    for (const route of groupOnly) {
      const url = fillPath(route.url, { ...NOWHERE, groupId, userId: fx.holderB });
      const body = route.method === 'GET' ? undefined : {};
      const before = await databaseFingerprint(db());
      expectJsonMessage(await visitor.request(route.method, url, body), 401, `${route.key} as a visitor`);
      const res = await holder.request(route.method, url, body);
      expectJsonMessage(res, 404, `${route.key} as an account holder`);
      expect(res.json().message).toBe('The group could not be found.');
      expect(res.body).not.toContain('Birchwood Quietly Secret Council');
      expect(await databaseFingerprint(db()), `${route.key} wrote for a user of no group`).toBe(before);
    }
  });

  it('primary-user routes answer 403 to a user of the account who is not its primary user, and change nothing of it', async () => {
    const cases: Record<string, () => { url: string; body: unknown }> = {
      'POST /app/account/users/store': () => ({
        url: '/app/account/users/store',
        body: { email: 'birch.third@example.com', first_name: 'New', last_name: 'User', phone: '', sms_phone: '' },
      }),
      'DELETE /app/account/users/delete/:id': () => ({ url: `/app/account/users/delete/${fx.holderB}`, body: {} }),
      'POST /app/account/users/:id/invitation': () => ({
        url: `/app/account/users/${fx.holderB}/invitation`,
        body: {},
      }),
    };
    const primaryOnly = checked().filter((r) => r.access === 'primary-user');
    expect(primaryOnly.map((r) => r.key).sort()).toEqual(Object.keys(cases).sort());
    const member = await sessionAgent(s.t, fx.userB2);
    for (const route of primaryOnly) {
      const before = await bState();
      const { url, body } = cases[route.key]!();
      expectJsonMessage(
        await member.request(route.method, url, body),
        403,
        `${route.key} as a user who is not the primary user`,
      );
      expect(await bState(), `${route.key} changed the account`).toBe(before);
    }
  });

  it('signed-in routes answer 401 to visitors', async () => {
    const visitor = await new Agent(s.t.app).start();
    for (const route of checked().filter((r) => r.access !== undefined && SIGNED_IN.has(r.access))) {
      const res = await visitor.request(
        route.method,
        fillPath(route.url, NOWHERE),
        route.method === 'GET' ? undefined : {},
      );
      expectJsonMessage(res, 401, `${route.key} as a visitor`);
    }
  });
});

/**
 * How a holder of account A (or A's applicant, or A's session for bylaws) names something of B.
 * `refused`: 404 and nothing written at all. `own`: the route ignores the other account and answers
 * for A alone (an account holder's account_id is not theirs to choose, docs/requirements/permissions.md): no 5xx, nothing of
 * B read or changed. `control`: the same request by someone allowed (an admin, or B's applicant)
 * does reach B, so the case names real objects.
 */
interface CrossCase {
  key: string;
  as: 'holderA' | 'applicantA';
  request: () => {
    url: string;
    body?: unknown;
    files?: { field: string; fileName: string; content: Buffer; type: string }[];
  };
  expect: 'refused' | 'own';
  control?: 'admin' | 'applicantB';
}

const paymentBody = (extra: Record<string, unknown>) => ({
  name: 'Ann Alder',
  address: '1 Main St',
  city: 'Indianapolis',
  state: 'IN',
  zip: '46204',
  dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT',
  dataValue: 'opaque-test-value',
  value: '70.00',
  invoices: [fx.invoiceB],
  idempotency_key: randomBytes(12).toString('hex'),
  ...extra,
});
const B = () => fx.accountB;

const CROSS_ACCOUNT: CrossCase[] = [
  {
    key: 'GET /api/invoices/:id',
    as: 'holderA',
    request: () => ({ url: `/api/invoices/${fx.invoiceB}` }),
    expect: 'refused',
    control: 'admin',
  },
  {
    key: 'GET /api/payments/:id/receipt',
    as: 'holderA',
    request: () => ({ url: `/api/payments/${fx.paymentB}/receipt` }),
    expect: 'refused',
    control: 'admin',
  },
  {
    key: 'GET /api/payments/screen',
    as: 'holderA',
    request: () => ({ url: `/api/payments/screen?account_id=${B()}` }),
    expect: 'refused',
    control: 'admin',
  },
  {
    key: 'GET /api/account/calendar',
    as: 'holderA',
    request: () => ({ url: `/api/account/calendar?account_id=${B()}` }),
    expect: 'refused',
    control: 'admin',
  },
  {
    key: 'GET /api/account/extensions',
    as: 'holderA',
    request: () => ({ url: `/api/account/extensions?account_id=${B()}` }),
    expect: 'refused',
    control: 'admin',
  },
  {
    key: 'POST /api/account/extensions',
    as: 'holderA',
    request: () => ({
      url: '/api/account/extensions',
      body: {
        account_id: B(),
        period_end: '2025-06',
        return_form: '990-EZ',
        filed_on: '2025-11-10',
        extended_due: '2026-05-15',
      },
    }),
    expect: 'refused',
  },
  {
    key: 'GET /api/account/reinstatement',
    as: 'holderA',
    request: () => ({ url: `/api/account/reinstatement?account_id=${B()}` }),
    expect: 'refused',
    control: 'admin',
  },
  {
    key: 'PUT /api/account/reinstatement',
    as: 'holderA',
    request: () => ({
      url: '/api/account/reinstatement',
      body: { account_id: B(), item: 's4_application', checked: true },
    }),
    expect: 'refused',
  },
  {
    key: 'POST /api/account/reinstatement/order',
    as: 'holderA',
    request: () => ({ url: '/api/account/reinstatement/order', body: { account_id: B() } }),
    expect: 'refused',
  },
  {
    key: 'GET /api/account/supervision',
    as: 'holderA',
    request: () => ({ url: `/api/account/supervision?account_id=${B()}` }),
    expect: 'refused',
    control: 'admin',
  },
  {
    key: 'PUT /api/account/supervision',
    as: 'holderA',
    request: () => ({ url: '/api/account/supervision', body: { account_id: B() } }),
    expect: 'refused',
  },
  {
    key: 'GET /api/account/renewal',
    as: 'holderA',
    request: () => ({ url: `/api/account/renewal?account_id=${B()}` }),
    expect: 'refused',
    control: 'admin',
  },
  {
    key: 'GET /app/account/users/json',
    as: 'holderA',
    request: () => ({ url: `/app/account/users/json?account_id=${B()}` }),
    expect: 'own',
    control: 'admin',
  },
  {
    key: 'GET /api/app/home',
    as: 'holderA',
    request: () => ({ url: `/api/app/home?account_id=${B()}` }),
    expect: 'own',
    control: 'admin',
  },
  {
    key: 'POST /api/app/determination-letter',
    as: 'holderA',
    request: () => ({
      url: `/api/app/determination-letter?account_id=${B()}`,
      files: [{ field: 'file', fileName: 'letter.pdf', content: PDF_MINIMAL, type: 'application/pdf' }],
    }),
    expect: 'own',
  },
  {
    key: 'GET /api/finances',
    as: 'holderA',
    request: () => ({ url: `/api/finances?account_id=${B()}` }),
    expect: 'own',
    control: 'admin',
  },
  { key: 'GET /api/account', as: 'holderA', request: () => ({ url: `/api/account?account_id=${B()}` }), expect: 'own' },
  {
    key: 'GET /api/account/standing-letter',
    as: 'holderA',
    request: () => ({ url: `/api/account/standing-letter?account_id=${B()}` }),
    expect: 'own',
  },
  {
    key: 'GET /app/fields/editable',
    as: 'holderA',
    request: () => ({ url: `/app/fields/editable?account_id=${B()}` }),
    expect: 'own',
  },
  {
    key: 'GET /api/invoices/unpaid',
    as: 'holderA',
    request: () => ({ url: `/api/invoices/unpaid?account_id=${B()}` }),
    expect: 'own',
  },
  {
    key: 'PUT /app/account/data',
    as: 'holderA',
    request: () => ({ url: '/app/account/data', body: { account_id: B(), account___name: 'Taken Over' } }),
    expect: 'own',
  },
  {
    key: 'POST /app/account/image/:id',
    as: 'holderA',
    request: () => ({
      url: `/app/account/image/${B()}`,
      files: [{ field: 'file', fileName: 'x.png', content: PNG_1x1, type: 'image/png' }],
    }),
    expect: 'refused',
  },
  {
    key: 'POST /app/account/empty-image/:id',
    as: 'holderA',
    request: () => ({ url: `/app/account/empty-image/${B()}`, body: {} }),
    expect: 'refused',
  },
  {
    key: 'POST /app/account/renewal',
    as: 'holderA',
    expect: 'refused',
    request: () => ({
      url: '/app/account/renewal',
      body: {
        account_id: B(),
        current_level_id: fx.levelId,
        new_level_id: fx.levelId,
        is_upgrade_selected: 0,
        is_incorporation_selected: 0,
        totals: { subtotal: '0', discount_total: '0', bonus_total: '0', order_total: '0' },
        bonus_balance: '0',
      },
    }),
  },
  {
    key: 'POST /app/account/users/store',
    as: 'holderA',
    expect: 'own',
    request: () => ({
      url: '/app/account/users/store',
      body: {
        account_id: B(),
        email: 'alder.new@example.com',
        first_name: 'New',
        last_name: 'User',
        password: 'New-user-2026',
        password_confirmation: 'New-user-2026',
      },
    }),
  },
  {
    key: 'PUT /app/account/users/update/:id',
    as: 'holderA',
    expect: 'refused',
    request: () => ({
      url: `/app/account/users/update/${fx.userB2}`,
      body: { account_id: B(), email: 'taken.over@example.com', first_name: 'Taken', last_name: 'Over' },
    }),
  },
  {
    key: 'DELETE /app/account/users/delete/:id',
    as: 'holderA',
    request: () => ({ url: `/app/account/users/delete/${fx.userB2}`, body: { account_id: B() } }),
    expect: 'refused',
  },
  {
    key: 'POST /app/account/users/:id/invitation',
    as: 'holderA',
    request: () => ({ url: `/app/account/users/${fx.userB2}/invitation`, body: { account_id: B() } }),
    expect: 'refused',
  },
  {
    key: 'POST /app/discount/reserve',
    as: 'holderA',
    request: () => ({ url: '/app/discount/reserve', body: { account_id: B(), code: 'RENEW25' } }),
    expect: 'refused',
  },
  {
    key: 'POST /app/payments/credit',
    as: 'holderA',
    request: () => ({ url: '/app/payments/credit', body: paymentBody({ account_id: B() }) }),
    expect: 'refused',
  },
  // Without account_id the payment is A's, and B's invoice is not one A may pay.
  {
    key: 'POST /app/payments/credit',
    as: 'holderA',
    request: () => ({ url: '/app/payments/credit', body: paymentBody({}) }),
    expect: 'refused',
  },
  {
    key: 'POST /app/payments/bank',
    as: 'holderA',
    request: () => ({
      url: '/app/payments/bank',
      body: paymentBody({ account_id: B(), nameOnAccount: 'Ann Alder', accountType: 'checking' }),
    }),
    expect: 'refused',
  },
  {
    key: 'POST /app/payments/zero-payment',
    as: 'holderA',
    request: () => ({
      url: '/app/payments/zero-payment',
      body: paymentBody({ account_id: B(), value: '0', discount_id: 1, discount_total: '70.00' }),
    }),
    expect: 'refused',
  },
  {
    key: 'POST /app/payments/paypal',
    as: 'holderA',
    request: () => ({
      url: '/app/payments/paypal',
      body: paymentBody({ account_id: B(), tx_id: '60001234567', token: 'EC-TOKEN', payer_id: 'PAYER' }),
    }),
    expect: 'refused',
  },
  {
    key: 'GET /app/payments/paypal/init',
    as: 'holderA',
    request: () => ({ url: `/app/payments/paypal/init?account_id=${B()}&invoices=${fx.invoiceB}&value=70.00` }),
    expect: 'refused',
  },
  {
    key: 'GET /app/payments/paypal/clear',
    as: 'holderA',
    request: () => ({ url: `/app/payments/paypal/clear?account_id=${B()}` }),
    expect: 'refused',
  },
  {
    key: 'GET /api/account/applications',
    as: 'applicantA',
    request: () => ({ url: `/api/account/applications?account_id=${B()}` }),
    expect: 'own',
  },
  {
    key: 'GET /api/applications/:token',
    as: 'applicantA',
    request: () => ({ url: `/api/applications/${fx.tokenB}` }),
    expect: 'refused',
    control: 'applicantB',
  },
  {
    key: 'PUT /application/create/:token',
    as: 'applicantA',
    request: () => ({ url: `/application/create/${fx.tokenB}`, body: { page: 1 } }),
    expect: 'refused',
  },
  {
    key: 'PATCH /application/create/:token',
    as: 'applicantA',
    request: () => ({
      url: `/application/create/${fx.tokenB}`,
      body: { page: 1, account___name: 'Taken Over Boosters' },
    }),
    expect: 'refused',
  },
  {
    key: 'GET /application/bylaws/:token',
    as: 'applicantA',
    request: () => ({ url: `/application/bylaws/${fx.tokenB}` }),
    expect: 'refused',
  },
  {
    key: 'POST /application/switch/:token',
    as: 'applicantA',
    request: () => ({ url: `/application/switch/${fx.tokenB}`, body: {} }),
    expect: 'refused',
  },
  {
    key: 'DELETE /application/delete',
    as: 'applicantA',
    request: () => ({ url: '/application/delete', body: { token: fx.tokenB } }),
    expect: 'refused',
  },
  {
    key: 'POST /application/upload/:token',
    as: 'applicantA',
    request: () => ({
      url: `/application/upload/${fx.tokenB}`,
      files: [{ field: 'file', fileName: 'letter.pdf', content: PDF_MINIMAL, type: 'application/pdf' }],
    }),
    expect: 'refused',
  },
  {
    key: 'GET /application/upload/:token/:fileId',
    as: 'applicantA',
    request: () => ({ url: `/application/upload/${fx.tokenB}/${fx.documentB}` }),
    expect: 'refused',
    control: 'applicantB',
  },
  // A's own draft, B's document id.
  {
    key: 'GET /application/upload/:token/:fileId',
    as: 'applicantA',
    request: () => ({ url: `/application/upload/${fx.tokenA}/${fx.documentB}` }),
    expect: 'refused',
  },
  {
    key: 'GET /api/bylaws/:hash',
    as: 'holderA',
    request: () => ({ url: `/api/bylaws/${fx.hashB}` }),
    expect: 'refused',
  },
  {
    key: 'PUT /bylaws-generator/:hash',
    as: 'holderA',
    request: () => ({
      url: `/bylaws-generator/${fx.hashB}`,
      body: { ...BYLAW_ANSWERS.standard, name: 'Taken Over Boosters' },
    }),
    expect: 'refused',
  },
];

describe('account A asking for account B (docs/requirements/platform.md §5.6)', () => {
  it('every account-scoped route has a case', () => {
    const covered = new Set(CROSS_ACCOUNT.map((c) => c.key));
    const scoped = checked()
      .filter((r) => r.contract?.scoped)
      .map((r) => r.key);
    expect(
      scoped.filter((k) => !covered.has(k)),
      'scoped routes without a cross-account case',
    ).toEqual([]);
    const known = new Set(s.routes.map((r) => r.key));
    expect(CROSS_ACCOUNT.filter((c) => !known.has(c.key)).map((c) => c.key)).toEqual([]);
  });

  it.each(CROSS_ACCOUNT.map((c, i) => [`${c.key} #${i}`, c] as const))('%s', async (_name, c) => {
    const route = s.routes.find((r) => r.key === c.key)!;
    const agent = c.as === 'holderA' ? await sessionAgent(s.t, fx.holderA) : fx.applicantA;
    const send = async (a: Agent) => {
      const { url, body, files } = c.request();
      if (files) return a.upload(url, {}, files);
      return a.request(route.method, url, route.method === 'GET' ? undefined : (body ?? {}));
    };
    const beforeAll = await databaseFingerprint(db());
    const beforeB = await bState();
    const res = await send(agent);
    expectNothingOfB(res, c.key);
    if (c.expect === 'refused') {
      expectJsonMessage(res, 404, c.key);
      expect(await databaseFingerprint(db()), `${c.key} wrote while refusing`).toBe(beforeAll);
    } else {
      expect(res.statusCode, `${c.key}: ${res.body}`).toBeLessThan(500);
      expect(await bState(), `${c.key} changed B`).toBe(beforeB);
    }
    if (c.control) {
      const allowed = c.control === 'admin' ? await sessionAgent(s.t, fx.admin) : fx.applicantB;
      const ok = await send(allowed);
      expect(ok.statusCode, `${c.key} for ${c.control}: ${ok.body}`).toBe(200);
    }
  });

  it('a refused request gets 404, the answer for something that does not exist', async () => {
    const holder = await sessionAgent(s.t, fx.holderA);
    const none = 1_999_999_999;
    const pairs = [
      [`/api/invoices/${fx.invoiceB}`, `/api/invoices/${none}`],
      [`/api/payments/${fx.paymentB}/receipt`, `/api/payments/${none}/receipt`],
      [`/api/payments/screen?account_id=${B()}`, `/api/payments/screen?account_id=${none}`],
      [`/api/account/calendar?account_id=${B()}`, `/api/account/calendar?account_id=${none}`],
      [`/api/applications/${fx.tokenB}`, '/api/applications/NoSuchToken0000000000'],
    ];
    for (const [url, missingUrl] of pairs) {
      const agent = url.startsWith('/api/applications/') ? fx.applicantA : holder;
      const res = await agent.get(url);
      const missing = await agent.get(missingUrl);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual(missing.json());
    }
  });
});
