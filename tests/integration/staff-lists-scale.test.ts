import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { seedScale, type ScaleReport } from '../../src/server/db/seed/scale.ts';
import { adminOutboxContracts } from '../../src/shared/contracts/admin-outbox.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * seed:scale's data and the staff lists' search and sort (docs/benchmarks.md "Staff lists at
 * scale"): a tiny run of the seed (50 accounts) writes every table in proportion, in states the
 * database accepts and that agree with each other; each staff list answers with a search and a
 * sort, refuses an unknown sort with 422, and only staff may read it.
 */

const ADMIN = { email: 'scale.admin@example.com', password: 'Admin-pass-789' };
const HOLDER = { email: 'scale.holder@example.com', password: 'Holder-pass-123' };
const LISTS = [
  '/api/admin/accounts',
  '/api/admin/invoices/open',
  '/api/admin/payments',
  '/api/admin/inquiries',
  '/api/admin/audit',
  '/api/admin/outbox',
];

let t: TestApp;
let admin: Agent;
let report: ScaleReport;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const one = async (query: ReturnType<typeof sql>) =>
  Number(Object.values((await rows<Record<string, unknown>>(query))[0]!)[0]);

const get = async <T = { data: Record<string, unknown>[]; total: number }>(url: string) => {
  const res = await admin.get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
};

/** true when `values` are in order (ascending, or descending with `desc`). */
function inOrder(values: (number | string)[], desc = false): boolean {
  return values.every((v, i) => i === 0 || (desc ? values[i - 1]! >= v : values[i - 1]! <= v));
}

