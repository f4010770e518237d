import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { accounts, applications, groups, levels, users, workItems } from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { accountSettingsContracts, accountUserContracts } from '../../src/shared/contracts/account-settings.ts';
import { adminAccountsContracts } from '../../src/shared/contracts/admin-accounts.ts';
import { adminConsoleContracts } from '../../src/shared/contracts/admin-console.ts';
import { adminContestsContracts } from '../../src/shared/contracts/admin-contests.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { bylawContracts } from '../../src/shared/contracts/bylaws.ts';
import { inquiryContracts } from '../../src/shared/contracts/public-forms.ts';
import { workQueueContracts } from '../../src/shared/contracts/work-queue.ts';
import { EDITABLE_ACCOUNT_FIELDS } from '../../src/shared/forms/account-fields.ts';
import { readLevelWizard, type FieldDefinition } from '../../src/shared/forms/field-definition.ts';
import { valueFields } from '../../src/shared/forms/rules.ts';
import { GREEK_NAMES } from '../../src/shared/lists/greek-organizations.ts';
import { BYLAW_ANSWERS } from '../helpers/bylaws.ts';
import { PDF_MINIMAL, PNG_1x1 } from '../helpers/files.ts';
import { SAMPLE_PENALTY_FIGURES } from '../helpers/penalty-figures.ts';
import {
  type AppRoute,
  createInventoriedTestApp,
  databaseFingerprint,
  exemptionOf,
  sessionAgent,
} from '../helpers/routes.ts';
import { VALID_REPORT } from '../helpers/supervision.ts';
import { Agent, fillPath } from '../helpers/test-app.ts';

/**
 * Control characters in text (docs/security.md "Control characters in text"): every route that
 * takes a body is walked, and each text field of a request it accepts is sent once with "\r\n"
 * and once with "\u202E" (RIGHT-TO-LEFT OVERRIDE) inside its value, as an attacker would. A
 * single-line field answers 422 with its own message "The … field must be a single line without
 * control characters."; a multi-line field (a textarea) keeps the line break and answers 422
 * "The … field must not contain control characters." for the override. The routes come from the
 * app itself (tests/helpers/routes.ts): a route with a body that is neither walked here nor listed
 * with the reason it carries no text fails the test.
 */

const HOLDER = { email: 'lines.holder@example.com', password: 'Lines-holder-2026' };
const ADMIN = { email: 'lines.admin@example.com', password: 'Lines-admin-2026' };

const SINGLE_LINE = /^The .+ must be a single line without control characters\.( Please try the captcha again\.)?$/;
const NO_CONTROL = /^The .+ field must not contain control characters\.$/;
const ATTACKS = { 'CR LF': '\r\n', 'right-to-left override': '\u202E' } as const;

// The app is built while the file is collected, so one test per route can be declared.
const s = await createInventoriedTestApp();
const t = s.t;
const db = t.database.db;
afterAll(async () => {
  await s.close();
});

const [level] = await db.select().from(levels).where(eq(levels.slug, 'maintain'));
const accountId = (await createAccount(db, { name: 'Lineville Boosters', state: 'IN', city: 'Lineville' })).id;
await db.update(accounts).set({ levelId: level.id, fiscalYearEndMonth: 6 }).where(eq(accounts.id, accountId));
const adminId = (await createUser(db, { ...ADMIN, isAdmin: true })).id;
const invoiceId = await createInvoice(db, { accountId, cents: 5_000, prefix: 'LINE' });

// The holder started an application before the account was theirs: a draft and a bylaw of their own.
const starter = await new Agent(t.app).start();
const started = await starter.call(applicationWizardContracts.start, { body: { ...HOLDER, level_id: level.id } });
if (started.statusCode !== 201) throw new Error(`application start failed: ${started.body}`);
const draftToken: string = started.json().token;
const [{ id: holderId }] = await db.select({ id: users.id }).from(users).where(eq(users.email, HOLDER.email));
await db.update(users).set({ accountId, isPrimary: true }).where(eq(users.id, holderId));
await db.update(accounts).set({ primaryUserId: holderId }).where(eq(accounts.id, accountId));
const holder = await sessionAgent(t, holderId);
const admin = await sessionAgent(t, adminId);
const visitor = await new Agent(t.app).start();
const bylaw = await holder.call(bylawContracts.createStandard, { body: BYLAW_ANSWERS.standard });
if (bylaw.statusCode !== 201) throw new Error(`bylaws failed: ${bylaw.body}`);
const bylawHash: string = bylaw.json().bylaw.hash;
// A central organization's group, whose users staff invite.
const [{ id: groupId }] = await db
  .insert(groups)
  .values({ label: 'Lineville Council', gen: '9903' })
  .returning({ id: groups.id });

