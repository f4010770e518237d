import { randomUUID } from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  applications,
  auditLog,
  bylaws,
  files,
  groups,
  levels,
  payments,
  users,
} from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { GEN_5271_EXTRACT } from '../../src/server/db/seed/seed.ts';
import { importBmf } from '../../src/server/modules/subordinates/import-bmf.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { adminAccountsContracts } from '../../src/shared/contracts/admin-accounts.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import type { AdminAccountDetail, AdminAccountsPage } from '../../src/shared/schemas/admin-accounts.ts';

/**
 * The admin's accounts (docs/requirements/screens.md /admin/accounts/show/{id}, docs/requirements/entities.md "Account" and "Search
 * results page", docs/requirements/permissions.md): customer accounts only, searched and filtered, 20 a page; one account with
 * its bounded lists; admins only, and reading writes no audit row.
 */

const DAY = 86_400_000;
const ADMIN = { email: 'accounts.admin@example.com', password: 'Admin-pass-789' };
const HOLDER = { email: 'alpha.one@example.com', password: 'Holder-pass-123' };

let t: TestApp;
let admin: Agent;
let levelId: Record<string, number>;
const ids: Record<string, number> = {};
let customers = 0;

const db = () => t.database.db;

/** A customer account with the given columns and, when `user` is given, that user on it. */
async function customer(
  name: string,
  set: Partial<typeof accounts.$inferInsert> = {},
  user?: { email: string; password?: string },
) {
  const a = await createAccount(db(), { name, city: 'Casper', state: 'WY' });
  if (Object.keys(set).length) await db().update(accounts).set(set).where(eq(accounts.id, a.id));
  if (user) {
    const u = await createUser(db(), {
      email: user.email,
      password: user.password ?? 'Some-pass-123',
      accountId: a.id,
    });
    await db().update(accounts).set({ primaryUserId: u.id }).where(eq(accounts.id, a.id));
  }
  customers++;
  return a.id;
}

