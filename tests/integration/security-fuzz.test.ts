import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { accounts, applications, levels, users } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { hashApplicationToken } from '../../src/server/modules/applications/application-handle.ts';
import { accountSettingsContracts } from '../../src/shared/contracts/account-settings.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { bylawContracts } from '../../src/shared/contracts/bylaws.ts';
import { BYLAW_ANSWERS } from '../helpers/bylaws.ts';
import { PNG_1x1 } from '../helpers/files.ts';
import { SAMPLE_PENALTY_FIGURES } from '../helpers/penalty-figures.ts';
import { type AppRoute, createInventoriedTestApp, exemptionOf, sessionAgent } from '../helpers/routes.ts';
import { Agent } from '../helpers/test-app.ts';
import type { LightMyRequestResponse } from 'fastify';

/**
 * Property-based fuzzing of every route of the app (docs/requirements/platform.md §5.9; docs/requirements/platform.md §5.9): arbitrary JSON,
 * real field names with hostile values (NUL bytes, lone surrogates, huge strings, wrong types,
 * nesting), arbitrary query strings, path parameters and content types, sent as a visitor, an
 * account holder and an admin, each with a valid CSRF token so the handler is reached. No answer
 * may be a 5xx or carry internal error text, and every 4xx is JSON with a message. The routes come
 * from the app itself (tests/helpers/routes.ts), so a new route is fuzzed without being listed here;
 * SAMPLES only gives the shape of a request a route accepts, for the fuzzer to spoil.
 */

/**
 * Runs per route (each picks a role); a failure prints fast-check's seed and the shrunk input.
 * FUZZ_RUNS=500 searches deeper (minutes); the default keeps the file near a minute on PGlite.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
/** Routes that hash a password on valid input (argon2id, tens of ms each) get fewer runs. */
const SLOW_RUNS = Math.ceil(RUNS / 2);

const HOLDER = { email: 'fuzz.holder@example.com', password: 'Fuzz-holder-2026' };
const ADMIN = { email: 'fuzz.admin@example.com', password: 'Fuzz-admin-2026' };

// The app is built while the test file is collected, so one test per route can be declared.
const s = await createInventoriedTestApp();
const db = s.t.database.db;
afterAll(async () => {
  await s.close();
});

const [{ id: levelId }] = await db.select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));
const accountId = (await createAccount(db, { name: 'Fuzzwood Boosters', state: 'IN', city: 'Fuzzwood' })).id;
await db
  .update(accounts)
  .set({ levelId, renewalDueAt: new Date(Date.now() + 20 * 86_400_000), fiscalYearEndMonth: 6 })
  .where(eq(accounts.id, accountId));
const adminId = (await createUser(db, { ...ADMIN, isAdmin: true })).id;
const invoiceId = await createInvoice(db, { accountId, cents: 5_000, prefix: 'FUZZ' });

// The holder started an application before the account was theirs, so their draft, bylaws and
// header image give the token, hash and file id routes real values to start from.
const starter = await new Agent(s.t.app).start();
const started = await starter.call(applicationWizardContracts.start, { body: { ...HOLDER, level_id: levelId } });
if (started.statusCode !== 201) throw new Error(`application start failed: ${started.body}`);
const draftToken: string = started.json().token;
const [{ id: holderId }] = await db.select({ id: users.id }).from(users).where(eq(users.email, HOLDER.email));
await db.update(users).set({ accountId, isPrimary: true }).where(eq(users.id, holderId));
await db.update(accounts).set({ primaryUserId: holderId }).where(eq(accounts.id, accountId));
const holder = await sessionAgent(s.t, holderId);
// A second draft for the delete route to take, so the first stays for the routes after it.
const spareToken = 'FuzzSpareDraftToken0001';
await db
  .insert(applications)
  .values({ tokenHash: hashApplicationToken(spareToken), userId: holderId, levelId, type: 'maintain' });