type Who = 'visitor' | 'holder' | 'admin';
const AGENTS: Record<Who, Agent> = { visitor, holder, admin };

/** A request a route accepts, whose text fields are spoiled one at a time. */
interface Sample {
  as: Who;
  /** One body, or several (the wizard: one per page). */
  bodies: Record<string, unknown>[];
  /** The multi-line fields (textareas): line breaks kept, other controls refused. */
  multi?: readonly string[];
  /** Sent as multipart/form-data, as the page's FormData does. */
  multipart?: boolean;
  /** Checkboxes sent as text ('1'/'0'): on or off, never kept as text. */
  flags?: readonly string[];
}

/** Path parameters: real rows where the handler reads the row before the body is checked. */
const PARAMS: Record<string, string | number> = {
  id: 1,
  token: draftToken,
  hash: bylawHash,
  code: 'IN',
  year: 2026,
  contest: 'photo',
  name: 'mail',
  groupId,
  userId: 1,
};

/** A sample value for one wizard field by its type; null for fields that carry no text. */
function wizardValue(def: FieldDefinition): string | null {
  switch (def.field_type) {
    case 'text':
    case 'hidden':
      return 'Lineville Boosters';
    case 'textarea':
      return 'We raise money for the band.';
    case 'date':
      return '2026-01-15';
    case 'state':
      return 'IN';
    case 'greek':
      return GREEK_NAMES[0];
    case 'radio':
    case 'select': {
      const options = def.options ?? {};
      return Array.isArray(options) ? (options[0]?.value ?? 'x') : (Object.keys(options)[0] ?? 'x');
    }
    default:
      return null;
  }
}

/** One body per page of fields: every shown text field with a value (conditional and disabled fields are left out). */
function pageBody(defs: FieldDefinition[], extra: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = { ...extra };
  const multi: string[] = [];
  for (const def of valueFields(defs)) {
    const value = def.is_conditional || def.is_disabled ? null : wizardValue(def);
    if (value === null) continue;
    body[def.name] = value;
    if (def.field_type === 'textarea') multi.push(def.name);
  }
  return { body, multi };
}

const wizardPages = readLevelWizard(level.schema).pages.map((p, i) => pageBody(p.schema, { page: i + 1 }));
const accountForm = pageBody(EDITABLE_ACCOUNT_FIELDS, { account_id: accountId });

/** What every payment payload carries (docs/requirements/entities.md "Payment payloads"). */
const paymentBase = { value: '50.00', invoices: [invoiceId], account_id: accountId };
const opaqueData = { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'opaque-value' };
const payment = {
  ...paymentBase,
  ...opaqueData,
  name: 'Fay Lines',
  address: '1 Main St',
  city: 'Indianapolis',
  state: 'IN',
  zip: '46204',
  phone: '317-555-0100',
  idempotency_key: 'lines-key-0123456789',
  type: 'credit_card',
};
const user = {
  email: 'lines.user@example.com',
  first_name: 'Fay',
  last_name: 'Lines',
  phone: '317-555-0100',
  sms_phone: '317-555-0101',
  is_primary: 0,
  account_id: accountId,
};
const discount = {
  code: 'LINES10',
  description: 'Spring offer',
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
};
const contestEntry = {
  organization: 'Lineville Boosters',
  email: 'fay@example.com',
  type: 'booster_club',
  message: 'Our team',
  is_member: '1',
};
const banner = { kind: 'holiday-alert', text: 'Closed Monday', is_active: 1 };
const captcha = { 'g-recaptcha-response': 'captcha-token' };