const list = async (query = '') => {
  const res = await admin.get(`/api/admin/accounts${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AdminAccountsPage;
};
const names = (p: AdminAccountsPage) => p.data.map((r) => r.name);

beforeAll(async () => {
  t = await createTestApp();
  const rows = await db().select({ id: levels.id, slug: levels.slug }).from(levels);
  levelId = Object.fromEntries(rows.map((r) => [r.slug, r.id]));
  // The 806 subordinates of GEN 5271: listed IRS records, never customers.
  await importBmf(db(), GEN_5271_EXTRACT);
  await createUser(db(), { ...ADMIN, isAdmin: true });
  const now = Date.now();
  ids.alpha = await customer(
    'Alpha Booster Club',
    { levelId: levelId.maintain, ein: '111111111', renewalDueAt: new Date(now + 10 * DAY) },
    HOLDER,
  );
  ids.bravo = await customer(
    'Bravo Band Boosters',
    { levelId: levelId['start-up'], renewalDueAt: new Date(now + 60 * DAY), email: 'office@bravoband.org' },
    { email: 'bravo.treasurer@example.com' },
  );
  ids.charlie = await customer(
    'Charlie Chess Club',
    { levelId: levelId.maintain, renewalDueAt: new Date(now - 20 * DAY) },
    { email: 'charlie@example.com' },
  );
  ids.delta = await customer('Delta Drama Boosters', {
    levelId: levelId.maintain,
    renewalDueAt: new Date(now + 200 * DAY),
    isSuspendedFromBasicRenewal: true,
  });
  // An imported subordinate that became a customer (it has users) counts; a roster import too.
  ids.echo = await customer(
    'Echo Linked Subordinate',
    { source: 'irs-bmf', isListed: true, ein: '222222222' },
    { email: 'echo@example.com' },
  );
  ids.foxtrot = await customer('Foxtrot Roster Boosters', { source: 'roster' });
  for (let i = 1; i <= 19; i++) await customer(`Paging Club ${String(i).padStart(2, '0')}`);
  admin = await signedIn(t.app, ADMIN);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/accounts', () => {
  it('lists customer accounts only, by name, 20 a page, with the docs/requirements/entities.md page object and the levels', async () => {
    const [{ irs }] = await db().select({ irs: count() }).from(accounts).where(eq(accounts.source, 'irs-bmf'));
    expect(irs).toBeGreaterThan(800);
    const p1 = await list();
    expect(p1).toMatchObject({
      current_page: 1,
      per_page: 20,
      total: customers,
      from: 1,
      to: 20,
      last_page: 2,
      prev_page_url: null,
      next_page_url: '/api/admin/accounts?page=2',
    });
    expect(names(p1).slice(0, 6)).toEqual([
      'Alpha Booster Club',
      'Bravo Band Boosters',
      'Charlie Chess Club',
      'Delta Drama Boosters',
      'Echo Linked Subordinate',
      'Foxtrot Roster Boosters',
    ]);
    expect(p1.levels.map((l) => l.id)).toEqual(expect.arrayContaining([levelId.maintain, levelId['start-up']]));
    const alpha = p1.data[0];
    expect(alpha).toMatchObject({
      id: ids.alpha,
      ein: '111111111',
      city: 'Casper',
      state: 'WY',
      level: { id: levelId.maintain },
      status: 'active',
      primary_email: HOLDER.email,
      users_count: 1,
    });
    expect(Date.parse(alpha.renewal_due_at!)).toBeGreaterThan(Date.now());

    const p2 = await list('?page=2');
    expect(p2).toMatchObject({
      current_page: 2,
      from: 21,
      to: customers,
      next_page_url: null,
      prev_page_url: '/api/admin/accounts?page=1',
    });
    const seen = new Set([...p1.data, ...p2.data].map((r) => r.id));
    expect(seen.size).toBe(customers);
    // Past the last page: empty, not an error.
    expect((await list('?page=9')).data).toEqual([]);
  });

  it('searches by name words, by EIN (with or without the dash, or its start) and by an account or user e-mail', async () => {
    expect(names(await list('?search=band%20BRAVO'))).toEqual(['Bravo Band Boosters']);
    expect(names(await list('?search=11-1111111'))).toEqual(['Alpha Booster Club']);
    expect(names(await list('?search=111111111'))).toEqual(['Alpha Booster Club']);
    expect(names(await list('?search=2222'))).toEqual(['Echo Linked Subordinate']);
    expect(names(await list('?search=alpha.one%40example'))).toEqual(['Alpha Booster Club']);
    expect(names(await list('?search=bravo.treasurer'))).toEqual(['Bravo Band Boosters']);
    expect(names(await list('?search=office%40bravoband.org'))).toEqual(['Bravo Band Boosters']);
    // An IRS subordinate's name or city finds nothing here.
    expect((await list('?search=soldotna')).total).toBe(0);
    // LIKE wildcards are literal.
    expect((await list('?search=%25')).total).toBe(0);
    const paged = await list('?search=paging&page=1');
    expect(paged).toMatchObject({ total: 19, last_page: 1, next_page_url: null });
  });

  it('filters by level, status and renewal due, and keeps the filters in the page links', async () => {
    expect(names(await list(`?level=${levelId['start-up']}`))).toEqual(['Bravo Band Boosters']);
    expect(names(await list(`?level=${levelId.maintain}`))).toEqual([
      'Alpha Booster Club',
      'Charlie Chess Club',
      'Delta Drama Boosters',
    ]);
    expect(names(await list('?status=past_due'))).toEqual(['Charlie Chess Club']);
    expect(names(await list('?status=suspended'))).toEqual(['Delta Drama Boosters']);
    const active = await list('?status=active&page=1');
    expect(active.total).toBe(customers - 2);
    expect(active.data.every((r) => r.status === 'active')).toBe(true);
    expect(active.next_page_url).toBe('/api/admin/accounts?status=active&page=2');
    expect(names(await list('?renewal_due=30'))).toEqual(['Alpha Booster Club']);
    expect(names(await list('?renewal_due=90'))).toEqual(['Alpha Booster Club', 'Bravo Band Boosters']);
    expect(names(await list('?renewal_due=overdue'))).toEqual(['Charlie Chess Club']);
    expect(names(await list(`?renewal_due=90&level=${levelId.maintain}&search=alpha`))).toEqual(['Alpha Booster Club']);
    // Empty values mean "any".
    expect((await list('?search=&level=&status=&renewal_due=')).total).toBe(customers);
  });

  it('sorts by each sortable column title, both ways, ties by id', async () => {
    // EIN: the two accounts with one first, the others (no EIN) after them ascending, before them descending.
    expect(names(await list('?sort=ein')).slice(0, 2)).toEqual(['Alpha Booster Club', 'Echo Linked Subordinate']);
    const einDesc = await list('?sort=-ein&page=2');
    expect(names(einDesc).slice(-2)).toEqual(['Echo Linked Subordinate', 'Alpha Booster Club']);
    expect(einDesc.prev_page_url).toBe('/api/admin/accounts?sort=-ein&page=1');
    const byLevel = (await list(`?sort=level&level=${levelId.maintain}`)).data.map((r) => r.level?.id);
    expect(byLevel).toEqual([levelId.maintain, levelId.maintain, levelId.maintain]);
    // Level: by the level's name, not its id (the seeded "Maintain …" level has the higher id and the
    // earlier name), accounts without a level last; descending reverses both.
    const levelNames = Object.fromEntries(
      (await db().select({ id: levels.id, name: levels.name }).from(levels)).map((r) => [r.id, r.name]),
    );
    expect(levelId.maintain).toBeGreaterThan(levelId['start-up']);
    expect(levelNames[levelId.maintain] < levelNames[levelId['start-up']]).toBe(true);
    expect(names(await list('?sort=level&search=boosters'))).toEqual([
      'Delta Drama Boosters',
      'Bravo Band Boosters',
      'Foxtrot Roster Boosters',
    ]);
    expect(names(await list('?sort=-level&search=boosters'))).toEqual([
      'Foxtrot Roster Boosters',
      'Bravo Band Boosters',
      'Delta Drama Boosters',
    ]);
    const browsed = await list('?sort=level');
    expect(names(browsed).slice(0, 4)).toEqual([
      'Alpha Booster Club',
      'Charlie Chess Club',
      'Delta Drama Boosters',
      'Bravo Band Boosters',
    ]);
    expect(browsed.data.slice(4).every((r) => r.level === null)).toBe(true);
    const browsedDown = await list('?sort=-level&page=2');
    expect(names(browsedDown).slice(-4)).toEqual([
      'Bravo Band Boosters',
      'Delta Drama Boosters',
      'Charlie Chess Club',
      'Alpha Booster Club',
    ]);
    const exported = (await admin.call(adminAccountsContracts.exportCsv, { query: { sort: 'level' } })).body
      .split('\r\n')
      .slice(1, 5)
      .map((l) => l.split(',')[0]);
    expect(exported).toEqual([
      'Alpha Booster Club',
      'Charlie Chess Club',
      'Delta Drama Boosters',
      'Bravo Band Boosters',
    ]);
    expect(names(await list('?sort=renewal_due_at&renewal_due=90'))).toEqual([
      'Alpha Booster Club',
      'Bravo Band Boosters',
    ]);
    expect(names(await list('?sort=-renewal_due_at&renewal_due=90'))).toEqual([
      'Bravo Band Boosters',
      'Alpha Booster Club',
    ]);
    expect(names(await list('?sort=-name&search=club')).slice(0, 2)).toEqual(['Paging Club 19', 'Paging Club 18']);
    const bad = await admin.call(adminAccountsContracts.list, { query: { sort: 'status' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(
      'The sort must be one of: name, -name, ein, -ein, level, -level, created_at, -created_at, renewal_due_at, -renewal_due_at.',
    );
  });

  it('exports every account the filters match, in the list order, as CSV', async () => {
    const res = await admin.call(adminAccountsContracts.exportCsv, {
      query: { level: levelId.maintain, sort: '-name', page: 3 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="accounts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,EIN,City,State,Level,Renewal due,Status,Primary user,Users,Account id');
    const shown = await list(`?level=${levelId.maintain}&sort=-name`);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(names(shown));
    const maintain = shown.levels.find((l) => l.id === levelId.maintain)!.name;
    const alphaDue = shown.data.find((r) => r.id === ids.alpha)!.renewal_due_at!.slice(0, 10);
    expect(lines[3]).toBe(
      `Alpha Booster Club,11-1111111,Casper,WY,${maintain},${alphaDue},Active,${HOLDER.email},1,${ids.alpha}`,
    );
    expect(lines[1]).toContain(',Suspended,,0,');
    // All pages, not just the first 20.
    const all = (await admin.call(adminAccountsContracts.exportCsv)).body.trimEnd().split('\r\n');
    expect(all).toHaveLength(customers + 1);
    expect((await admin.call(adminAccountsContracts.exportCsv, { query: { sort: 'nope' } })).statusCode).toBe(422);
    expect((await admin.call(adminAccountsContracts.exportCsv, { query: { status: 'gone' } })).statusCode).toBe(422);
  });

  it('refuses unknown filter values with 422', async () => {
    for (const q of ['?status=gone', '?renewal_due=7', '?level=abc']) {
      const res = await admin.get(`/api/admin/accounts${q}`);
      expect(res.statusCode, q).toBe(422);
    }
  });
});

describe('GET /api/admin/accounts/:id', () => {
  it("gives the summary and the account's users, applications, bylaws, uploads, invoices and payments, newest 20 of each, without an audit row", async () => {
    const id = ids.alpha;
    const [holder] = await db().select().from(users).where(eq(users.email, HOLDER.email));
    await createUser(db(), { email: 'alpha.two@example.com', password: 'Some-pass-123', accountId: id });
    await db().insert(applications).values({
      tokenHash: randomUUID(),
      userId: holder.id,
      levelId: levelId.maintain,
      type: 'maintain',
      status: 'completed',
      accountId: id,
    });
    await db().insert(applications).values({
      tokenHash: randomUUID(),
      userId: holder.id,
      levelId: levelId['full-service'],
      type: 'maintain',
      status: 'draft',
    });
    await db()
      .insert(bylaws)
      .values({
        hash: randomUUID().replace(/-/g, ''),
        variant: 'short',
        answers: {},
        sessionHash: 'x',
        userId: holder.id,
      });
    await db()
      .insert(files)
      .values({
        storageKey: `roster/${randomUUID()}`,
        fileName: 'roster.csv',
        mimeType: 'text/csv',
        sizeBytes: 120,
        sha256: 'a'.repeat(64),
        purpose: 'application_document',
        accountId: id,
      });
    const invoiceIds: number[] = [];
    for (let i = 0; i < 22; i++) invoiceIds.push(await createInvoice(db(), { accountId: id, cents: 1000 + i }));
    await db()
      .insert(payments)
      .values([
        {
          accountId: id,
          method: 'card',
          status: 'paid',
          amountCents: 5000,
          invoiceIds: [invoiceIds[0]],
          idempotencyKey: randomUUID(),
          accountLast4: 'XXXX1111',
        },
        {
          accountId: id,
          method: 'paypal',
          status: 'awaiting_consent',
          amountCents: 5000,
          invoiceIds: [invoiceIds[0]],
          idempotencyKey: randomUUID(),
        },
      ]);
    // Another account's records stay out.
    await createInvoice(db(), { accountId: ids.bravo, cents: 999 });
    const [{ before }] = await db().select({ before: count() }).from(auditLog);

    const res = await admin.call(adminAccountsContracts.show, { params: { id: id } });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as AdminAccountDetail;
    expect(d.account).toMatchObject({
      id,
      name: 'Alpha Booster Club',
      ein: '111111111',
      level: { id: levelId.maintain, name: expect.any(String) },
      status: 'active',
      bonus_balance_cents: 0,
      group: null,
      is_suspended_from_basic_renewal: false,
      primary_user_id: holder.id,
    });
    expect(d.counts).toEqual({ users: 2, applications: 2, bylaws: 1, files: 1, invoices: 22, payments: 1 });
    expect(d.users.map((u) => u.email).sort()).toEqual([HOLDER.email, 'alpha.two@example.com']);
    expect(d.applications.map((a) => a.status).sort()).toEqual(['completed', 'draft']);
    expect(d.bylaws).toMatchObject([{ variant: 'short', email: HOLDER.email }]);
    expect(d.files).toMatchObject([{ file_name: 'roster.csv', size_bytes: 120 }]);
    expect(d.invoices).toHaveLength(20);
    expect(d.invoices[0]).toMatchObject({ id: invoiceIds[21], value_cents: 1021, balance_cents: 1021 });
    expect(d.payments).toMatchObject([
      { method: 'card', status: 'paid', amount_cents: 5000, account_last4: 'XXXX1111' },
    ]);
    expect(d.open_balance_cents).toBe(invoiceIds.reduce((sum, _, i) => sum + 1000 + i, 0));

    const [{ after }] = await db().select({ after: count() }).from(auditLog);
    expect(after).toBe(before);
  });

  it('shows a suspended account and its group', async () => {
    const d = (
      await admin.call(adminAccountsContracts.show, { params: { id: ids.delta } })
    ).json() as AdminAccountDetail;
    expect(d.account).toMatchObject({ status: 'suspended', is_suspended_from_basic_renewal: true });
    expect(d.counts).toEqual({ users: 0, applications: 0, bylaws: 0, files: 0, invoices: 0, payments: 0 });
    const past = (
      await admin.call(adminAccountsContracts.show, { params: { id: ids.charlie } })
    ).json() as AdminAccountDetail;
    expect(past.account.status).toBe('past_due');
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const path of [
      '/api/admin/accounts/999999',
      '/api/admin/accounts/abc',
      '/api/admin/accounts/0',
      '/api/admin/accounts/99999999999',
    ]) {
      const res = await admin.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().message).toBe('The account could not be found.');
    }
  });
});

describe('PUT /api/admin/accounts/:id/settings', () => {
  it('saves the renewal flags and the group, audits the change, and the holder renews with the upgrade locked and the group billed', async () => {
    const [g] = await db().insert(groups).values({ label: 'Settings test group', gen: '9911' }).returning();
    const [other] = await db().insert(groups).values({ label: 'Another group', gen: '9912' }).returning();
    const detail = (
      await admin.call(adminAccountsContracts.show, { params: { id: ids.alpha } })
    ).json() as AdminAccountDetail;
    expect(detail.groups).toEqual(
      expect.arrayContaining([
        { id: g.id, label: 'Settings test group', is_billed_as_group: false },
        { id: other.id, label: 'Another group', is_billed_as_group: false },
      ]),
    );

    const res = await admin.call(adminAccountsContracts.saveSettings, {
      params: { id: ids.alpha },
      body: {
        is_suspended_from_basic_renewal: true,
        group_id: g.id,
        is_billed_as_group: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      is_suspended_from_basic_renewal: true,
      group: { id: g.id, label: 'Settings test group', is_billed_as_group: true },
    });
    const [row] = await db()
      .select({ s: accounts.isSuspendedFromBasicRenewal, groupId: accounts.groupId })
      .from(accounts)
      .where(eq(accounts.id, ids.alpha));
    expect(row).toEqual({ s: true, groupId: g.id });
    const [saved] = await db().select({ billed: groups.isBilledAsGroup }).from(groups).where(eq(groups.id, g.id));
    expect(saved.billed).toBe(true);

    const [adminRow] = await db().select({ id: users.id }).from(users).where(eq(users.email, ADMIN.email));
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'account.settings_updated'), eq(auditLog.accountId, ids.alpha)))
      .orderBy(desc(auditLog.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorUserId: adminRow.id,
      accountId: ids.alpha,
      details: {
        accountId: ids.alpha,
        groupId: g.id,
        changes: {
          is_suspended_from_basic_renewal: { from: false, to: true },
          group_id: { from: null, to: g.id },
          group_is_billed_as_group: { from: false, to: true },
        },
      },
    });

    // The page shows it; saving the same again writes no audit row.
    const after = (
      await admin.call(adminAccountsContracts.show, { params: { id: ids.alpha } })
    ).json() as AdminAccountDetail;
    expect(after.account).toMatchObject({
      status: 'suspended',
      is_suspended_from_basic_renewal: true,
      group: { id: g.id, is_billed_as_group: true },
    });
    expect(
      (
        await admin.call(adminAccountsContracts.saveSettings, {
          params: { id: ids.alpha },
          body: {
            is_suspended_from_basic_renewal: true,
            group_id: g.id,
            is_billed_as_group: true,
          },
        })
      ).statusCode,
    ).toBe(200);
    const [{ n }] = await db()
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.action, 'account.settings_updated'));
    expect(n).toBe(1);

    // The holder's renewal form: the upgrade is locked on and the group is billed as a group (docs/requirements/behaviour.md, docs/requirements/errors.md).
    const holder = await signedIn(t.app, HOLDER);
    const renewal = await holder.call(accountOverviewContracts.renewal);
    expect(renewal.statusCode, renewal.body).toBe(200);
    const screen = renewal.json() as {
      options: { isUpgradeLocked: boolean };
      account: { group: { label: string; is_billed_as_group: boolean } | null };
    };
    expect(screen.options.isUpgradeLocked).toBe(true);
    expect(screen.account.group).toMatchObject({ label: 'Settings test group', is_billed_as_group: true });

    // Back to none: the group's own flag stays as it was (it belongs to the group).
    const cleared = await admin.call(adminAccountsContracts.saveSettings, {
      params: { id: ids.alpha },
      body: {
        is_suspended_from_basic_renewal: false,
        group_id: null,
        is_billed_as_group: false,
      },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toEqual({ is_suspended_from_basic_renewal: false, group: null });
    const [back] = await db()
      .select({ s: accounts.isSuspendedFromBasicRenewal, groupId: accounts.groupId })
      .from(accounts)
      .where(eq(accounts.id, ids.alpha));
    expect(back).toEqual({ s: false, groupId: null });
    await db().update(groups).set({ isBilledAsGroup: false }).where(eq(groups.id, g.id));
  });

  it('moves the renewal due date, audited; a date that is not one is refused with its message', async () => {
    const body = { is_suspended_from_basic_renewal: false, group_id: null, is_billed_as_group: false };
    const res = await admin.call(adminAccountsContracts.saveSettings, {
      params: { id: ids.bravo },
      body: { ...body, renewal_due_on: '2027-03-15' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await db().select({ due: accounts.renewalDueAt }).from(accounts).where(eq(accounts.id, ids.bravo));
    expect(row.due?.toISOString()).toBe('2027-03-15T00:00:00.000Z');
    const [audited] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'account.settings_updated'), eq(auditLog.accountId, ids.bravo)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audited.details).toMatchObject({ changes: { renewal_due_on: { to: '2027-03-15' } } });
    for (const wrong of ['2027-02-30', '15/03/2027', 'soon']) {
      const bad = await admin.call(adminAccountsContracts.saveSettings, {
        params: { id: ids.bravo },
        body: { ...body, renewal_due_on: wrong },
      });
      expect(bad.statusCode, wrong).toBe(422);
      expect(bad.json().errors.renewal_due_on).toEqual(['The renewal due date must be a date.']);
    }
    // Left out: unchanged.
    expect(
      (await admin.call(adminAccountsContracts.saveSettings, { params: { id: ids.bravo }, body: body })).statusCode,
    ).toBe(200);
    const [same] = await db().select({ due: accounts.renewalDueAt }).from(accounts).where(eq(accounts.id, ids.bravo));
    expect(same.due?.toISOString()).toBe('2027-03-15T00:00:00.000Z');
  });

  it('answers 404 for an unknown account or group, 422 for a malformed body, and 403 to a holder', async () => {
    const body = { is_suspended_from_basic_renewal: true, group_id: null, is_billed_as_group: false };
    for (const path of ['/api/admin/accounts/999999/settings', '/api/admin/accounts/abc/settings']) {
      const res = await admin.put(path, body);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().message).toBe('The account could not be found.');
    }
    const noGroup = await admin.call(adminAccountsContracts.saveSettings, {
      params: { id: ids.bravo },
      body: { ...body, group_id: 999999 },
    });
    expect(noGroup.statusCode).toBe(404);
    expect(noGroup.json().message).toBe('The group could not be found.');
    const bad = await admin.call(adminAccountsContracts.saveSettings, {
      params: { id: ids.bravo },
      body: {
        is_suspended_from_basic_renewal: 'yes',
        group_id: 'x',
      },
    });
    expect(bad.statusCode).toBe(422);
    // Nothing changed on a refused request.
    const [row] = await db()
      .select({ s: accounts.isSuspendedFromBasicRenewal })
      .from(accounts)
      .where(eq(accounts.id, ids.bravo));
    expect(row.s).toBe(false);

    const holder = await signedIn(t.app, HOLDER);
    expect(
      (await holder.call(adminAccountsContracts.saveSettings, { params: { id: ids.bravo }, body: body })).statusCode,
    ).toBe(403);
    const visitor = await new Agent(t.app).start();
    expect(
      (await visitor.call(adminAccountsContracts.saveSettings, { params: { id: ids.bravo }, body: body })).statusCode,
    ).toBe(401);
  });
});

describe('who may read accounts', () => {
  it('answers 403 to an account holder and 401 to a visitor, for the API and the pages', async () => {
    const holder = await signedIn(t.app, HOLDER);
    for (const path of ['/api/admin/accounts', '/api/admin/accounts/export.csv', `/api/admin/accounts/${ids.alpha}`]) {
      expect((await holder.get(path)).statusCode, path).toBe(403);
    }
    expect((await holder.get(`/admin/accounts/show/${ids.alpha}`)).statusCode).toBe(403);
    expect((await holder.get('/admin/accounts')).statusCode).toBe(403);
    const visitor = await new Agent(t.app).start();
    for (const path of ['/api/admin/accounts', '/api/admin/accounts/export.csv', `/api/admin/accounts/${ids.alpha}`]) {
      expect((await visitor.get(path)).statusCode, path).toBe(401);
    }
  });
});
