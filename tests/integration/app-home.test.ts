import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  applications,
  auditLog,
  bylaws,
  invoices,
  levels,
  payments,
  users,
} from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { groupHomeContracts } from '../../src/shared/contracts/group-home.ts';
import { calendarDate, nextForm990Deadline } from '../../src/shared/rules/compliance-calendar.ts';
import { homeSummarySchema } from '../../src/shared/schemas/home.ts';
import { Agent, createTestApp, type TestApp, signedIn } from '../helpers/test-app.ts';

/** GET /api/app/home (docs/app-home.md): the group's home, for its users and for staff acting on its behalf. */

let t: TestApp;
const db = () => t.database.db;
let accountA: number;
let accountB: number;
let holderA: Agent;
let holderAId: number;
let invoiceA: number;
let heldInvoiceA: number;

const HOLDER_A = { email: 'home.holder.a@example.com', password: 'Home-holder-A1' };
const SECOND_A = { email: 'home.second.a@example.com', password: 'Home-second-A1' };
const HOLDER_B = { email: 'home.holder.b@example.com', password: 'Home-holder-B1' };
const ADMIN = { email: 'home.admin@example.com', password: 'Home-admin-pass1' };

beforeAll(async () => {
  t = await createTestApp();
  accountA = (await createAccount(db(), { name: 'Home Boosters A', ein: '123456789', city: 'Cheyenne', state: 'WY' }))
    .id;
  accountB = (await createAccount(db(), { name: 'Home Boosters B' })).id;
  await db()
    .update(accounts)
    .set({ fiscalYearEndMonth: 6, renewalDueAt: new Date(Date.now() + 40 * 86_400_000) })
    .where(eq(accounts.id, accountA));
  const a = await createUser(db(), { ...HOLDER_A, accountId: accountA, firstName: 'Alma' });
  holderAId = a.id;
  await db().update(users).set({ lastName: 'Alder', isPrimary: true }).where(eq(users.id, a.id));
  await db().update(accounts).set({ primaryUserId: a.id }).where(eq(accounts.id, accountA));
  const second = await createUser(db(), { ...SECOND_A, accountId: accountA, firstName: 'Sam' });
  const b = await createUser(db(), { ...HOLDER_B, accountId: accountB });
  await createUser(db(), { ...ADMIN, isAdmin: true });

  invoiceA = await createInvoice(db(), { accountId: accountA, cents: 123_456, prefix: 'HOME-A' });
  heldInvoiceA = await createInvoice(db(), { accountId: accountA, cents: 5_000, prefix: 'HOME-A' });
  await createInvoice(db(), { accountId: accountB, cents: 7_000, prefix: 'HOME-B' });
  // A card payment in flight holds the second invoice: it cannot be paid again now.
  const [pending] = await db()
    .insert(payments)
    .values({
      accountId: accountA,
      userId: a.id,
      method: 'card',
      status: 'pending',
      amountCents: 5_000,
      invoiceIds: [heldInvoiceA],
      idempotencyKey: randomUUID(),
    })
    .returning({ id: payments.id });
  await db().update(invoices).set({ heldByPaymentId: pending.id }).where(eq(invoices.id, heldInvoiceA));
  await db().insert(payments).values({
    accountId: accountA,
    userId: a.id,
    method: 'card',
    status: 'paid',
    amountCents: 7_000,
    invoiceIds: [],
    idempotencyKey: randomUUID(),
    settledAt: new Date(),
  });
  await db().insert(payments).values({
    accountId: accountB,
    userId: b.id,
    method: 'card',
    status: 'paid',
    amountCents: 9_900,
    invoiceIds: [],
    idempotencyKey: randomUUID(),
    settledAt: new Date(),
  });

  const [level] = await db().select({ id: levels.id, name: levels.name }).from(levels).limit(1);
  await db()
    .insert(applications)
    .values({ tokenHash: randomUUID(), userId: a.id, levelId: level.id, type: 'maintain' });
  await db()
    .insert(applications)
    .values({ tokenHash: randomUUID(), userId: second.id, levelId: level.id, type: 'maintain' });
  await db()
    .insert(applications)
    .values({ tokenHash: randomUUID(), userId: b.id, levelId: level.id, type: 'maintain' });
  await db()
    .insert(bylaws)
    .values({ hash: 'a'.repeat(32), variant: 'school', answers: {}, sessionHash: 'x', userId: second.id });
  await db()
    .insert(bylaws)
    .values({ hash: 'b'.repeat(32), variant: 'short', answers: {}, sessionHash: 'y', userId: b.id });

  holderA = await signedIn(t.app, HOLDER_A);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/app/home', () => {
  it('visitors get 401', async () => {
    const visitor = await new Agent(t.app).start();
    const res = await visitor.call(groupHomeContracts.home);
    expect(res.statusCode).toBe(401);
  });

  it('shows a holder their own account: standing, next deadline, payable invoices, drafts, documents and users', async () => {
    const res = await holderA.call(groupHomeContracts.home);
    expect(res.statusCode, res.body).toBe(200);
    const home = homeSummarySchema.parse(res.json());
    expect(home.account).toMatchObject({
      id: accountA,
      name: 'Home Boosters A',
      ein: '12-3456789',
      city: 'Cheyenne',
      state: 'WY',
    });
    expect(home.on_behalf).toBe(false);
    // No IRS data is loaded in this database: the group is not on the IRS list yet, and no letter is issued.
    expect(home.standing).toMatchObject({ state: 'not_listed', label: 'Not yet on the IRS list' });
    expect(home.documents.standing_letter).toEqual({ available: false, url: '/api/account/standing-letter' });

    const today = calendarDate(new Date());
    const form990 = nextForm990Deadline(6, today);
    const renewalDue = calendarDate(new Date(Date.now() + 40 * 86_400_000));
    expect(home.deadlines.map((d) => d.kind).sort()).toEqual(['form_990', 'renewal']);
    const soonest = [form990.due, renewalDue].sort()[0];
    expect(home.next_deadline?.due).toBe(soonest);

    expect(home.invoices.map((i) => [i.id, i.balance_cents, i.is_processing]).sort()).toEqual(
      [
        [invoiceA, 123_456, false],
        [heldInvoiceA, 5_000, true],
      ].sort(),
    );
    // Only what can be paid now is added up.
    expect(home.payable_cents).toBe(123_456);

    expect(home.applications.map((x) => [x.started_by, x.is_mine]).sort()).toEqual([
      ['Alma Alder', true],
      ['Sam', false],
    ]);
    expect(home.documents.bylaws).toEqual([
      { hash: 'a'.repeat(32), variant: 'school', updated_at: expect.any(String) },
    ]);
    expect(home.documents.receipts.map((r) => [r.amount_cents, r.status])).toEqual([[7_000, 'paid']]);
    expect(home.users).toEqual([
      { id: holderAId, name: 'Alma Alder', email: HOLDER_A.email, is_primary: true },
      expect.objectContaining({ name: 'Sam', email: SECOND_A.email, is_primary: false }),
    ]);
    // Reading one's own home is not acting on anyone's behalf.
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'home.viewed_on_behalf'))).toEqual([]);
  });

  it("ignores another account's id from a holder: still their own home, nothing of the other account", async () => {
    const res = await holderA.call(groupHomeContracts.home, { query: { account_id: accountB } });
    expect(res.statusCode).toBe(200);
    const home = homeSummarySchema.parse(res.json());
    expect(home.account?.id).toBe(accountA);
    expect(home.on_behalf).toBe(false);
    expect(res.body).not.toContain('Home Boosters B');
    expect(res.body).not.toContain(HOLDER_B.email);
    expect(res.body).not.toContain('b'.repeat(32));
    expect(home.invoices.every((i) => i.id === invoiceA || i.id === heldInvoiceA)).toBe(true);
  });

  it('staff see the account named by account_id, acting on its behalf, and the view is audited', async () => {
    const admin = await signedIn(t.app, ADMIN);
    const res = await admin.call(groupHomeContracts.home, { query: { account_id: accountB } });
    expect(res.statusCode, res.body).toBe(200);
    const home = homeSummarySchema.parse(res.json());
    expect(home.account).toMatchObject({ id: accountB, name: 'Home Boosters B' });
    expect(home.on_behalf).toBe(true);
    expect(home.invoices).toHaveLength(1);
    expect(home.documents.bylaws.map((b) => b.hash)).toEqual(['b'.repeat(32)]);
    // Staff are not the user who started the draft: they see it, but cannot continue it.
    expect(home.applications).toEqual([expect.objectContaining({ is_mine: false })]);
    expect(home.documents.standing_letter.url).toBe(`/api/admin/accounts/${accountB}/standing-letter`);

    const [staff] = await db().select({ id: users.id }).from(users).where(eq(users.email, ADMIN.email));
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'home.viewed_on_behalf'), eq(auditLog.accountId, accountB)));
    expect(audits).toEqual([expect.objectContaining({ actorUserId: staff.id, accountId: accountB })]);

    // Naming no account: 422 on the field; an account that does not exist: 404.
    const none = await admin.call(groupHomeContracts.home);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.account_id).toEqual(['The account id field is required.']);
    expect((await admin.call(groupHomeContracts.home, { query: { account_id: '1999999999' } })).statusCode).toBe(404);
    expect((await admin.call(groupHomeContracts.home, { query: { account_id: 'abc' } })).statusCode).toBe(422);
  });

  it('a signed-in user without an organization sees only their own drafts, and what to do next', async () => {
    const applicant = await createUser(db(), { email: 'home.applicant@example.com', password: 'Home-applicant-1' });
    const [level] = await db().select({ id: levels.id }).from(levels).limit(1);
    await db()
      .insert(applications)
      .values({ tokenHash: randomUUID(), userId: applicant.id, levelId: level.id, type: 'start-up' });
    const agent = await signedIn(t.app, { email: 'home.applicant@example.com', password: 'Home-applicant-1' });
    const home = homeSummarySchema.parse((await agent.call(groupHomeContracts.home)).json());
    expect(home.account).toBeNull();
    expect(home.applications).toEqual([
      expect.objectContaining({ started_by: 'home.applicant@example.com', is_mine: true }),
    ]);
    expect(home.invoices).toEqual([]);
    expect(home.users).toEqual([]);
  });
});