const SAMPLES: Record<string, Sample> = {
  'POST /login': { as: 'visitor', bodies: [{ email: HOLDER.email, password: HOLDER.password }] },
  'POST /password/forgot': { as: 'visitor', bodies: [{ email: HOLDER.email, ...captcha }] },
  'POST /password/reset': {
    as: 'visitor',
    bodies: [
      { token: 'a'.repeat(43), email: HOLDER.email, password: 'New-pass-2026', password_confirmation: 'New-pass-2026' },
    ],
  },
  'POST /contact': {
    as: 'visitor',
    bodies: [
      {
        name: 'Ann Lee',
        email: 'ann@example.com',
        organization: 'Lincoln Boosters',
        subject: '990 help',
        message: 'Which 990 do we file?',
        ...captcha,
      },
    ],
    multi: ['message'],
  },
  'POST /compliance-check': {
    as: 'visitor',
    bodies: [
      {
        name: 'Bo Diaz',
        email: 'bo@example.com',
        phone: '(307) 555-0101',
        organization: 'Cheyenne Swim Boosters',
        ein: '12-3456789',
        group_id: '5271',
        ...captcha,
      },
    ],
  },
  'POST /multi-chapter': {
    as: 'visitor',
    bodies: [
      {
        name: 'Cy Moss',
        email: 'cy@example.com',
        phone: '307-555-0199',
        organization: 'Alpha Beta Gamma',
        affiliates: '42',
        regions: 'regional',
        concerns: 'Late 990-N filings',
        ...captcha,
      },
    ],
    multi: ['concerns'],
  },
  'POST /campus-report': {
    as: 'visitor',
    bodies: [{ email: 'dee@example.edu', organization: 'University of Wyoming', ...captcha }],
  },
  'POST /ratings': {
    as: 'visitor',
    bodies: [{ url: '/pricing', rating: '5', comments: 'Clear prices', ...captcha }],
    multi: ['comments'],
  },
  'POST /application/start': {
    as: 'visitor',
    bodies: [
      { email: 'lines.applicant@example.com', password: 'Booster-club-2026', level_id: String(level.id), ...captcha },
    ],
  },
  'PUT /application/create/:token': {
    as: 'holder',
    bodies: wizardPages.map((p) => p.body),
    multi: wizardPages.flatMap((p) => p.multi),
  },
  'POST /bylaws-generator': { as: 'visitor', bodies: [{ ...BYLAW_ANSWERS.standard, ...captcha }], multi: ['purpose'] },
  'POST /bylaws-generator/school': { as: 'visitor', bodies: [BYLAW_ANSWERS.school], multi: ['purpose'] },
  'POST /bylaws-generator/short': { as: 'visitor', bodies: [BYLAW_ANSWERS.short], multi: ['purpose'] },
  'PUT /bylaws-generator/:hash': { as: 'holder', bodies: [BYLAW_ANSWERS.standard], multi: ['purpose'] },
  'POST /contests/photo': {
    as: 'visitor',
    bodies: [contestEntry],
    multi: ['message'],
    multipart: true,
    flags: ['is_member'],
  },
  'POST /contests/video': {
    as: 'visitor',
    bodies: [contestEntry],
    multi: ['message'],
    multipart: true,
    flags: ['is_member'],
  },
  'PUT /app/account/data': { as: 'holder', bodies: [accountForm.body], multi: accountForm.multi },
  'POST /app/account/renewal': {
    as: 'holder',
    bodies: [
      {
        account_id: accountId,
        current_level_id: String(level.id),
        new_level_id: String(level.id),
        is_upgrade_selected: 0,
        is_incorporation_selected: 0,
        totals: { subtotal: '245.00', discount_total: '0', bonus_total: '0', order_total: '245.00' },
        bonus_balance: '0',
      },
    ],
  },
  'POST /app/account/users/store': { as: 'holder', bodies: [user] },
  'PUT /app/account/users/update/:id': { as: 'holder', bodies: [{ ...user, password: '', password_confirmation: '' }] },
  'PUT /api/account/supervision': { as: 'holder', bodies: [VALID_REPORT], multi: ['officers', 'activities'] },
  'POST /app/discount/reserve': { as: 'holder', bodies: [{ code: 'RENEW25', account_id: accountId }] },
  'POST /app/payments/credit': { as: 'holder', bodies: [payment] },
  'POST /app/payments/bank': {
    as: 'holder',
    bodies: [
      {
        ...paymentBase,
        ...opaqueData,
        nameOnAccount: 'Fay Lines',
        accountType: 'checking',
        idempotency_key: 'lines-key-0123456789',
        type: 'bank_account',
      },
    ],
  },
  'POST /app/payments/zero-payment': {
    as: 'holder',
    bodies: [
      {
        ...paymentBase,
        value: '0',
        discount_id: '1',
        discount_total: '50.00',
        idempotency_key: 'lines-key-0123456789',
        type: 'zero_payment',
      },
    ],
  },
  'POST /app/payments/paypal': {
    as: 'holder',
    // No idempotency key: the PayPal session's payment row carries the attempt's.
    bodies: [{ ...paymentBase, tx_id: '60001234567', token: 'EC-TOKEN', payer_id: 'PAYER1', type: 'paypal' }],
  },
  'POST /admin/uploads': {
    as: 'admin',
    bodies: [{ create_new_accounts: '0', profile_id: '0', params: '{"source": "staff"}' }],
    multi: ['params'],
    multipart: true,
    flags: ['create_new_accounts'],
  },
  'PUT /api/admin/accounts/:id/settings': {
    as: 'admin',
    bodies: [
      {
        is_suspended_from_basic_renewal: false,
        group_id: null,
        is_billed_as_group: false,
        renewal_due_on: '2027-05-01',
      },
    ],
  },
  'POST /api/admin/accounts/:id/filings': {
    as: 'admin',
    bodies: [{ tax_year: '2024', form: '990-N', filed_on: '2025-05-01' }],
  },
  'POST /api/account/extensions': {
    as: 'holder',
    bodies: [{ period_end: '2025-06', return_form: '990-EZ', filed_on: '2025-11-10', extended_due: '2026-05-15' }],
  },
  'PUT /api/account/reinstatement': { as: 'holder', bodies: [{ item: 's4_application', checked: true }] },
  'POST /api/admin/banners': { as: 'admin', bodies: [banner], multi: ['text'] },
  'PUT /api/admin/banners/:id': { as: 'admin', bodies: [banner], multi: ['text'] },
  'POST /api/admin/discounts': { as: 'admin', bodies: [discount] },
  'PUT /api/admin/discounts/:id': { as: 'admin', bodies: [discount] },
  'PUT /api/admin/levels/:id': {
    as: 'admin',
    bodies: [
      {
        price: '245',
        price_discount: '200',
        upgrade_to_id: '2',
        upgrade: '10',
        upgrade_discount: '5',
        inc_package: '100',
        inc_package_discount: '90',
        renewal_features: 'Renewal reminders\nAnnual GEN update',
      },
    ],
    multi: ['renewal_features'],
  },
  'POST /api/admin/penalty-figures': {
    as: 'admin',
    bodies: [SAMPLE_PENALTY_FIGURES],
  },
  'PUT /api/admin/states/:code': {
    as: 'admin',
    bodies: [
      {
        state_name: 'Indiana',
        maintain_estimate: '10',
        aoi_estimate: '20',
        notes: 'Annual report online',
        filing_label: 'Business entity report',
        filing_due_month: '5',
        filing_due_day: '15',
      },
    ],
    multi: ['notes'],
  },
  'PUT /api/admin/gen-update/settings': {
    as: 'admin',
    bodies: [
      {
        group_id: '1',
        central_name: 'National Booster Club Association',
        central_ein: '12-3456789',
        accounting_period_end_month: '12',
        subsection: '03',
        uniform_purpose_statement: 'To support school activities.',
      },
    ],
    multi: ['uniform_purpose_statement'],
  },
  'POST /api/admin/gen-update/submit': {
    as: 'admin',
    bodies: [{ group_id: '1', period_end: '2026-12-31', submitted_on: '2026-11-20' }],
  },
  'POST /api/admin/supervision/education': { as: 'admin', bodies: [{ group_id: '1', year: '2026' }] },
  'POST /api/admin/work-queue/:id/assign': { as: 'admin', bodies: [{ assignee: 'me' }] },
  'POST /api/admin/work-queue/:id/notes': { as: 'admin', bodies: [{ body: 'Called the treasurer.' }], multi: ['body'] },
  'POST /api/admin/payments/alerts/:id/review': {
    as: 'admin',
    bodies: [{ note: 'Called the treasurer: their own card, typed wrong.' }],
    multi: ['note'],
  },
  'POST /invitation/not-me': { as: 'visitor', bodies: [{ token: 'a'.repeat(22) }] },
  'POST /api/app/groups/:groupId/users': {
    as: 'admin',
    bodies: [{ email: 'council.viewer@example.com', first_name: 'Pat', last_name: 'Lee', role: 'viewer' }],
  },
  'POST /api/admin/work-queue/:id/resolve': {
    as: 'admin',
    bodies: [{ resolution: 'Listed in the annual GEN update.' }],
    multi: ['resolution'],
  },
  'POST /api/admin/work-queue/:id/accept-letter': { as: 'admin', bodies: [{ letter_date: '2026-03-01' }] },
  'POST /api/admin/work-queue/:id/return-letter': {
    as: 'admin',
    bodies: [{ reason: 'Page 2 is missing.' }],
    multi: ['reason'],
  },
  ...Object.fromEntries(
    ['approve', 'decline', 'void', 'resolve'].map((action) => [
      `POST /api/admin/payments/:id/${action}`,
      { as: 'admin', bodies: [{ reason: 'Checked with the bank.' }], multi: ['reason'] } satisfies Sample,
    ]),
  ),
  'POST /api/admin/payments/:id/refund': {
    as: 'admin',
    bodies: [{ amount: '10.00', reason: 'Paid twice.' }],
    multi: ['reason'],
  },
  'POST /api/admin/payments/discrepancies/:id/resolve': {
    as: 'admin',
    bodies: [{ resolution: 'Voided at the gateway.' }],
    multi: ['resolution'],
  },
};