const bylawHash: string = (await holder.call(bylawContracts.createStandard, { body: BYLAW_ANSWERS.standard })).json()
  .bylaw.hash;
const image = await holder.upload(`/app/account/image/${accountId}`, {}, [
  { field: 'file', fileName: 'fuzz.png', content: PNG_1x1, type: 'image/png' },
]);
const imageFileId = Number(/\/(\d+)$/.exec(image.json().public_profile_image)![1]);
// The organization data form as it is filled in now: its real field names and values.
const editableFields = (await holder.call(accountSettingsContracts.editableFields)).json().fields as Record<
  string,
  unknown
>;

/** Real values for each path parameter name, mixed into the hostile ones. */
const PARAM_SAMPLES: Record<string, (string | number)[]> = {
  id: [accountId, invoiceId, holderId, adminId, 1],
  accountId: [accountId],
  fileId: [imageFileId, 1],
  token: [draftToken, spareToken],
  hash: [bylawHash],
  code: ['IN', 'wy'],
  contest: ['photo', 'video'],
  extensionId: [1],
  year: [2026, 1999],
};

const payment = {
  name: 'Fay Fuzz',
  address: '1 Main St',
  city: 'Indianapolis',
  state: 'IN',
  zip: '46204',
  dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT',
  dataValue: 'opaque-value',
  value: '50.00',
  invoices: [invoiceId],
  idempotency_key: 'fuzz-key-0123456789',
  account_id: accountId,
};
const userFields = {
  email: 'fuzz.user@example.com',
  first_name: 'Fay',
  last_name: 'Fuzz',
  phone: '317-555-0100',
  sms_phone: '',
  password: 'Fuzz-user-2026',
  password_confirmation: 'Fuzz-user-2026',
  is_primary: 0,
  account_id: accountId,
};

