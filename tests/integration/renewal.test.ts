import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/server/db/pg-errors.ts';
import { accounts, auditLog, invoiceLines, invoices, levels, renewals } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { accountSettingsContracts } from '../../src/shared/contracts/account-settings.ts';
import { paymentContracts } from '../../src/shared/contracts/billing.ts';
import { RENEWAL_MESSAGES } from '../../src/shared/schemas/renewal.ts';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';

/**
 * The renewal action (docs/requirements/product.md tool 13, docs/requirements/entities.md "Renewal form payload", docs/requirements/behaviour.md "Renewal", docs/requirements/validation.md, docs/requirements/permissions.md, docs/requirements/calls.md): the
 * server recomputes the totals, bills the renewal with typed lines, and renews the account once
 * its invoice is paid.
 */

let t: TestApp;
let levelId: Record<string, number>;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.database.db.select({ id: levels.id, slug: levels.slug }).from(levels);
  levelId = Object.fromEntries(rows.map((r) => [r.slug, r.id]));
  await createUser(t.database.db, { email: 'renewal.admin@example.com', password: 'Admin-pass-789', isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

/** A holder of a new account at `slug`, due in `dueInDays`. */
async function holderAt(
  slug: string,
  opts: { dueInDays?: number; bonusCents?: number; suspended?: boolean } = {},
): Promise<{ agent: Agent; accountId: number; dueAt: Date }> {
  const db = t.database.db;
  const email = `renewal.${randomUUID().slice(0, 8)}@example.com`;
  const account = await createAccount(db, { name: `Renewing Boosters ${email.slice(8, 16)}` });
  const dueAt = new Date(Date.now() + (opts.dueInDays ?? 45) * DAY);
  await db
    .update(accounts)
    .set({
      levelId: levelId[slug],
      renewalDueAt: dueAt,
      bonusBalanceCents: opts.bonusCents ?? 0,
      isSuspendedFromBasicRenewal: opts.suspended ?? false,
    })
    .where(eq(accounts.id, account.id));
  await createUser(db, { email, password: 'Renew-pass-123', accountId: account.id });
  return { agent: await signedIn(t.app, { email, password: 'Renew-pass-123' }), accountId: account.id, dueAt };
}

const payload = (accountId: number, over: Record<string, unknown> = {}) => ({
  account_id: accountId,
  current_level_id: levelId.maintain,
  new_level_id: levelId['full-service'],
  is_upgrade_selected: 1,
  is_incorporation_selected: 1,
  totals: { subtotal: '1245.00', discount_total: '100.00', bonus_total: '0.00', order_total: '1145.00' },
  bonus_balance: '0.00',
  ...over,
});

describe('GET /api/account/renewal', () => {
  it('offers the renewal alone at first: the paid upgrade and incorporation package unticked', async () => {
    const { agent, accountId, dueAt } = await holderAt('maintain');
    const res = await agent.call(accountOverviewContracts.renewal);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      action: '/app/account/renewal',
      is_early_bird: true,
      needs_990_copy: true,
      window: {
        state: 'open',
        opens_at: new Date(dueAt.getTime() - 60 * DAY).toISOString(),
        closes_at: new Date(dueAt.getTime() + 30 * DAY).toISOString(),
      },
      account: { id: accountId, bonus_balance_cents: 0, is_suspended_from_basic_renewal: false },
      level: {
        id: levelId.maintain,
        price_cents: 34_500,
        price_discount_cents: 29_500,
        upgrade_to: { id: levelId['full-service'], upgrade_cents: 65_000 },
      },
      initial_choice: { isUpgradeSelected: false, isIncorporationSelected: false, newLevelId: levelId.maintain },
      open_invoice: null,
    });
  });

  it('says when renewal opens for an account due in more than 60 days, and that it closed after the grace period', async () => {
    const early = await holderAt('maintain', { dueInDays: 200 });
    expect((await early.agent.call(accountOverviewContracts.renewal)).json().window).toMatchObject({
      state: 'not_yet',
      opens_at: new Date(early.dueAt.getTime() - 60 * DAY).toISOString(),
    });
    const lapsed = await holderAt('maintain', { dueInDays: -31 });
    expect((await lapsed.agent.call(accountOverviewContracts.renewal)).json().window.state).toBe('closed');
  });
});