/**
 * Routes that take a body without a text field a person types, each with the reason. The
 * passwords and the delete's draft handle are left out of the walk below for the reasons in
 * EXEMPT_FIELDS.
 */
const NO_TEXT: Record<string, string> = {
  'POST /logout': 'no body',
  'DELETE /api/admin/banners/:id': 'no body',
  'DELETE /api/admin/penalty-figures/:year': 'no body',
  'DELETE /api/admin/accounts/:id/extensions/:extensionId': 'no body',
  'POST /api/admin/jobs/:name/run': 'no body',
  'POST /api/admin/payments/reconcile': 'no body',
  'POST /api/admin/roster-imports/:id/confirm': 'no body',
  'POST /api/admin/roster-imports/:id/discard': 'no body',
  'POST /api/admin/roster-imports/:id/undo': 'no body',
  'POST /api/admin/work-queue/:id/link-applicant': 'no body',
  'POST /api/admin/work-queue/:id/reopen': 'no body',
  'POST /api/admin/work-queue/build': 'no body',
  'POST /application/switch/:token': 'no body',
  'POST /app/account/empty-image/:id': 'no body',
  'POST /api/admin/inquiries/:id/handled': 'a checkbox',
  'POST /app/account/users/:id/invitation': 'the acting account id, a number',
  'DELETE /app/account/users/delete/:id': 'the acting account id, a number',
  'POST /api/account/reinstatement/order': 'the acting account id, a number',
  'DELETE /application/delete': "the draft's handle (token or id), which only looks the draft up",
  'PATCH /application/create/:token':
    'a draft save, kept unchecked: it keeps no refused character (see "wizard drafts" below)',
  'POST /app/account/image/:id': 'one file: its name is cleaned (see "uploaded file names" below)',
  'POST /application/upload/:token': 'one file: its name is cleaned',
  'POST /api/app/determination-letter': 'one file: its name is cleaned',
  'POST /api/admin/irs-bulk-checks': 'one file: its name is cleaned; its EINs are digits and dashes only',
  'POST /api/app/groups/:groupId/irs-bulk-checks': 'one file: its name is cleaned; its EINs are digits and dashes only',
  'DELETE /api/app/groups/:groupId/users/:userId': 'no body',
  'POST /api/app/groups/:groupId/supervision/education': 'the year, a number',
};

