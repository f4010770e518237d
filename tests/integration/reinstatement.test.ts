import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accounts,
  applications,
  auditLog,
  invoiceLines,
  invoices,
  reinstatementChecklist,
  reinstatementOrders,
  users,
} from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { billingContracts, paymentContracts } from '../../src/shared/contracts/billing.ts';
import { reinstatementContracts } from '../../src/shared/contracts/reinstatement.ts';
import { siteContracts } from '../../src/shared/contracts/site.ts';
import { workQueueContracts } from '../../src/shared/contracts/work-queue.ts';
import {
  cardPayload,
  createGatewayTestApp,
  testCard,
  tokenizeAtSimulator,
  type GatewayTestApp,
} from '../helpers/gateway.ts';
import { Agent, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * The way back for a revoked organization (docs/irs-standing.md "Reinstatement"): GET and PUT
 * /api/account/reinstatement as a client sees them. The organizations are test EINs (99-…) on an
 * Automatic Revocation List in the IRS's pipe-separated layout, loaded as a release the way the
 * work-queue and instant-check tests load tests/fixtures/irs/revocations-2026-10.txt; their IRS
 * columns are those the BMF gave them before they left it. Requests are made on 28 November 2026.
 */

/** EIN|legal name|DBA|street|city|state|ZIP|country|subsection|revoked|posted|reinstated. */
const REVOCATIONS = [
  // A Form 990-N filer, revoked for the first time, posted 10 August 2026: the 15 months end 10 November 2027.
  '990000411|TEST POSTCARD BOOSTERS INC||1 MAIN ST|ANYTOWN|OK|73501|US|03|15-MAY-2026|10-AUG-2026|',
  // A Form 990 or 990-EZ filer revoked in 2020 and reinstated in 2021, revoked again and posted on
  // 30 November 2025: there is no 30 February 2027, so the 15 months end 28 February 2027.
  '990000412|TEST TWICE REVOKED BOOSTERS INC||2 MAIN ST|ANYTOWN|OK|73501|US|03|15-MAY-2020|12-OCT-2020|01-MAR-2021',
  '990000412|TEST TWICE REVOKED BOOSTERS INC||2 MAIN ST|ANYTOWN|OK|73501|US|03|15-NOV-2025|30-NOV-2025|',
];

const STAFF = { email: 'reinstatement.staff@example.com', password: 'Staff-reinstatement-2026' };
const GRACE = { email: 'grace.postcard@example.com', password: 'Grace-reinstatement-2026' };
const TWYLA = { email: 'twyla.twice@example.com', password: 'Twyla-reinstatement-2026' };
const GWEN = { email: 'gwen.good@example.com', password: 'Gwen-reinstatement-2026' };

let gw: GatewayTestApp;
let t: TestApp;
let dir: string;
const db = () => t.database.db;
const ids = { postcard: 0, twice: 0, good: 0, staffId: 0, graceId: 0 };
let staff: Agent;
let grace: Agent;
let twyla: Agent;
let gwen: Agent;

/** `f` on 28 November 2026, just after midnight UTC (never later than the sessions were opened). */
async function on<T>(f: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T00:00:30Z') });
  try {
    return await f();
  } finally {
    vi.useRealTimers();
  }
}

const auditOf = (accountId: number) =>
  db()
    .select({ action: auditLog.action, details: auditLog.details, actor: auditLog.actorUserId })
    .from(auditLog)
    .where(eq(auditLog.accountId, accountId))
    .orderBy(auditLog.id);

const ticks = (accountId: number) =>
  db()
    .select({ key: reinstatementChecklist.itemKey, revokedOn: reinstatementChecklist.revokedOn })
    .from(reinstatementChecklist)
    .where(eq(reinstatementChecklist.accountId, accountId));

type View = {
  revocation: { revoked_on: string; posted_on: string | null; deadline: string | null } | null;
  paths: {
    section: string;
    fit: string;
    deadline: string | null;
    items: { key: string; checked_at: string | null; checked_by: string | null }[];
  }[];
  level: { id: number; name: string; price_cents: number } | null;
  order: { invoice_id: number; number: string; value_cents: number; balance_cents: number; ordered_at: string } | null;
};
const itemOf = (view: View, key: string) => view.paths.flatMap((p) => p.items).find((i) => i.key === key)!;

beforeAll(async () => {
  // Payments go through the real gateway client to the simulator on 127.0.0.1.
  gw = await createGatewayTestApp();
  t = gw.t;
  ids.postcard = (await createAccount(db(), { name: 'Test Postcard Boosters', ein: '990000411' })).id;
  ids.twice = (await createAccount(db(), { name: 'Test Twice Revoked Boosters', ein: '990000412' })).id;
  ids.good = (await createAccount(db(), { name: 'Test Good Boosters' })).id;
  // The BMF codes they had before the IRS revoked them and they left the BMF (STATUS null).
  await db()
    .update(accounts)
    .set({ filingRequirement: '02', pfFilingRequirement: '0', fiscalYearEndMonth: 12, taxPeriod: '202112' })
    .where(eq(accounts.id, ids.postcard));
  await db()
    .update(accounts)
    .set({ filingRequirement: '01', pfFilingRequirement: '0', fiscalYearEndMonth: 6, taxPeriod: '202106' })
    .where(eq(accounts.id, ids.twice));
  dir = await mkdtemp(path.join(tmpdir(), 'gs-reinstatement-'));
  const file = path.join(dir, 'revocations.txt');
  await writeFile(file, REVOCATIONS.join('\n') + '\n');
  expect(await loadIrsRelease(db(), { dataset: 'revocations', file, releasedOn: '2026-11-10' })).toMatchObject({
    status: 'loaded',
    loaded: 3,
  });

  ids.staffId = (await createUser(db(), { ...STAFF, isAdmin: true, firstName: 'Sam' })).id;
  ids.graceId = (await createUser(db(), { ...GRACE, accountId: ids.postcard, firstName: 'Grace' })).id;
  await createUser(db(), { ...TWYLA, accountId: ids.twice, firstName: 'Twyla' });
  await createUser(db(), { ...GWEN, accountId: ids.good, firstName: 'Gwen' });
  staff = await signedIn(t.app, STAFF);
  grace = await signedIn(t.app, GRACE);
  twyla = await signedIn(t.app, TWYLA);
  gwen = await signedIn(t.app, GWEN);
});
afterAll(async () => {
  await gw?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the group reads its way back and works through the checklist', () => {
  it('a first revocation of a Form 990-N filer: the streamlined process fits, 15 months from the posting date', async () => {
    const account = (await on(() => grace.call(accountOverviewContracts.account))).json().account.standing;
    expect(account.state).toBe('revoked');
    const res = await on(() => grace.call(reinstatementContracts.view));
    expect(res.statusCode).toBe(200);
    const view = res.json() as View;
    expect(view.revocation).toEqual({ revoked_on: '2026-05-15', posted_on: '2026-08-10', deadline: '2027-11-10' });
    expect(view.paths.map((p) => [p.section, p.fit, p.deadline])).toEqual([
      ['4', 'fits', '2027-11-10'],
      ['5', 'does_not_fit', '2027-11-10'],
      ['6', 'does_not_fit', null],
      ['7', 'fits', null],
    ]);
    expect(view.paths[0].items.map((i) => [i.key, i.checked_at])).toEqual([
      ['s4_application', null],
      ['s4_heading', null],
      ['s4_submit', null],
    ]);
    // The level that sells the application, as /pricing offers it.
    expect(view.level).toMatchObject({ name: 'Reinstatement application', price_cents: 59500 });
  });

  it('ticks an item, audited once; ticking it again changes nothing; unticking removes it', async () => {
    const res = await on(() =>
      grace.call(reinstatementContracts.check, { body: { item: 's4_application', checked: true } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/^Ticked: Complete Form 1023/);
    const item = itemOf(res.json().view, 's4_application');
    expect(item.checked_by).toBe('Grace');
    expect(typeof item.checked_at).toBe('string');
    expect(await ticks(ids.postcard)).toEqual([{ key: 's4_application', revokedOn: '2026-05-15' }]);

    expect(
      (await on(() => grace.call(reinstatementContracts.check, { body: { item: 's4_application', checked: true } })))
        .statusCode,
    ).toBe(200);
    expect(await auditOf(ids.postcard)).toEqual([
      {
        action: 'reinstatement_item.checked',
        actor: ids.graceId,
        details: { itemKey: 's4_application', revokedOn: '2026-05-15', onBehalf: false },
      },
    ]);
    // What the group reads next time.
    const again = (await on(() => grace.call(reinstatementContracts.view))).json() as View;
    expect(itemOf(again, 's4_application').checked_by).toBe('Grace');

    const off = await on(() =>
      grace.call(reinstatementContracts.check, { body: { item: 's4_application', checked: false } }),
    );
    expect(off.statusCode).toBe(200);
    expect(itemOf(off.json().view, 's4_application')).toMatchObject({ checked_at: null, checked_by: null });
    expect(await ticks(ids.postcard)).toEqual([]);
    expect((await auditOf(ids.postcard)).map((a) => a.action)).toEqual([
      'reinstatement_item.checked',
      'reinstatement_item.unchecked',
    ]);
  });

  it('refuses an unknown item or a missing answer with a 422 on its field, writing nothing', async () => {
    const bad = await on(() => grace.call(reinstatementContracts.check, { body: { item: 's4_bribe', checked: true } }));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ item: ['The selected item is invalid.'] });
    const missing = await on(() => grace.call(reinstatementContracts.check, { body: { item: 's4_heading' } }));
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['checked']);
    expect(await ticks(ids.postcard)).toEqual([]);
  });

  it('an organization that is not revoked has no paths, and nothing to tick (422)', async () => {
    const view = (await on(() => gwen.call(reinstatementContracts.view))).json() as View;
    expect(view).toMatchObject({ revocation: null, paths: [] });
    const res = await on(() =>
      gwen.call(reinstatementContracts.check, { body: { item: 's7_application', checked: true } }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.item[0]).toMatch(/not on the IRS Automatic Revocation List/);
    expect(await ticks(ids.good)).toEqual([]);
  });
});

describe('who may read and tick', () => {
  it('a user of another account is refused as for an account that does not exist (404), and writes nothing', async () => {
    const read = await on(() => twyla.call(reinstatementContracts.view, { query: { account_id: ids.postcard } }));
    expect(read.statusCode).toBe(404);
    const write = await on(() =>
      twyla.call(reinstatementContracts.check, {
        body: { account_id: ids.postcard, item: 's4_heading', checked: true },
      }),
    );
    expect(write.statusCode).toBe(404);
    expect(await ticks(ids.postcard)).toEqual([]);
  });

  it('a visitor is refused (401)', async () => {
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(reinstatementContracts.view)).statusCode).toBe(401);
    expect(
      (await visitor.call(reinstatementContracts.check, { body: { item: 's4_heading', checked: true } })).statusCode,
    ).toBe(401);
  });

  it('staff read and tick for any account, audited as on its behalf; the group reads "Staff"', async () => {
    const res = await on(() => staff.call(reinstatementContracts.view, { query: { account_id: ids.twice } }));
    expect(res.statusCode).toBe(200);
    const view = res.json() as View;
    // Revoked before: not the streamlined process; §5 within the 15 months from 30 November 2025.
    expect(view.revocation).toEqual({ revoked_on: '2025-11-15', posted_on: '2025-11-30', deadline: '2027-02-28' });
    expect(view.paths.map((p) => [p.section, p.fit])).toEqual([
      ['4', 'does_not_fit'],
      ['5', 'fits'],
      ['6', 'does_not_fit'],
      ['7', 'fits'],
    ]);

    const tick = await on(() =>
      staff.call(reinstatementContracts.check, {
        body: { account_id: ids.twice, item: 's5_reasonable_cause', checked: true },
      }),
    );
    expect(tick.statusCode, tick.body).toBe(200);
    expect(itemOf(tick.json().view, 's5_reasonable_cause').checked_by).toBe('Sam (staff)');
    expect(await auditOf(ids.twice)).toEqual([
      {
        action: 'reinstatement_item.checked',
        actor: ids.staffId,
        details: { itemKey: 's5_reasonable_cause', revokedOn: '2025-11-15', onBehalf: true },
      },
    ]);
    const group = (await on(() => twyla.call(reinstatementContracts.view))).json() as View;
    expect(itemOf(group, 's5_reasonable_cause').checked_by).toBe('Staff');
  });
});