/** A request each route accepts (or nearly): body fields and query fields the fuzzer starts from. */
const SAMPLES: Record<string, { body?: Record<string, unknown>; query?: Record<string, string> }> = {
  'POST /login': { body: { email: HOLDER.email, password: HOLDER.password } },
  'POST /contact': {
    body: {
      name: 'Ann Lee',
      email: 'ann@example.com',
      organization: 'Lincoln Boosters',
      subject: '990 help',
      message: 'Which 990 do we file?',
    },
  },
  'POST /compliance-check': {
    body: {
      name: 'Bo Diaz',
      email: 'bo@example.com',
      phone: '(307) 555-0101',
      organization: 'Cheyenne Swim Boosters',
      ein: '12-3456789',
      group_id: '5271',
    },
  },
  'POST /multi-chapter': {
    body: {
      name: 'Cy Moss',
      email: 'cy@example.com',
      phone: '307-555-0199',
      organization: 'Alpha Beta Gamma',
      affiliates: '42',
      regions: 'regional',
      concerns: 'Late 990-N filings',
    },
  },
  'POST /campus-report': { body: { email: 'dee@example.edu', organization: 'University of Wyoming' } },
  'POST /ratings': { body: { url: '/pricing', rating: 5, reason: 'Clear prices' } },
  'POST /password/forgot': { body: { email: HOLDER.email } },
  'POST /password/reset': {
    body: {
      token: 'a'.repeat(43),
      email: HOLDER.email,
      password: 'New-pass-2026',
      password_confirmation: 'New-pass-2026',
    },
  },
  'POST /application/start': {
    body: { email: 'fuzz.applicant@example.com', password: 'Booster-club-2026', level_id: levelId },
  },
  'POST /invitation/not-me': { body: { token: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'POST /bylaws-generator': { body: BYLAW_ANSWERS.standard },
  'POST /bylaws-generator/school': { body: BYLAW_ANSWERS.school },
  'POST /bylaws-generator/short': { body: BYLAW_ANSWERS.short },
  'PUT /bylaws-generator/:hash': { body: BYLAW_ANSWERS.standard },
  'POST /contests/photo': {
    body: {
      organization: 'Fuzzwood Boosters',
      email: 'fay@example.com',
      type: 'club',
      message: 'Our team',
      is_member: 1,
    },
  },
  'POST /contests/video': {
    body: {
      organization: 'Fuzzwood Boosters',
      email: 'fay@example.com',
      type: 'club',
      message: 'Our team',
      is_member: 1,
    },
  },
  'GET /search': { query: { search: 'verify-501c3', keyword: 'boosters', page: '1' } },
  'GET /routing-numbers/data.json': { query: { rn: '121042882', callback: 'routingCallback' } },
  'PUT /app/account/data': { body: { ...editableFields, account_id: accountId } },
  'POST /app/account/renewal': {
    body: {
      account_id: accountId,
      current_level_id: levelId,
      new_level_id: levelId,
      is_upgrade_selected: 0,
      is_incorporation_selected: 0,
      totals: { subtotal: '245.00', discount_total: '0', bonus_total: '0', order_total: '245.00' },
      bonus_balance: '0',
    },
  },
  'GET /api/account/renewal': { query: { account_id: String(accountId) } },
  'GET /api/account/calendar': { query: { account_id: String(accountId) } },
  'GET /app/account/users/json': { query: { account_id: String(accountId) } },
  'POST /app/account/users/store': { body: userFields },
  'PUT /app/account/users/update/:id': { body: userFields },
  'DELETE /app/account/users/delete/:id': { body: { account_id: accountId } },
  'POST /app/account/users/:id/invitation': { body: { account_id: accountId } },
  'GET /api/finances': { query: { page: '1', account_id: String(accountId) } },
  'GET /api/payments/screen': { query: { account_id: String(accountId) } },
  'POST /app/discount/reserve': { body: { code: 'RENEW25', account_id: accountId } },
  'POST /app/payments/credit': { body: payment },
  'POST /app/payments/bank': { body: { ...payment, nameOnAccount: 'Fay Fuzz', accountType: 'checking' } },
  'POST /app/payments/zero-payment': { body: { ...payment, value: '0', discount_id: 1, discount_total: '50.00' } },
  'POST /app/payments/paypal': { body: { ...payment, tx_id: '60001234567', token: 'EC-TOKEN', payer_id: 'PAYER1' } },
  'GET /app/payments/paypal/init': {
    query: {
      invoices: String(invoiceId),
      value: '50.00',
      type: 'paypal',
      discount_id: '',
      account_id: String(accountId),
    },
  },
  'GET /app/payments/paypal/clear': { query: { account_id: String(accountId) } },
  'PUT /application/create/:token': { body: { page: 1, submit: 0, account___name: 'Fuzzwood Boosters' } },
  'DELETE /application/delete': { body: { token: spareToken } },
  'GET /api/admin/accounts': {
    query: { search: 'fuzz', level: String(levelId), status: 'active', renewal_due: '30', page: '1' },
  },
  'GET /api/admin/accounts/export.csv': {
    query: { search: 'fuzz', level: String(levelId), status: 'active', renewal_due: '30', sort: '-ein' },
  },
  'PUT /api/admin/accounts/:id/settings': {
    body: { is_suspended_from_basic_renewal: false, group_id: null, is_billed_as_group: false },
  },
  'POST /api/admin/accounts/:id/filings': { body: { tax_year: 2024, form: '990-N', filed_on: '2025-05-01' } },
  'GET /api/account/extensions': { query: { account_id: String(accountId) } },
  'POST /api/account/extensions': {
    body: {
      period_end: '2025-06',
      return_form: '990-EZ',
      filed_on: '2025-11-10',
      extended_due: '2026-05-15',
      account_id: accountId,
    },
  },
  'GET /api/admin/compliance/risk': { query: { page: '1' } },
  'GET /api/admin/work-queue': {
    query: { kind: 'left_roster', status: 'open', assignee: 'me', sort: '-created_at', page: '1' },
  },
  'GET /api/admin/work-queue/export.csv': {
    query: { kind: 'past_due', status: 'all', assignee: 'none', sort: 'account' },
  },
  'POST /api/admin/work-queue/:id/assign': { body: { assignee: 'me' } },
  'POST /api/admin/work-queue/:id/notes': { body: { body: 'Called the treasurer.' } },
  'POST /api/admin/work-queue/:id/resolve': { body: { resolution: 'Listed in the annual GEN update.' } },
  'GET /api/admin/jobs/:name/runs': { query: { page: '1' } },
  'GET /api/admin/payments': { query: { status: 'paid', method: 'card', page: '1' } },
  'GET /api/admin/payments/export.csv': { query: { status: 'paid', method: 'card', search: '1111', sort: '-status' } },
  'GET /api/admin/invoices/open': { query: { overdue: '30', page: '1' } },
  'POST /api/admin/payments/alerts/:id/review': { body: { note: 'Called the treasurer.' } },
  'GET /api/admin/invoices/open/export.csv': { query: { overdue: '30', search: 'GS-000001', sort: '-balance_cents' } },
  'GET /api/admin/inquiries': { query: { kind: 'contact', status: 'new', page: '1' } },
  'GET /api/admin/inquiries/export.csv': { query: { kind: 'contact', status: 'new', search: 'fuzz', sort: '-state' } },
  'POST /api/admin/inquiries/:id/handled': { body: { is_handled: 1 } },
  'GET /api/admin/applications': { query: { status: 'draft', page: '1' } },
  'GET /api/admin/outbox': { query: { page: '1' } },
  'GET /api/admin/outbox/export.csv': { query: { search: 'fuzz', status: 'pending', sort: '-subject' } },
  'POST /api/admin/banners': { body: { kind: 'holiday-alert', text: 'Closed Monday', is_active: 1 } },
  'PUT /api/admin/banners/:id': { body: { kind: 'urgent-alert', text: 'Closed Tuesday', is_active: 0 } },
  'GET /api/admin/discounts': { query: { page: '1' } },
  'POST /api/admin/discounts': {
    body: {
      code: 'FUZZ10',
      description: 'Fuzz',
      kind: 'fixed',
      amount: '10',
      is_new_account: 1,
      is_renewals: 1,
      is_upgrades: 0,
      is_service_fees: 0,
      starts_at: '2026-01-01',
      expires_at: '2026-12-31',
      max_redemptions: '5',
      is_active: 1,
    },
  },
  'PUT /api/admin/discounts/:id': {
    body: {
      code: 'FUZZ20',
      description: '',
      kind: 'percent',
      amount: '12.5',
      is_new_account: 0,
      is_renewals: 1,
      is_upgrades: 1,
      is_service_fees: 1,
      starts_at: '',
      expires_at: '',
      max_redemptions: '',
      is_active: 0,
    },
  },
  'PUT /api/admin/levels/:id': {
    body: {
      price: '245',
      price_discount: '200',
      upgrade_to_id: '',
      upgrade: '0',
      upgrade_discount: '0',
      inc_package: '0',
      inc_package_discount: '0',
      renewal_features: 'Renewal\nReminders',
    },
  },
  'POST /api/admin/penalty-figures': {
    body: SAMPLE_PENALTY_FIGURES,
  },
  'PUT /api/admin/states/:code': {
    body: {
      state_name: 'Indiana',
      maintain_estimate: '10',
      aoi_estimate: '20',
      notes: 'Annual report',
      filing_label: 'Business entity report',
      filing_due_month: '5',
      filing_due_day: '15',
    },
  },
  'GET /api/admin/audit': { query: { account_id: String(accountId), action: 'auth.login', page: '1' } },
  'GET /api/admin/contests/:contest/entries': { query: { page: '1', counted: 'yes' } },
  'GET /api/admin/contests/:contest/entries/export.csv': { query: { counted: 'no', search: 'fuzz', sort: '-type' } },
  'GET /admin/contests/files/:fileId': { query: { inline: '1' } },
};

// ---- what an answer may never contain -------------------------------------------------------

/** Internal error text: stack frames, source paths, driver and database messages, parser names. */
const INTERNAL_TEXT: RegExp[] = [
  /\n\s+at \S/,
  /\bat (?:async )?\S+ \(\S+:\d+:\d+\)/,
  /file:\/\//,
  /\/src\/|\/node_modules\//,
  /\.ts:\d+/,
  /syntax error/i,
  /violates/i,
  /pglite/i,
  /drizzle/i,
  /postgres/i,
  /\bSQLSTATE\b/,
  /Failed query/i,
  /invalid input syntax/i,
  /out of range for type/i,
  /duplicate key/i,
  /invalid byte sequence/i,
  /null value in column/i,
  /relation "/,
  /column "/,
  /TypeError|ReferenceError|RangeError|SyntaxError/,
  /Cannot read propert/i,
  /is not a function/,
  /ZodError|"code":"invalid_/,
  /ECONNREFUSED|ETIMEDOUT/,
  /FST_[A-Z_]+/,
];

/**
 * Checks one answer: below 500, no internal text in any textual body, and a 4xx is JSON with a
 * message. Returns false (so fast-check shrinks the input) instead of throwing.
 */
function answerIsSafe(res: LightMyRequestResponse): boolean {
  if (res.statusCode >= 500) return false;
  const type = String(res.headers['content-type'] ?? '');
  if (/json|text|javascript|xml/.test(type) || type === '') {
    if (INTERNAL_TEXT.some((re) => re.test(res.body))) return false;
  }
  if (res.statusCode >= 400) {
    if (!type.startsWith('application/json')) return false;
    // A HEAD answer carries the GET answer's headers and no body.
    if (res.raw.req.method === 'HEAD') return res.body === '';
    try {
      const message = (JSON.parse(res.body) as { message?: unknown }).message;
      if (typeof message !== 'string' || message === '') return false;
    } catch {
      return false;
    }
  }
  return true;
}

// ---- arbitraries ------------------------------------------------------------------------------

const HOSTILE = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(8),
  '\uD800',
  '\uDFFF\uD800',
  '\uFEFF',
  '\u202E',
  'ﷺ',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'e\u0301',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(0)',
  '\\',
  '\\x00',
  '%00',
  '%',
  '../../etc/passwd',
  '..\\..\\boot.ini',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '-0',
  '1e309',
  '1e-400',
  '0x10',
  '0b1',
  '1.5',
  ' 1 ',
  '١٢٣',
  '2147483647',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '99999999999999999999999999',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  'a'.repeat(256),
  'x'.repeat(70_000),
  'é'.repeat(4_000),
  '\r\nSet-Cookie: a=b',
  'line\nbreak',
  '\t',
];

/** Hostile text: random strings of every kind, known troublemakers, and real values with NUL bytes. */
const text = (sample?: unknown): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constant(String(sample ?? 'x')), fc.constantFrom('\u0000', '\u0000\u0000', '\uD800', ' \u0000 '))
        .map(([v, bad]) => `${v}${bad}`),
    },
  );