/** Fields that are not refused, with the reason (docs/security.md "Control characters in text"). */
const EXEMPT_FIELDS: Record<string, string> = {
  password: 'a password is never shown or kept as typed (only its hash); refusing it could lock a person out',
  password_confirmation: 'the same password again',
  current_password: "the acting user's own password",
};

/** Every string in a body with its path: 'name', 'totals.subtotal'. */
function textLeaves(body: Record<string, unknown>, prefix = ''): [string, string][] {
  return Object.entries(body).flatMap(([key, value]): [string, string][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') return [[path, value]];
    if (value && typeof value === 'object' && !Array.isArray(value))
      return textLeaves(value as Record<string, unknown>, path);
    return [];
  });
}

/** `body` with the text at `path` replaced by `value`. */
function withValue(body: Record<string, unknown>, path: string, value: string): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  if (!rest.length) return { ...body, [head]: value };
  return { ...body, [head]: withValue(body[head] as Record<string, unknown>, rest.join('.'), value) };
}

/** The sample's value with the control character in its middle, as an attacker hides it. */
const spoiled = (value: string, control: string) => {
  const at = Math.max(1, Math.ceil(value.length / 2));
  return value.length > 1 ? `${value.slice(0, at)}${control}${value.slice(at)}` : `a${control}b`;
};

async function send(route: AppRoute, sample: Sample, body: Record<string, unknown>) {
  const agent = AGENTS[sample.as];
  const url = fillPath(route.url, PARAMS);
  if (sample.multipart) {
    const fields = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
    const file =
      route.url === '/admin/uploads'
        ? [{ field: 'uploads[]', fileName: 'notes.txt', content: Buffer.from('notes\n'), type: 'text/plain' }]
        : [];
    return agent.upload(url, fields, file);
  }
  return agent.request(route.method, url, body);
}

const walked = s.routes.filter((r) => exemptionOf(r) === null && !['GET', 'HEAD', 'OPTIONS'].includes(r.method));