describe('the Reinstatement application, offered as a level', () => {
  it('is on /pricing where levels are bought, and an application for it asks the maintain questions', async () => {
    const { level } = (await on(() => grace.call(reinstatementContracts.view))).json() as View;
    const visitor = await new Agent(t.app).start();
    const offered = (await visitor.call(siteContracts.pricing))
      .json()
      .levels.find((l: { id: number }) => l.id === level!.id);
    expect(offered).toMatchObject({
      slug: 'reinstatement',
      name: 'Reinstatement application',
      priceCents: 59500,
      priceDiscountCents: 59500,
    });
    const started = await visitor.call(applicationWizardContracts.start, {
      body: {
        email: 'revoked.treasurer@example.com',
        password: 'Revoked-treasurer-2026',
        level_id: level!.id,
      },
    });
    expect(started.statusCode, started.body).toBeLessThan(300);
    const [user] = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'revoked.treasurer@example.com'));
    const [application] = await db()
      .select({ type: applications.type, levelId: applications.levelId })
      .from(applications)
      .where(eq(applications.userId, user.id));
    // A revoked group had its determination letter: the application is of the maintain kind.
    expect(application).toEqual({ type: 'maintain', levelId: level!.id });
  });
});

describe('ordering the Reinstatement application ("Let us prepare it")', () => {
  const invoicesOf = (accountId: number) =>
    db()
      .select({ id: invoices.id, value: invoices.valueCents, balance: invoices.balanceCents })
      .from(invoices)
      .where(eq(invoices.accountId, accountId));
  const orders = (accountId: number) =>
    db()
      .select({ revokedOn: reinstatementOrders.revokedOn, invoiceId: reinstatementOrders.invoiceId })
      .from(reinstatementOrders)
      .where(eq(reinstatementOrders.accountId, accountId));

  it("a signed-in revoked group orders it: one invoice at the level's price, listed with its unpaid invoices", async () => {
    const before = (await on(() => grace.call(reinstatementContracts.view))).json() as View;
    expect(before.order).toBeNull();
    const res = await on(() => grace.call(reinstatementContracts.order));
    expect(res.statusCode, res.body).toBe(200);
    const { order, created, message } = res.json();
    expect(created).toBe(true);
    expect(order).toMatchObject({ value_cents: 59500, balance_cents: 59500 });
    expect(order.number).toMatch(/^GS-\d{6}$/);
    expect(message).toBe(`Invoice ${order.number} for the Reinstatement application is ready to pay.`);
    expect(await invoicesOf(ids.postcard)).toEqual([{ id: order.invoice_id, value: 59500, balance: 59500 }]);
    expect(
      await db()
        .select({ type: invoiceLines.type, label: invoiceLines.label, value: invoiceLines.valueCents })
        .from(invoiceLines)
        .where(eq(invoiceLines.invoiceId, order.invoice_id)),
    ).toEqual([{ type: 'reinstatement', label: 'Reinstatement application', value: 59500 }]);
    // Paid like any invoice: it is among the group's unpaid invoices on /app/payments.
    const unpaid = (await on(() => grace.call(billingContracts.unpaidInvoices))).json().invoices;
    expect(unpaid.map((i: { id: number }) => i.id)).toContain(order.invoice_id);
    // The checklist now shows the order instead of the offer.
    const after = (await on(() => grace.call(reinstatementContracts.view))).json() as View;
    expect(after.order).toMatchObject({ invoice_id: order.invoice_id, number: order.number, balance_cents: 59500 });
    expect((await auditOf(ids.postcard)).at(-1)).toEqual({
      action: 'reinstatement.ordered',
      actor: ids.graceId,
      details: { invoiceId: order.invoice_id, valueCents: 59500, revokedOn: '2026-05-15', onBehalf: false },
    });
  });

  it('paid by card, the order reads paid and staff get one "Reinstatement to prepare" work item', async () => {
    const [first] = await orders(ids.postcard);
    const opaque = await tokenizeAtSimulator(gw.urls, testCard());
    const paid = await grace.call(paymentContracts.credit, { body: cardPayload(opaque, [first.invoiceId], '595.00') });
    expect(paid.statusCode, paid.body).toBe(200);
    const view = (await grace.call(reinstatementContracts.view)).json() as View;
    expect(view.order).toMatchObject({ invoice_id: first.invoiceId, balance_cents: 0 });
    const queue = (await staff.call(workQueueContracts.list, { query: { kind: 'reinstatement_order' } })).json();
    expect(queue.total).toBe(1);
    expect(queue.data[0]).toMatchObject({
      kind_label: 'Reinstatement to prepare',
      status: 'open',
      account: { id: ids.postcard },
      summary: `Paid invoice ${view.order!.number} for the reinstatement application (revoked 2026-05-15): prepare the application with the group before 2027-11-10.`,
    });
  });

  it('ordering again, or twice at once, answers the first order and bills once', async () => {
    const [first] = await orders(ids.postcard);
    const answers = await on(() =>
      Promise.all([grace.call(reinstatementContracts.order), grace.call(reinstatementContracts.order)]),
    );
    for (const a of answers) {
      expect(a.statusCode, a.body).toBe(200);
      expect(a.json()).toMatchObject({ created: false, order: { invoice_id: first.invoiceId } });
      expect(a.json().message).toMatch(/^The reinstatement application is already ordered: invoice GS-/);
    }
    expect(await orders(ids.postcard)).toEqual([first]);
    expect(await invoicesOf(ids.postcard)).toHaveLength(1);
  });

  it('two first orders at once place one order', async () => {
    const answers = await on(() =>
      Promise.all([twyla.call(reinstatementContracts.order), twyla.call(reinstatementContracts.order)]),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json().created).sort()).toEqual([false, true]);
    expect(await orders(ids.twice)).toHaveLength(1);
    expect(await invoicesOf(ids.twice)).toHaveLength(1);
  });

  it('an organization that is not revoked cannot order it (409), and nothing is written', async () => {
    const res = await on(() => gwen.call(reinstatementContracts.order));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/not on the IRS Automatic Revocation List/);
    expect(await invoicesOf(ids.good)).toEqual([]);
    expect(await orders(ids.good)).toEqual([]);
  });

  it('a user of another account gets 404 and a visitor 401, writing nothing', async () => {
    const count = (await invoicesOf(ids.postcard)).length;
    const other = await on(() => gwen.call(reinstatementContracts.order, { body: { account_id: ids.postcard } }));
    expect(other.statusCode).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(reinstatementContracts.order)).statusCode).toBe(401);
    expect(await invoicesOf(ids.postcard)).toHaveLength(count);
  });

  it('staff order it for a group, audited as on its behalf', async () => {
    const lone = (await createAccount(db(), { name: 'Test Staff Ordered Boosters', ein: '990000413' })).id;
    // Revoked on the same list as the postcard filer: its EIN is added to the loaded release's rows.
    await db()
      .update(accounts)
      .set({ filingRequirement: '02', pfFilingRequirement: '0', fiscalYearEndMonth: 12, taxPeriod: '202112' })
      .where(eq(accounts.id, lone));
    const file = path.join(dir, 'revocations-2.txt');
    await writeFile(
      file,
      [
        ...REVOCATIONS,
        '990000413|TEST STAFF ORDERED BOOSTERS INC||3 MAIN ST|ANYTOWN|OK|73501|US|03|15-MAY-2026|10-AUG-2026|',
      ].join('\n') + '\n',
    );
    await loadIrsRelease(db(), { dataset: 'revocations', file, releasedOn: '2026-11-20' });
    const res = await on(() => staff.call(reinstatementContracts.order, { body: { account_id: lone } }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().created).toBe(true);
    expect(
      (await auditOf(lone)).map((a) => [a.action, a.actor, (a.details as { onBehalf: boolean }).onBehalf]),
    ).toEqual([['reinstatement.ordered', ids.staffId, true]]);
    expect(await invoicesOf(lone)).toEqual([{ id: res.json().order.invoice_id, value: 59500, balance: 59500 }]);
  });
});