/** Any value a field could be given: hostile text, numbers of every kind, wrong types, nesting. */
const value = (sample?: unknown): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 5, arbitrary: text(sample) },
    { weight: 1, arbitrary: fc.integer() },
    {
      weight: 1,
      arbitrary: fc.constantFrom(-1, 0, 2_147_483_648, -2_147_483_649, Number.MAX_SAFE_INTEGER, 1e21, 1.5, -0),
    },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
    { weight: 1, arbitrary: fc.array(text(), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(text(), text(), { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );

/** The sample with some fields kept, some spoiled, some dropped, and maybe a few unknown ones added. */
const spoiled = (sample: Record<string, unknown>) =>
  fc
    .tuple(
      fc.record(
        Object.fromEntries(
          Object.entries(sample).map(([k, v]) => [
            k,
            fc.oneof(
              { weight: 2, arbitrary: fc.constant(v) },
              { weight: 2, arbitrary: value(v) },
              { weight: 1, arbitrary: fc.constant(undefined) },
            ),
          ]),
        ) as Record<string, fc.Arbitrary<unknown>>,
      ),
      fc.dictionary(
        fc.oneof(
          fc.constantFrom('account_id', 'id', 'user_id', 'is_admin', 'page', '__proto__'),
          fc.string({ maxLength: 10 }),
        ),
        value(),
        { maxKeys: 2 },
      ),
    )
    .map(([fields, extra]) => {
      const out: Record<string, unknown> = { ...extra };
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
      return out;
    });

/** A body as sent: JSON with its content type, or raw text under a content type of its own. */
type Body = { json: unknown } | { raw: string; type: string };

const RAW_BODIES = [
  '{',
  '{"a":',
  '[1,2',
  'null',
  '"\u0000"',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  'a=1&b=2',
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
  '\u0000\u0001\u0002',
  '',
];

const bodyArb = (sample: Record<string, unknown> | undefined): fc.Arbitrary<Body> => {
  const fields = sample ?? {};
  return fc.oneof(
    { weight: sample ? 6 : 0, arbitrary: spoiled(fields).map((json) => ({ json })) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((json) => ({ json })) },
    {
      weight: 2,
      arbitrary: fc
        .dictionary(
          fc.oneof(fc.constantFrom(...Object.keys(fields), 'account_id', 'page'), fc.string({ maxLength: 12 })),
          value(),
          { maxKeys: 6 },
        )
        .map((json) => ({ json })),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        raw: fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string({ unit: 'binary', maxLength: 60 })),
        type: fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'multipart/form-data',
          'application/xml',
          'application/json; charset=latin1',
        ),
      }),
    },
  );
};