describe('when renewal is offered (docs/renewals.md)', () => {
  const plain = (accountId: number) =>
    payload(accountId, {
      new_level_id: levelId.maintain,
      is_upgrade_selected: 0,
      is_incorporation_selected: 0,
      totals: { subtotal: '345.00', discount_total: '50.00', bonus_total: '0.00', order_total: '295.00' },
    });

  it('refuses a holder more than 60 days before the due date and after the grace period, and writes nothing', async () => {
    const before = (await t.database.db.select().from(invoices)).length;
    const early = await holderAt('maintain', { dueInDays: 61 });
    const tooEarly = await early.agent.call(accountSettingsContracts.renew, { body: plain(early.accountId) });
    expect(tooEarly.statusCode).toBe(422);
    expect(tooEarly.json().errors.account_id).toEqual([RENEWAL_MESSAGES.notYet]);
    const lapsed = await holderAt('maintain', { dueInDays: -31 });
    const closed = await lapsed.agent.call(accountSettingsContracts.renew, {
      body: payload(lapsed.accountId, {
        new_level_id: levelId.maintain,
        is_upgrade_selected: 0,
        is_incorporation_selected: 0,
        totals: { subtotal: '345.00', discount_total: '0.00', bonus_total: '0.00', order_total: '345.00' },
      }),
    });
    expect(closed.statusCode).toBe(422);
    expect(closed.json().errors.account_id).toEqual([RENEWAL_MESSAGES.windowClosed]);
    expect((await t.database.db.select().from(invoices)).length).toBe(before);
  });

  it('lets staff renew an account outside the window', async () => {
    const early = await holderAt('maintain', { dueInDays: 200 });
    const admin = await signedIn(t.app, { email: 'renewal.admin@example.com', password: 'Admin-pass-789' });
    const res = await admin.call(accountSettingsContracts.renew, { body: plain(early.accountId) });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a paid renewal is not offered again a year early', async () => {
    const { agent, accountId } = await holderAt('maintain', { dueInDays: 20, bonusCents: 100_000 });
    const paid = await agent.call(accountSettingsContracts.renew, {
      body: payload(accountId, {
        new_level_id: levelId.maintain,
        is_upgrade_selected: 0,
        is_incorporation_selected: 0,
        totals: { subtotal: '345.00', discount_total: '50.00', bonus_total: '295.00', order_total: '0.00' },
        bonus_balance: '1000.00',
      }),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await agent.call(accountOverviewContracts.renewal)).json()).toMatchObject({
      window: { state: 'not_yet' },
      open_invoice: null,
    });
    const second = await agent.call(accountSettingsContracts.renew, {
      body: payload(accountId, {
        new_level_id: levelId.maintain,
        is_upgrade_selected: 0,
        is_incorporation_selected: 0,
        totals: { subtotal: '345.00', discount_total: '50.00', bonus_total: '295.00', order_total: '0.00' },
        bonus_balance: '705.00',
      }),
    });
    expect(second.statusCode).toBe(422);
    expect(second.json().errors.account_id).toEqual([RENEWAL_MESSAGES.notYet]);
  });
});

describe('one open renewal per account (docs/renewals.md)', () => {
  it('two submits at once bill one renewal; the other is told a renewal is waiting', async () => {
    const { agent, accountId } = await holderAt('maintain');
    const [a, b] = await Promise.all([
      agent.call(accountSettingsContracts.renew, { body: payload(accountId) }),
      agent.call(accountSettingsContracts.renew, { body: payload(accountId) }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 422]);
    const refused = a.statusCode === 422 ? a : b;
    expect(refused.json().errors.account_id).toEqual([RENEWAL_MESSAGES.alreadyOpen]);
    expect(await t.database.db.select().from(renewals).where(eq(renewals.accountId, accountId))).toHaveLength(1);
  });

  it('the database refuses a second open renewal written past the service, and allows one once the first is applied', async () => {
    const { agent, accountId } = await holderAt('maintain');
    const first = await agent.call(accountSettingsContracts.renew, { body: payload(accountId) });
    expect(first.statusCode, first.body).toBe(200);
    const [open] = await t.database.db.select().from(renewals).where(eq(renewals.accountId, accountId));
    const [second] = await t.database.db
      .insert(invoices)
      .values({ accountId, number: `GS-TEST-${accountId}`, valueCents: 100, balanceCents: 100 })
      .returning({ id: invoices.id });
    const row = {
      accountId,
      invoiceId: second.id,
      currentLevelId: levelId.maintain,
      newLevelId: levelId.maintain,
      isUpgradeSelected: false,
      isIncorporationSelected: false,
    };
    const refused = await t.database.db
      .insert(renewals)
      .values(row)
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isUniqueViolation(refused)).toBe(true);
    await t.database.db.update(renewals).set({ appliedAt: new Date() }).where(eq(renewals.id, open.id));
    await t.database.db.insert(renewals).values(row);
  });
});