beforeAll(async () => {
  t = await createTestApp();
  report = await seedScale(t.database, { accounts: 50 });
  await createUser(t.database.db, { ...ADMIN, isAdmin: true });
  const [first] = await rows<{ id: number }>(sql`SELECT min(id) AS id FROM accounts`);
  await createUser(t.database.db, { ...HOLDER, accountId: first!.id });
  admin = await signedIn(t.app, ADMIN);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('seed:scale', () => {
  it('writes every table in proportion to the accounts', async () => {
    expect(report).toMatchObject({
      accounts: 50,
      users: 120,
      invoices: 500,
      invoiceLines: 500,
      auditRows: 1000,
      outbox: 200,
      inquiries: 10,
    });
    expect(await one(sql`SELECT count(*) FROM accounts`)).toBe(50);
    expect(await one(sql`SELECT count(*) FROM users WHERE NOT is_admin AND email <> ${HOLDER.email}`)).toBe(120);
    expect(await one(sql`SELECT count(*) FROM invoices`)).toBe(500);
    // (the staff sign-in of beforeAll is audited too, with no account)
    expect(await one(sql`SELECT count(*) FROM audit_log WHERE account_id IS NOT NULL`)).toBe(1000);
    expect(await one(sql`SELECT count(*) FROM mail_outbox`)).toBe(200);
    expect(await one(sql`SELECT count(*) FROM inquiries`)).toBe(10);
    // One payment per invoice but for the few never paid.
    expect(report.payments).toBe(await one(sql`SELECT count(*) FROM payments`));
    expect(report.payments).toBeGreaterThan(400);
    expect(report.payments).toBeLessThan(500);
    // Every account has its primary user, and invoices bill the prices of levels that exist.
    expect(
      await one(
        sql`SELECT count(*) FROM accounts a JOIN users u ON u.id = a.primary_user_id AND u.account_id = a.id AND u.is_primary`,
      ),
    ).toBe(50);
    expect(await one(sql`SELECT count(*) FROM accounts a JOIN levels l ON l.id = a.level_id`)).toBe(50);
    expect(
      await one(sql`SELECT count(*) FROM invoices i JOIN accounts a ON a.id = i.account_id JOIN levels l ON l.id = a.level_id
      WHERE i.value_cents NOT IN (l.price_cents, l.price_discount_cents, 5000)`),
    ).toBe(0);
    expect(
      await one(
        sql`SELECT count(*) FROM invoices i WHERE i.value_cents <> (SELECT sum(value_cents) FROM invoice_lines il WHERE il.invoice_id = i.id)`,
      ),
    ).toBe(0);
  });

  it('leaves money consistent: paid invoices settled once, held and pending payments holding theirs', async () => {
    // Paid and refunded payments settled their invoice in full: nothing left to pay, one payment_invoices row.
    expect(
      await one(sql`SELECT count(*) FROM payments p JOIN invoices i ON i.id = p.invoice_ids[1]
      WHERE p.status IN ('paid', 'refunded') AND (i.balance_cents <> 0 OR NOT EXISTS (SELECT 1 FROM payment_invoices pi WHERE pi.payment_id = p.id AND pi.invoice_id = i.id AND pi.amount_cents = p.amount_cents))`),
    ).toBe(0);
    // Payments in flight hold their invoice; nothing else holds one.
    expect(await one(sql`SELECT count(*) FROM invoices WHERE held_by_payment_id IS NOT NULL`)).toBe(
      await one(sql`SELECT count(*) FROM payments WHERE status IN ('held', 'pending')`),
    );
    expect(
      await one(
        sql`SELECT count(*) FROM invoices i JOIN payments p ON p.id = i.held_by_payment_id WHERE p.status NOT IN ('held', 'pending')`,
      ),
    ).toBe(0);
    // Other outcomes left the invoice open.
    expect(
      await one(
        sql`SELECT count(*) FROM payments p JOIN invoices i ON i.id = p.invoice_ids[1] WHERE p.status IN ('declined', 'failed', 'voided') AND i.balance_cents <> i.value_cents`,
      ),
    ).toBe(0);
    expect(
      await one(sql`SELECT count(*) FROM payments WHERE status = 'refunded' AND refunded_cents <> amount_cents`),
    ).toBe(0);
    expect(await one(sql`SELECT count(*) FROM payment_refunds`)).toBe(
      await one(sql`SELECT count(*) FROM payments WHERE status = 'refunded'`),
    );
    // The database's own transition rules still hold: a paid payment cannot go back to pending.
    const [paid] = await rows<{ id: number }>(sql`SELECT id FROM payments WHERE status = 'paid' LIMIT 1`);
    await expect(
      t.database.db.execute(sql`UPDATE payments SET status = 'pending' WHERE id = ${paid!.id}`),
    ).rejects.toThrow();
  });

  it('adds more on a second run without colliding with the rows already there', async () => {
    const more = await seedScale(t.database, { accounts: 5 });
    expect(more).toMatchObject({ accounts: 5, users: 12, invoices: 50 });
    expect(await one(sql`SELECT count(*) FROM accounts`)).toBe(55);
  });
});

describe('staff lists with search and sort', () => {
  it('finds accounts by a town and sorts them by renewal date', async () => {
    const [a] = await rows<{ city: string }>(sql`SELECT city FROM accounts ORDER BY id LIMIT 1`);
    const page = await get<{ data: { name: string; city: string; renewal_due_at: string }[]; total: number }>(
      `/api/admin/accounts?search=${encodeURIComponent(a!.city)}&sort=-renewal_due_at`,
    );
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.total).toBe(
      await one(sql`SELECT count(*) FROM accounts WHERE city = ${a!.city} OR name LIKE ${`%${a!.city}%`}`),
    );
    for (const r of page.data) expect(`${r.name} ${r.city}`).toContain(a!.city);
    expect(
      inOrder(
        page.data.map((r) => r.renewal_due_at),
        true,
      ),
    ).toBe(true);
    const byName = await get<{ data: { name: string }[]; next_page_url: string }>('/api/admin/accounts?sort=-name');
    expect(
      inOrder(
        byName.data.map((r) => r.name.toLowerCase()),
        true,
      ) ||
        inOrder(
          byName.data.map((r) => r.name),
          true,
        ),
    ).toBe(true);
    expect(byName.next_page_url).toBe('/api/admin/accounts?sort=-name&page=2');
  });

  it('finds an open invoice by its number and sorts open invoices by balance', async () => {
    const [inv] = await rows<{ id: number; number: string }>(
      sql`SELECT id, number FROM invoices WHERE balance_cents > 0 ORDER BY id LIMIT 1`,
    );
    const found = await get<{ data: { id: number }[] }>(`/api/admin/invoices/open?search=${inv!.number}`);
    expect(found.data.map((r) => r.id)).toEqual([inv!.id]);
    const byBalance = await get<{ data: { balance_cents: number }[] }>('/api/admin/invoices/open?sort=-balance_cents');
    expect(byBalance.data.length).toBe(25);
    expect(
      inOrder(
        byBalance.data.map((r) => r.balance_cents),
        true,
      ),
    ).toBe(true);
    expect(byBalance.data[0]!.balance_cents).toBe(await one(sql`SELECT max(balance_cents) FROM invoices`));
  });

  it("finds payments by the account's name and sorts them by amount", async () => {
    const [a] = await rows<{ id: number; name: string }>(sql`SELECT id, name FROM accounts ORDER BY id LIMIT 1`);
    const word = a!.name.split(' ')[1]!;
    const page = await get<{ data: { amount_cents: number; account: { name: string } }[]; total: number }>(
      `/api/admin/payments?search=${encodeURIComponent(word)}&sort=amount_cents`,
    );
    expect(page.data.length).toBeGreaterThan(0);
    for (const r of page.data) expect(r.account.name.toLowerCase()).toContain(word.toLowerCase());
    expect(inOrder(page.data.map((r) => r.amount_cents))).toBe(true);
  });

  it('finds inquiries by the sender and sorts them by name', async () => {
    const [i] = await rows<{ name: string }>(sql`SELECT name FROM inquiries ORDER BY id LIMIT 1`);
    const last = i!.name.split(' ')[1]!;
    const page = await get<{ data: { name: string }[] }>(
      `/api/admin/inquiries?search=${encodeURIComponent(last)}&sort=name`,
    );
    expect(page.data.length).toBeGreaterThan(0);
    for (const r of page.data) expect(r.name).toContain(last);
    expect(inOrder(page.data.map((r) => r.name))).toBe(true);
  });

  it("finds audit rows by the actor's e-mail, oldest first when asked", async () => {
    const [u] = await rows<{ email: string }>(
      sql`SELECT u.email FROM audit_log l JOIN users u ON u.id = l.actor_user_id ORDER BY l.id LIMIT 1`,
    );
    const part = u!.email.split('@')[0]!;
    const page = await get<{ data: { id: number; actor_email: string }[] }>(
      `/api/admin/audit?search=${encodeURIComponent(part)}&sort=created_at`,
    );
    expect(page.data.length).toBeGreaterThan(0);
    for (const r of page.data) expect(r.actor_email).toContain(part);
    expect(inOrder(page.data.map((r) => r.id))).toBe(true);
  });

  it('finds audit rows by e-mail when the search matches more actors than are looked up one by one, with the same total and pages', async () => {
    // 520 actors (more than the audit list resolves to ids), every fourth with two audit rows.
    await t.database.db.execute(sql`INSERT INTO users (email, password_hash)
      SELECT 'many.actor' || n || '@example.org', 'x' FROM generate_series(1, 520) AS n`);
    await t.database.db.execute(sql`INSERT INTO audit_log (action, actor_user_id)
      SELECT 'auth.login', u.id FROM users u, generate_series(1, 2)
      WHERE u.email LIKE 'many.actor%' AND substring(u.email from 'actor([0-9]+)@')::int % 4 = 0`);
    const expected = await rows<{ id: number }>(sql`SELECT l.id FROM audit_log l JOIN users u ON u.id = l.actor_user_id
      WHERE u.email LIKE 'many.actor%' ORDER BY l.id DESC`);
    expect(expected.length).toBe(260);
    const first = await get<{ data: { id: number; actor_email: string }[]; total: number; total_is_capped?: boolean }>(
      '/api/admin/audit?search=MANY.ACTOR',
    );
    // Counted a few pages ahead only.
    expect(first).toMatchObject({ total: 250, total_is_capped: true });
    expect(first.data.map((r) => r.id)).toEqual(expected.slice(0, 50).map((r) => Number(r.id)));
    for (const r of first.data) expect(r.actor_email).toMatch(/^many\.actor\d+@example\.org$/);
    const sixth = await get<{ data: { id: number }[]; total: number; total_is_capped?: boolean; last_page: number }>(
      '/api/admin/audit?search=many.actor&page=6',
    );
    expect(sixth).toMatchObject({ total: 260, last_page: 6 });
    expect(sixth.total_is_capped).toBeUndefined();
    expect(sixth.data.map((r) => r.id)).toEqual(expected.slice(250).map((r) => Number(r.id)));
  });

  it('finds mails by subject, oldest first when asked, and counts a few pages ahead only', async () => {
    const page = await get<{
      data: { id: number; subject: string }[];
      total: number;
      total_is_capped?: boolean;
      last_page: number;
    }>('/api/admin/outbox?search=receipt&sort=created_at');
    expect(page.data.length).toBeGreaterThan(0);
    for (const r of page.data) expect(r.subject.toLowerCase()).toContain('receipt');
    expect(inOrder(page.data.map((r) => r.id))).toBe(true);
    const all = await get<{ total: number; total_is_capped?: boolean; last_page: number; next_page_url: string }>(
      '/api/admin/outbox',
    );
    // 200 mails, 25 a page: counted up to page 1 + 4 pages, then "more".
    expect(all).toMatchObject({ total: 125, total_is_capped: true, last_page: 5, next_page_url: '?page=2' });
    const exact = await get<{ total: number; total_is_capped?: boolean }>('/api/admin/outbox?status=failed');
    expect(exact.total).toBe(await one(sql`SELECT count(*) FROM mail_outbox WHERE status = 'failed'`));
    expect(exact.total_is_capped).toBeUndefined();
  });

  it('refuses an unknown sort with 422 and says which are allowed', async () => {
    for (const list of LISTS) {
      const res = await admin.get(`${list}?sort=password_hash`);
      expect(res.statusCode, list).toBe(422);
      expect(res.json().errors.sort[0]).toMatch(/^The sort must be one of: [a-z_]+, -[a-z_]+(, [a-z_]+, -[a-z_]+)*\.$/);
    }
    const long = await admin.call(adminOutboxContracts.list, { query: { search: 'x'.repeat(101) } });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.search).toEqual(['The search may not be greater than 100 characters.']);
  });

  it('answers 401 to a visitor and 403 to an account user', async () => {
    const visitor = await new Agent(t.app).start();
    const holder = await signedIn(t.app, HOLDER);
    for (const list of LISTS) {
      expect((await visitor.get(`${list}?search=a&sort=-created_at`)).statusCode, list).toBe(401);
      expect((await holder.get(`${list}?search=a&sort=-created_at`)).statusCode, list).toBe(403);
    }
  });
});