/** Percent-encodes any string, lone surrogates included (as the UTF-8 a client would send for U+FFFD). */
const enc = (v: string) =>
  encodeURIComponent(v.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

/** Raw pieces of a query string that no well-behaved client sends. */
const RAW_QUERY = [
  '%',
  '%zz',
  '%C0%AF',
  '%ED%A0%80',
  '%00',
  '%FF%FE',
  'a[b]=1',
  'a[]=1&a[]=2',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  '&&&',
  '==',
  'page=1&page=2',
];

const queryArb = (sample: Record<string, string> | undefined): fc.Arbitrary<string> => {
  const keys = [...Object.keys(sample ?? {}), 'account_id', 'page'];
  const pair = fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: text() }),
      fc.oneof(
        { weight: 4, arbitrary: text() },
        { weight: 1, arbitrary: fc.array(text(), { minLength: 2, maxLength: 3 }) },
      ),
    )
    .map(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${enc(k)}=${enc(x)}`).join('&'));
  const fromSample = sample
    ? spoiled(sample).map((q) =>
        Object.entries(q)
          .map(([k, v]) => `${enc(k)}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`)
          .join('&'),
      )
    : fc.constant('');
  return fc.oneof(
    { weight: 3, arbitrary: fromSample },
    { weight: 3, arbitrary: fc.array(pair, { maxLength: 4 }).map((p) => p.join('&')) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fromSample, fc.constantFrom(...RAW_QUERY))
        .map(([q, raw]) => [q, raw].filter(Boolean).join('&')),
    },
  );
};

/** A path parameter: a real value, or one that is negative, huge, fractional, non-numeric or hostile. */
const paramArb = (name: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...(PARAM_SAMPLES[name] ?? ['1'])).map(String) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.integer({ min: -1_000_000, max: 1_000_000 }),
          fc.constantFrom(0, -1, 2_147_483_647, 2_147_483_648, 4_294_967_296, Number.MAX_SAFE_INTEGER),
        )
        .map((n) => enc(String(n))),
    },
    { weight: 1, arbitrary: fc.bigInt({ min: 10n ** 10n, max: 10n ** 40n }).map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '1.5',
        '1e3',
        '0x1f',
        '+1',
        ' 1',
        '1 ',
        '01',
        'NaN',
        'Infinity',
        'null',
        '%00',
        '1%00',
        '%2e%2e%2f',
        '..%2F..',
        '%FF',
        '%E0%A4%A',
        'a'.repeat(300),
      ),
    },
    {
      weight: 3,
      arbitrary: text()
        .filter((v) => v !== '')
        .map(enc),
    },
  );

const pathArb = (route: AppRoute): fc.Arbitrary<string> => {
  const names = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  if (names.length === 0) return fc.constant(route.url);
  return fc.tuple(...names.map(paramArb)).map((values) => {
    let i = 0;
    return route.url.replace(/:([A-Za-z_]+)/g, () => values[i++]!);
  });
};

// ---- the properties ---------------------------------------------------------------------------

const ROLES = ['visitor', 'holder', 'admin'] as const;
const fuzzed = s.routes.filter((r) => exemptionOf(r) === null);
const slow = new Set([
  'POST /login',
  'POST /password/reset',
  'POST /application/start',
  'POST /app/account/users/store',
  'PUT /app/account/users/update/:id',
]);

describe('fuzzing every route (docs/requirements/platform.md §5.9: no input produces a 5xx or internal text)', () => {
  it("covers the app's routes, and every sample belongs to one of them", () => {
    expect(fuzzed.length).toBeGreaterThan(80);
    const keys = new Set(fuzzed.map((r) => r.key));
    expect(Object.keys(SAMPLES).filter((k) => !keys.has(k))).toEqual([]);
    expect(Object.keys(editableFields).length).toBeGreaterThan(0);
  });

  fuzzed.forEach((route, index) => {
    it(`${route.key}`, async () => {
      const sample = SAMPLES[route.key];
      // Each role its own client address, so rate limits (counted per address) stay out of the way.
      const agents = {
        visitor: await new Agent(s.t.app, `10.9.${index}.1`).start(),
        holder: await sessionAgent(s.t, holderId, `10.9.${index}.2`),
        admin: await sessionAgent(s.t, adminId, `10.9.${index}.3`),
      };
      const takesBody = route.method !== 'GET' && route.method !== 'HEAD';
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ROLES),
          pathArb(route),
          queryArb(sample?.query),
          takesBody ? bodyArb(sample?.body) : fc.constant(undefined),
          async (role, path, query, body) => {
            const agent = agents[role];
            const url = query ? `${path}?${query}` : path;
            let res: LightMyRequestResponse;
            if (body === undefined) res = await agent.request(route.method, url);
            else if ('json' in body)
              res = await agent.request(route.method, url, JSON.stringify(body.json), {
                'content-type': 'application/json',
              });
            else res = await agent.request(route.method, url, body.raw, { 'content-type': body.type });
            // Signing in, out or up starts a new session: keep its token like the web client does.
            if (String(res.headers['content-type'] ?? '').startsWith('application/json')) {
              try {
                const token = (JSON.parse(res.body) as { csrfToken?: unknown }).csrfToken;
                if (typeof token === 'string') agent.csrfToken = token;
              } catch {
                /* not JSON after all: answerIsSafe reports it */
              }
            }
            if (!answerIsSafe(res))
              throw new Error(
                `${route.method} ${url.slice(0, 300)} as ${role} → ${res.statusCode} ${res.headers['content-type']}: ${res.body.slice(0, 500)}`,
              );
          },
        ),
        { numRuns: slow.has(route.key) ? SLOW_RUNS : RUNS },
      );
    });
  });
});