describe('POST /app/account/renewal', () => {
  it('bills the upgrade and incorporation at early-bird prices with typed lines, then refuses a second one while it is unpaid', async () => {
    const { agent, accountId } = await holderAt('maintain');
    const res = await agent.call(accountSettingsContracts.renew, { body: payload(accountId) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ redirect: '/app/payments' });
    const invoiceId = res.json().invoice_id;
    const [invoice] = await t.database.db.select().from(invoices).where(eq(invoices.id, invoiceId));
    expect(invoice).toMatchObject({ accountId, valueCents: 114_500, balanceCents: 114_500 });
    expect(invoice.number).toMatch(/^GS-\d{6}$/);
    const lines = await t.database.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId));
    // Each item at its list price, and each early-bird reduction as a named line of the item's type.
    expect(lines.map((l) => [l.type, l.valueCents])).toEqual([
      ['renewal', 34_500],
      ['renewal', -5_000],
      ['upgrade', 65_000],
      ['upgrade', -5_000],
      ['incorporation', 25_000],
    ]);
    expect(lines[1].label).toBe('Early-bird discount (Annual renewal — Maintain an existing exemption)');
    expect(lines[2].label).toMatch(/^Upgrade to /);
    expect(lines[3].label).toMatch(/^Early-bird discount \(Upgrade to /);

    const again = await agent.call(accountSettingsContracts.renew, { body: payload(accountId) });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.account_id).toEqual([RENEWAL_MESSAGES.alreadyOpen]);
    expect((await agent.call(accountOverviewContracts.renewal)).json().open_invoice).toMatchObject({
      id: invoiceId,
      balance_cents: 114_500,
    });
  });

  it('refuses tampered totals and writes nothing', async () => {
    const { agent, accountId } = await holderAt('maintain');
    const before = (await t.database.db.select().from(invoices)).length;
    const cheap = await agent.call(accountSettingsContracts.renew, {
      body: payload(accountId, {
        totals: { subtotal: '1245.00', discount_total: '1200.00', bonus_total: '0.00', order_total: '45.00' },
      }),
    });
    expect(cheap.statusCode).toBe(422);
    expect(cheap.json().errors.totals).toEqual([RENEWAL_MESSAGES.totalsChanged]);
    const bonus = await agent.call(accountSettingsContracts.renew, {
      body: payload(accountId, { bonus_balance: '500.00' }),
    });
    expect(bonus.statusCode).toBe(422);
    const level = await agent.call(accountSettingsContracts.renew, {
      body: payload(accountId, { current_level_id: levelId['start-up'] }),
    });
    expect(level.json().errors.current_level_id).toEqual([RENEWAL_MESSAGES.levelChanged]);
    const incOnly = await agent.call(accountSettingsContracts.renew, {
      body: payload(accountId, { is_upgrade_selected: 0 }),
    });
    expect(incOnly.json().errors.is_incorporation_selected).toEqual([RENEWAL_MESSAGES.incorporationNeedsUpgrade]);
    expect((await t.database.db.select().from(invoices)).length).toBe(before);
  });

  it('after the due date charges full prices; a suspended account must take the upgrade', async () => {
    const late = await holderAt('maintain', { dueInDays: -3 });
    const plain = { is_upgrade_selected: 0, is_incorporation_selected: 0, new_level_id: levelId.maintain };
    const early = await late.agent.call(accountSettingsContracts.renew, {
      body: payload(late.accountId, {
        ...plain,
        totals: { subtotal: '345.00', discount_total: '50.00', bonus_total: '0.00', order_total: '295.00' },
      }),
    });
    expect(early.statusCode).toBe(422);
    const full = await late.agent.call(accountSettingsContracts.renew, {
      body: payload(late.accountId, {
        ...plain,
        totals: { subtotal: '345.00', discount_total: '0.00', bonus_total: '0.00', order_total: '345.00' },
      }),
    });
    expect(full.statusCode, full.body).toBe(200);

    const suspended = await holderAt('maintain', { suspended: true });
    const refused = await suspended.agent.call(accountSettingsContracts.renew, {
      body: payload(suspended.accountId, {
        ...plain,
        totals: { subtotal: '345.00', discount_total: '50.00', bonus_total: '0.00', order_total: '295.00' },
      }),
    });
    expect(refused.json().errors.is_upgrade_selected).toEqual([RENEWAL_MESSAGES.upgradeRequired]);
  });

  it('a bonus balance covering everything renews at once: new level, due date one year on, balance used', async () => {
    const { agent, accountId, dueAt } = await holderAt('maintain', { bonusCents: 200_000 });
    const res = await agent.call(accountSettingsContracts.renew, {
      body: payload(accountId, {
        totals: { subtotal: '1245.00', discount_total: '100.00', bonus_total: '1145.00', order_total: '0.00' },
        bonus_balance: '2000.00',
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(account.levelId).toBe(levelId['full-service']);
    expect(account.bonusBalanceCents).toBe(200_000 - 114_500);
    const expected = new Date(dueAt);
    expected.setUTCFullYear(expected.getUTCFullYear() + 1);
    expect(account.renewalDueAt?.toISOString()).toBe(expected.toISOString());
    const [renewal] = await t.database.db.select().from(renewals).where(eq(renewals.invoiceId, res.json().invoice_id));
    expect(renewal.appliedAt).toBeInstanceOf(Date);
    const lines = await t.database.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, res.json().invoice_id));
    expect(lines.at(-1)).toMatchObject({ type: 'bonus', valueCents: -114_500 });
  });

  it('renews when the invoice is paid (zero payment with a 100 % renewal code)', async () => {
    const { agent, accountId, dueAt } = await holderAt('full-service');
    const res = await agent.call(accountSettingsContracts.renew, {
      body: {
        account_id: accountId,
        current_level_id: levelId['full-service'],
        new_level_id: levelId['full-service'],
        is_upgrade_selected: 0,
        is_incorporation_selected: 0,
        totals: { subtotal: '995.00', discount_total: '70.00', bonus_total: '0.00', order_total: '925.00' },
        bonus_balance: '0.00',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.database.db.execute(
      `INSERT INTO discounts (code, description, multiplier, is_renewals) VALUES ('RENEWFREE${accountId}', 'Free renewal', 1, true)`,
    );
    const reserved = (
      await agent.call(paymentContracts.reserveDiscount, { body: { code: `RENEWFREE${accountId}` } })
    ).json();
    const paid = await agent.call(paymentContracts.zeroPayment, {
      body: {
        value: '0.00',
        invoices: [res.json().invoice_id],
        discount_id: reserved.discount.id,
        discount_total: '925.00',
        idempotency_key: randomUUID(),
        type: 'zero_payment',
      },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, accountId));
    const expected = new Date(dueAt);
    expected.setUTCFullYear(expected.getUTCFullYear() + 1);
    expect(account.renewalDueAt?.toISOString()).toBe(expected.toISOString());
  });

  it("sends an admin to the account's admin page, audited; another holder gets 404; visitors 401", async () => {
    const { accountId } = await holderAt('maintain');
    const admin = await signedIn(t.app, { email: 'renewal.admin@example.com', password: 'Admin-pass-789' });
    const res = await admin.call(accountSettingsContracts.renew, { body: payload(accountId) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().redirect).toBe(`/admin/accounts/show/${accountId}`);
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'renewal.submitted_on_behalf'));
    expect(audited.some((r) => r.accountId === accountId)).toBe(true);

    const other = await holderAt('maintain');
    expect((await other.agent.call(accountSettingsContracts.renew, { body: payload(accountId) })).statusCode).toBe(404);
    expect(
      (await other.agent.call(accountOverviewContracts.renewal, { query: { account_id: accountId } })).statusCode,
    ).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(accountSettingsContracts.renew, { body: payload(accountId) })).statusCode).toBe(401);
  });
});