describe('every text field of every route refuses control characters (docs/security.md "Control characters in text")', () => {
  it('walks every route that takes a body, or names why it has no text field', () => {
    const unlisted = walked.filter((r) => !(r.key in SAMPLES) && !(r.key in NO_TEXT)).map((r) => r.key);
    expect(unlisted, 'routes with a body that are neither walked nor listed').toEqual([]);
    const keys = new Set(walked.map((r) => r.key));
    const stale = [...Object.keys(SAMPLES), ...Object.keys(NO_TEXT)].filter((k) => !keys.has(k));
    expect(stale, 'entries naming no route').toEqual([]);
  });

  for (const route of walked.filter((r) => r.key in SAMPLES)) {
    const sample = SAMPLES[route.key];
    it(`${route.key}`, async () => {
      let checked = 0;
      for (const body of sample.bodies) {
        for (const [path, value] of textLeaves(body)) {
          if (path in EXEMPT_FIELDS || sample.flags?.includes(path)) continue;
          const multi = sample.multi?.includes(path) ?? false;
          for (const [attack, control] of Object.entries(ATTACKS)) {
            const res = await send(route, sample, withValue(body, path, spoiled(value, control)));
            const where = `${route.key} ${path} with ${attack}: ${res.statusCode} ${res.body.slice(0, 300)}`;
            expect(res.statusCode, where).toBeLessThan(500);
            const errors = res.statusCode === 422 ? (res.json().errors as Record<string, string[]>) : {};
            if (multi && control === '\r\n') {
              // A textarea keeps its line breaks: whatever else the answer says, not about this field.
              expect(errors[path], where).toBeUndefined();
            } else {
              expect(res.statusCode, where).toBe(422);
              expect(errors[path]?.[0], where).toMatch(multi ? NO_CONTROL : SINGLE_LINE);
              expect(res.body, where).not.toContain(control === '\r\n' ? '\\r\\n' : control);
            }
            checked++;
          }
        }
      }
      expect(checked, 'text fields found in the sample').toBeGreaterThan(0);
    });
  }
});

describe('the fields of the issue, with the words a person reads', () => {
  /** The 422 errors of a request, after asserting it is one. */
  const refusal = async (res: Awaited<ReturnType<Agent['post']>>) => {
    expect(res.statusCode, res.body).toBe(422);
    return res.json().errors as Record<string, string[]>;
  };

  it("an account user's names and e-mail: nothing is stored", async () => {
    const before = await databaseFingerprint(db);
    const newUser = { ...user, email: 'eve@example.com' };
    expect(
      (
        await refusal(
          await holder.call(accountUserContracts.store, {
            body: { ...newUser, first_name: 'Eve\r\nBcc: x@evil.example' },
          }),
        )
      ).first_name,
    ).toEqual(['The first name field must be a single line without control characters.']);
    expect(
      (
        await refusal(
          await holder.call(accountUserContracts.store, { body: { ...newUser, last_name: 'Lee\u202Etxt.exe' } }),
        )
      ).last_name,
    ).toEqual(['The last name field must be a single line without control characters.']);
    expect(
      (
        await refusal(
          await holder.call(accountUserContracts.store, {
            body: {
              ...newUser,
              email: 'eve@example.com\r\nBcc: x@evil.example',
            },
          }),
        )
      ).email,
    ).toEqual(['The email field must be a single line without control characters.']);
    expect(await databaseFingerprint(db)).toBe(before);
  });

  it('the application start: the e-mail', async () => {
    const errors = await refusal(
      await visitor.call(applicationWizardContracts.start, {
        body: {
          email: 'new\r\n@example.com',
          password: 'Booster-club-2026',
          level_id: level.id,
        },
      }),
    );
    expect(errors.email).toEqual(['The email field must be a single line without control characters.']);
  });

  it('a public form: one-line fields refused, the message keeps its lines but not an override', async () => {
    const contact = {
      name: 'Ann Lee',
      email: 'ann@example.com',
      organization: 'Lincoln Boosters',
      subject: '990 help',
      message: 'Which 990 do we file?',
    };
    const name = await refusal(
      await visitor.call(inquiryContracts.contact, { body: { ...contact, name: 'Ann\r\nLee' } }),
    );
    expect(name.name).toEqual(['The name field must be a single line without control characters.']);
    const organization = await refusal(
      await visitor.call(inquiryContracts.contact, { body: { ...contact, organization: '\u202EsretsooB' } }),
    );
    expect(organization.organization).toEqual([
      'The organization field must be a single line without control characters.',
    ]);
    const override = await refusal(
      await visitor.call(inquiryContracts.contact, { body: { ...contact, message: 'Hello\u202E there' } }),
    );
    expect(override.message).toEqual(['The message field must not contain control characters.']);
    const lines = await visitor.call(inquiryContracts.contact, {
      body: { ...contact, message: 'First line\r\nSecond line' },
    });
    expect(lines.statusCode, lines.body).toBe(201);
  });

  it('the billing name and address of a card payment', async () => {
    const errors = await refusal(
      await holder.call(paymentContracts.credit, {
        body: { ...payment, name: 'Fay\r\nLines', city: 'India\u202Enapolis' },
      }),
    );
    expect(errors.name).toEqual(['The name on card field must be a single line without control characters.']);
    expect(errors.city).toEqual(['The city field must be a single line without control characters.']);
  });

  it("the bylaws generator's one-line answers; the purpose keeps its lines", async () => {
    const errors = await refusal(
      await visitor.call(bylawContracts.createStandard, {
        body: {
          ...BYLAW_ANSWERS.standard,
          name: 'Soldotna\r\nTrack Boosters',
          facility: 'Soldotna \u2066High School',
        },
      }),
    );
    expect(errors.name).toEqual(['The organization name field must be a single line without control characters.']);
    expect(errors.facility).toEqual(['The school or facility field must be a single line without control characters.']);
    const purpose = await visitor.call(bylawContracts.createStandard, {
      body: {
        ...BYLAW_ANSWERS.standard,
        purpose: 'To buy equipment.\nTo pay travel costs.',
      },
    });
    expect(purpose.statusCode, purpose.body).toBe(201);
  });

  it('a staff discount code and its description', async () => {
    const errors = await refusal(
      await admin.call(adminConsoleContracts.createDiscount, {
        body: { ...discount, code: 'SPRING\u202E25', description: 'Spring\r\noffer' },
      }),
    );
    expect(errors.code).toEqual(['The code field must be a single line without control characters.']);
    expect(errors.description).toEqual(['The description field must be a single line without control characters.']);
  });

  it('the organization data form and a wizard page name the field by its label', async () => {
    const form = await refusal(
      await holder.call(accountSettingsContracts.saveData, {
        body: { ...accountForm.body, account___name: 'Lineville\r\nBoosters' },
      }),
    );
    expect(form.account___name).toEqual([
      'The organization name field must be a single line without control characters.',
    ]);
    const [first] = wizardPages;
    const name = Object.keys(first.body).find((k) => k !== 'page' && !first.multi.includes(k))!;
    const page = await refusal(
      await holder.call(applicationWizardContracts.savePage, {
        params: { token: draftToken },
        body: { ...first.body, [name]: 'A\u202EB' },
      }),
    );
    expect(page[name]?.[0]).toMatch(SINGLE_LINE);
  });
});

describe('wizard drafts (docs/wizard.md "Saving as you type")', () => {
  it('a draft save keeps the answers as typed, without a character its field refuses', async () => {
    const defs = readLevelWizard(level.schema).pages[0].schema;
    const text = valueFields(defs).find((d) => d.field_type === 'text' && !d.is_disabled)!;
    const res = await holder.request('PATCH', `/application/create/${draftToken}`, {
      page: 1,
      [text.name]: 'Line\r\nville \u202EBoosters',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [draft] = await db
      .select({ fields: applications.fields })
      .from(applications)
      .where(eq(applications.userId, holderId));
    expect(draft.fields[text.name]).toBe('Lineville Boosters');
  });
});

describe('uploaded file names (docs/security.md "Control characters in text")', () => {
  /** Nothing a staff member reads may hold a control, bidirectional control or direction mark. */
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

  /**
   * A multipart body built by hand, as a script (not a browser) sends it: the file's name in
   * RFC 5987 form (`filename*=UTF-8''…`), which can carry any character percent-encoded.
   */
  function rawMultipart(fields: Record<string, string>, file: { field: string; encodedName: string; content: Buffer }) {
    const boundary = 'lines-boundary-0123456789';
    const parts = Object.entries(fields).map(
      ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
    );
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename*=UTF-8''${file.encodedName}\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n';
    return {
      payload: Buffer.concat([
        Buffer.from(parts.join('') + head),
        file.content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      contentType: `multipart/form-data; boundary=${boundary}`,
    };
  }

  it("a group's IRS letter named \\u202Ecod.pdf (shown as 'fdp.doc') reaches staff as cod.pdf", async () => {
    const group = await createAccount(db, { name: 'Override Letter Boosters', ein: '93-0000077' });
    await db
      .update(accounts)
      .set({
        data: {
          account___has_501c: '2',
          account___exemption_form: '1023-EZ',
          account___exemption_filed_on: '2026-09-14',
        },
      })
      .where(eq(accounts.id, group.id));
    const member = await createUser(db, {
      email: 'override.letter@example.com',
      password: 'Override-2026',
      accountId: group.id,
    });
    const agent = await sessionAgent(t, member.id);
    const up = await agent.upload('/api/app/determination-letter', {}, [
      { field: 'file', fileName: '\u202Ecod.pdf', content: PDF_MINIMAL, type: 'application/pdf' },
    ]);
    expect(up.statusCode, up.body).toBe(201);

    const [item] = await db.select().from(workItems).where(eq(workItems.accountId, group.id));
    const detail = await admin.call(workQueueContracts.show, { params: { id: item.id } });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().letter.file_name).toBe('cod.pdf');
    const download = await admin.call(workQueueContracts.letter, { params: { id: item.id } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="cod.pdf"; filename*=UTF-8''cod.pdf`);
    const page = await admin.call(adminAccountsContracts.show, { params: { id: group.id } });
    expect(page.statusCode).toBe(200);
    expect(page.json().files.map((f: { file_name: string }) => f.file_name)).toEqual(['cod.pdf']);
    for (const res of [detail, page]) expect(res.body).not.toMatch(UNSAFE);
    const stored = (await db.execute(sql`SELECT file_name FROM files WHERE account_id = ${group.id}`)).rows;
    expect(stored).toEqual([{ file_name: 'cod.pdf' }]);
  });

  it('a contest photo whose name carries a tab, a C1 control, an isolate and a mark is kept and listed without them', async () => {
    const { payload, contentType } = rawMultipart(
      { ...contestEntry, organization: 'Override Boosters', email: 'override@example.com' },
      // "team\t\u0085\u2067gnp\u200F.png"
      { field: 'file', encodedName: 'team%09%C2%85%E2%81%A7gnp%E2%80%8F.png', content: PNG_1x1 },
    );
    const entry = await visitor.request('POST', '/contests/photo', payload, { 'content-type': contentType });
    expect(entry.statusCode, entry.body).toBe(201);
    const list = await admin.call(adminContestsContracts.entries, {
      params: { contest: 'photo' },
      query: { search: 'override' },
    });
    expect(list.statusCode).toBe(200);
    const [row] = list.json().data;
    expect(row.file_name).toBe('teamgnp.png');
    const csv = await admin.call(adminContestsContracts.entriesCsv, {
      params: { contest: 'photo' },
      query: { search: 'override' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('teamgnp.png');
    expect(list.body).not.toMatch(UNSAFE);
    // The export's rows end with CRLF (RFC 4180); nothing else in it may be a control.
    expect(csv.body.replace(/\r\n/g, '')).not.toMatch(UNSAFE);
  });

  it('a file whose name carries CR LF, even percent-encoded, is never taken', async () => {
    const { payload, contentType } = rawMultipart(
      { ...contestEntry, organization: 'Header Boosters', email: 'header@example.com' },
      { field: 'file', encodedName: 'team%0D%0AContent-Type%3A%20text%2Fhtml.png', content: PNG_1x1 },
    );
    const entry = await visitor.request('POST', '/contests/photo', payload, { 'content-type': contentType });
    // The parser skips the part: a booster club's entry then lacks its file.
    expect(entry.statusCode, entry.body).toBe(422);
    expect(entry.json().errors).toEqual({ file: ['The file field is required.'] });
  });

  it('a name stored before the rule is shown, exported and downloaded without its controls', async () => {
    // Written as an older version of the product kept it: straight into the column.
    const old = '\u202Ecod\t\u0085.pdf';
    await db.execute(
      sql`UPDATE files SET file_name = ${old} WHERE id = (SELECT file_id FROM contest_entries WHERE email = 'override@example.com')`,
    );
    const raw = await db.execute(
      sql`SELECT f.file_name FROM files f JOIN contest_entries e ON e.file_id = f.id WHERE e.email = 'override@example.com'`,
    );
    expect(raw.rows).toEqual([{ file_name: old }]);
    const list = await admin.call(adminContestsContracts.entries, {
      params: { contest: 'photo' },
      query: { search: 'override' },
    });
    const [row] = list.json().data;
    expect(row.file_name).toBe('cod.pdf');
    const csv = await admin.call(adminContestsContracts.entriesCsv, {
      params: { contest: 'photo' },
      query: { search: 'override' },
    });
    expect(csv.body).toContain('cod.pdf');
    const file = await admin.call(adminContestsContracts.entryFile, { params: { fileId: row.file_id } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="cod.pdf"; filename*=UTF-8''cod.pdf`);
    expect(list.body).not.toMatch(UNSAFE);
    // The export's rows end with CRLF (RFC 4180); nothing else in it may be a control.
    expect(csv.body.replace(/\r\n/g, '')).not.toMatch(UNSAFE);
  });
});
