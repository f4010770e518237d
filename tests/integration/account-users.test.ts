import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  applications,
  auditLog,
  inquiries,
  invoices,
  levels,
  sessions,
  users,
  mailOutbox,
} from '../../src/server/db/schema.ts';
import { createAccount, createInvoice, createUser } from '../../src/server/db/seed/factories.ts';
import { accountUserContracts } from '../../src/shared/contracts/account-settings.ts';
import { adminConsoleContracts } from '../../src/shared/contracts/admin-console.ts';
import {
  ACCOUNT_USER_TEXT,
  INVITATION_TEXT,
  type AccountUserList,
  type AccountUserRow,
} from '../../src/shared/schemas/account-users.ts';
import { acceptInvitation, invitationLink } from '../helpers/invitations.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * Account users (docs/requirements/screens.md "Admin account users", docs/requirements/entities.md "User", docs/requirements/behaviour.md "Account users", docs/requirements/permissions.md, docs/requirements/calls.md
 * /app/account/users/*, docs/requirements/errors.md "Account users"): list, store, update, delete; primary rules; another
 * account's users are 404; admins act on any account with account_id and are audited.
 */

const HOLDER_A = { email: 'users.a@example.com', password: 'Holder-pass-123' };
const HOLDER_B = { email: 'users.b@example.com', password: 'Holder-pass-456' };
const ADMIN = { email: 'users.admin@example.com', password: 'Admin-pass-789' };

let t: TestApp;
let accountA: number;
let accountB: number;
let holderA: { id: number };
let holderB: { id: number };
let adminId: number;
let a: Agent;
let b: Agent;
let admin: Agent;

const newUser = (over: Record<string, unknown> = {}) => ({
  email: 'new.person@example.com',
  first_name: 'Nora',
  last_name: 'Newman',
  phone: '(307) 555-0199',
  sms_phone: '',
  ...over,
});

const list = async (agent: Agent, query = '') => {
  const res = await agent.get(`/app/account/users/json${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AccountUserList;
};
const userRow = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0];
const primaryOf = async (accountId: number) =>
  (await t.database.db.select({ p: accounts.primaryUserId }).from(accounts).where(eq(accounts.id, accountId)))[0].p;

/**
 * Stores a user for `agent`'s account and returns its row; unless `invited`, the new user then
 * accepts their invitation with the password 'Fresh-pass-2026' (and is signed out again).
 */
async function store(
  agent: Agent,
  over: Record<string, unknown> = {},
  opts: { invited?: boolean } = {},
): Promise<AccountUserRow> {
  const res = await agent.call(accountUserContracts.store, { body: newUser(over) });
  expect(res.statusCode, res.body).toBe(201);
  const user = res.json().user as AccountUserRow;
  if (!opts.invited) await acceptInvitation(t.app, t.database.db, user.email, 'Fresh-pass-2026', { signOut: true });
  return user;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  accountA = (await createAccount(db, { name: 'Users Boosters A' })).id;
  accountB = (await createAccount(db, { name: 'Users Boosters B' })).id;
  holderA = await createUser(db, { ...HOLDER_A, accountId: accountA, firstName: 'Alma' });
  holderB = await createUser(db, { ...HOLDER_B, accountId: accountB });
  adminId = (await createUser(db, { ...ADMIN, isAdmin: true })).id;
  await db.update(users).set({ isPrimary: true }).where(eq(users.id, holderA.id));
  await db.update(accounts).set({ primaryUserId: holderA.id }).where(eq(accounts.id, accountA));
  await db.update(users).set({ isPrimary: true }).where(eq(users.id, holderB.id));
  await db.update(accounts).set({ primaryUserId: holderB.id }).where(eq(accounts.id, accountB));
  [a, b, admin] = await Promise.all([signedIn(t.app, HOLDER_A), signedIn(t.app, HOLDER_B), signedIn(t.app, ADMIN)]);
});
afterAll(async () => t?.close());

describe('account users (docs/requirements/calls.md /app/account/users/*)', () => {
  it('answers 401 to visitors on every call', async () => {
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(accountUserContracts.list)).statusCode).toBe(401);
    expect((await visitor.call(accountUserContracts.store, { body: newUser() })).statusCode).toBe(401);
    expect(
      (await visitor.call(accountUserContracts.update, { params: { id: holderA.id }, body: newUser() })).statusCode,
    ).toBe(401);
    expect((await visitor.call(accountUserContracts.remove, { params: { id: holderA.id } })).statusCode).toBe(401);
  });

  it("lists the own account's users with the primary user marked, never the password hash", async () => {
    const body = await list(a);
    expect(body.account).toEqual({ id: accountA, name: 'Users Boosters A' });
    expect(body.users).toHaveLength(1);
    expect(body.users[0]).toEqual({
      id: holderA.id,
      email: HOLDER_A.email,
      first_name: 'Alma',
      last_name: '',
      phone: '',
      sms_phone: '',
      is_primary: true,
      is_subscribed_bulk_emails: true,
      is_subscribed_event_emails: true,
      is_subscribed_sms: false,
      invited_at: null,
    });
    expect(JSON.stringify(body)).not.toMatch(/password|argon/i);
    // The primary user may manage the account's users, confirming sensitive changes (docs/roles.md).
    expect(body.viewer).toEqual({ id: holderA.id, can_manage: true, must_confirm: true });
    // A holder's account_id is ignored: still their own account.
    expect((await list(a, `?account_id=${accountB}`)).account.id).toBe(accountA);
  });

  it('stores a user with the docs/requirements/entities.md defaults (bulk and event e-mails on, SMS off), invited to choose their own password', async () => {
    // A password typed by the primary user is not taken (docs/roles.md "Invitations").
    const res = await a.call(accountUserContracts.store, {
      body: newUser({
        email: 'Defaults.Person@Example.com',
        password: 'Typed-by-other-1',
        password_confirmation: 'Typed-by-other-1',
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(INVITATION_TEXT.created);
    const created = res.json().user as AccountUserRow;
    expect(created).toMatchObject({
      email: 'defaults.person@example.com',
      first_name: 'Nora',
      last_name: 'Newman',
      phone: '(307) 555-0199',
      is_primary: false,
      is_subscribed_bulk_emails: true,
      is_subscribed_event_emails: true,
      is_subscribed_sms: false,
      invited_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const row = await userRow(created.id);
    expect(row).toMatchObject({ accountId: accountA, isAdmin: false, isPrimary: false });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await list(a)).users.find((u) => u.id === created.id)!.invited_at).toBe(created.invited_at);
    // Nobody can sign in as them until they choose a password, least of all with the typed one.
    expect(
      (await (await new Agent(t.app).start()).login('defaults.person@example.com', 'Typed-by-other-1')).statusCode,
    ).toBe(422);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.kind, 'account_users.invitation'), eq(mailOutbox.toAddress, 'defaults.person@example.com')),
      );
    expect(mail).toMatchObject({
      carriesToken: true,
      subject: expect.stringMatching(/^You are invited to an account on /),
    });
    expect(mail.textBody).toContain("The account's name, as its users typed it: “Users Boosters A”.");
    expect(mail.textBody).toContain('The invitation was sent by its user “Alma” (users[.]a@example[.]com).');
    expect(mail.textBody).toMatch(
      /The link works once, until [A-Z][a-z]+ \d{1,2}, \d{4} .+ UTC:\nhttp:\/\/\S+\/password\/reset\/[A-Za-z0-9_-]{22}\?email=defaults.person%40example.com&invitation=1\n/,
    );
    expect(mail.textBody).not.toContain('Typed-by-other-1');
    await acceptInvitation(t.app, t.database.db, 'defaults.person@example.com', 'Fresh-pass-2026', { signOut: true });
    expect((await userRow(created.id)).invitedAt).toBeNull();
    await signedIn(t.app, { email: 'defaults.person@example.com', password: 'Fresh-pass-2026' });
    // The link worked once.
    const again = await (
      await new Agent(t.app).start()
    ).post('/password/reset', {
      token: (await invitationLink(t.database.db, 'defaults.person@example.com')).token,
      email: 'defaults.person@example.com',
      password: 'Other-pass-2026',
      password_confirmation: 'Other-pass-2026',
    });
    expect(again.statusCode).toBe(422);
    // Checkboxes sent as 1/0 are honoured.
    const flags = await store(a, {
      email: 'flags.person@example.com',
      is_subscribed_bulk_emails: 0,
      is_subscribed_event_emails: '0',
      is_subscribed_sms: 1,
    });
    expect(flags).toMatchObject({
      is_subscribed_bulk_emails: false,
      is_subscribed_event_emails: false,
      is_subscribed_sms: true,
    });
    // Holders' own actions are not audited as "on behalf".
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'account_users.created'));
    expect(audits).toHaveLength(0);
  });

  it('resends an invitation: only the primary user or staff, only while it is pending; the earlier link stops working', async () => {
    const invited = await store(a, { email: 'resend.me@example.com' }, { invited: true });
    const first = await invitationLink(t.database.db, 'resend.me@example.com');
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(accountUserContracts.invitation, { params: { id: invited.id } })).statusCode).toBe(401);
    // Another account's primary user: not their user.
    expect((await b.call(accountUserContracts.invitation, { params: { id: invited.id } })).statusCode).toBe(404);
    // A user of the account who is not its primary user.
    await store(a, { email: 'plain.member@example.com' });
    const member = await signedIn(t.app, { email: 'plain.member@example.com', password: 'Fresh-pass-2026' });
    const refused = await member.call(accountUserContracts.invitation, { params: { id: invited.id } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ACCOUNT_USER_TEXT.refusedOther);

    const res = await a.call(accountUserContracts.invitation, { params: { id: invited.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: INVITATION_TEXT.resent, expires_at: expect.stringMatching(/^\d{4}-/) });
    const second = await invitationLink(t.database.db, 'resend.me@example.com');
    expect(second.token).not.toBe(first.token);
    const old = await (
      await new Agent(t.app).start()
    ).post('/password/reset', {
      token: first.token,
      email: 'resend.me@example.com',
      password: 'Chosen-pass-2026',
      password_confirmation: 'Chosen-pass-2026',
    });
    expect(old.statusCode).toBe(422);
    await acceptInvitation(t.app, t.database.db, 'resend.me@example.com', 'Chosen-pass-2026', { signOut: true });
    // Staff for the account: audited; once accepted there is nothing to resend.
    const done = await admin.call(accountUserContracts.invitation, {
      params: { id: invited.id },
      body: { account_id: accountA },
    });
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toBe(INVITATION_TEXT.alreadyAccepted);
  });

  it("validates with the server's messages: required fields, duplicate e-mail", async () => {
    const empty = await a.call(accountUserContracts.store);
    expect(empty.statusCode).toBe(422);
    // The first message per field is the one shown (docs/requirements/validation.md).
    const firsts = Object.fromEntries(
      Object.entries(empty.json().errors as Record<string, string[]>).map(([k, v]) => [k, v[0]]),
    );
    expect(firsts).toEqual({
      email: 'The email field is required.',
      first_name: 'The first name field is required.',
      last_name: 'The last name field is required.',
    });
    const taken = await a.call(accountUserContracts.store, { body: newUser({ email: HOLDER_B.email.toUpperCase() }) });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual({
      message: ACCOUNT_USER_TEXT.emailTaken,
      errors: { email: [ACCOUNT_USER_TEXT.emailTaken] },
    });
    const badPhone = await a.call(accountUserContracts.store, {
      body: newUser({ email: 'phone@example.com', sms_phone: 'call me' }),
    });
    expect(badPhone.json().errors.sms_phone).toEqual(['The sms phone field format is invalid.']);
  });

  it('ignores privilege fields in the body: is_admin, account_id, is_primary spelled otherwise', async () => {
    const created = await store(a, {
      email: 'sneaky@example.com',
      is_admin: 1,
      isAdmin: true,
      account_id: accountB,
      accountId: accountB,
      password_hash: 'x',
    });
    const row = await userRow(created.id);
    expect(row).toMatchObject({ isAdmin: false, accountId: accountA });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    const upd = await a.call(accountUserContracts.update, {
      params: { id: created.id },
      body: newUser({
        email: 'sneaky@example.com',
        password: '',
        password_confirmation: '',
        is_admin: true,
        account_id: accountB,
      }),
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(await userRow(created.id)).toMatchObject({ isAdmin: false, accountId: accountA });
  });

  it('updates a user: the password only when given, only by the user themself, and signing in with the new one works', async () => {
    const created = await store(a, { email: 'editme@example.com' });
    const before = await userRow(created.id);
    // A new e-mail address takes the primary user's own current password (docs/roles.md).
    const noPw = await a.call(accountUserContracts.update, {
      params: { id: created.id },
      body: newUser({
        email: 'edited@example.com',
        first_name: 'Edna',
        password: '',
        password_confirmation: '',
        sms_phone: '307-555-0142',
        is_subscribed_sms: 1,
        current_password: HOLDER_A.password,
      }),
    });
    expect(noPw.statusCode, noPw.body).toBe(200);
    expect(noPw.json().user).toMatchObject({
      email: 'edited@example.com',
      first_name: 'Edna',
      sms_phone: '307-555-0142',
      is_subscribed_sms: true,
      is_subscribed_bulk_emails: true,
    });
    expect((await userRow(created.id)).passwordHash).toBe(before.passwordHash);
    await signedIn(t.app, { email: 'edited@example.com', password: 'Fresh-pass-2026' });

    // The primary user does not choose another user's password (docs/roles.md "Invitations").
    const typed = await a.call(accountUserContracts.update, {
      params: { id: created.id },
      body: newUser({
        email: 'edited@example.com',
        password: 'Newer-pass-2027',
        password_confirmation: 'Newer-pass-2027',
        current_password: HOLDER_A.password,
      }),
    });
    expect(typed.statusCode).toBe(422);
    expect(typed.json().errors).toEqual({ password: [ACCOUNT_USER_TEXT.ownPasswordOnly] });
    expect((await userRow(created.id)).passwordHash).toBe(before.passwordHash);

    const edna = await signedIn(t.app, { email: 'edited@example.com', password: 'Fresh-pass-2026' });
    const mismatch = await edna.call(accountUserContracts.update, {
      params: { id: created.id },
      body: newUser({ email: 'edited@example.com', password: 'Newer-pass-2027', password_confirmation: 'nope' }),
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.password).toEqual(['The password field confirmation does not match.']);

    const withPw = await edna.call(accountUserContracts.update, {
      params: { id: created.id },
      body: newUser({
        email: 'edited@example.com',
        password: 'Newer-pass-2027',
        password_confirmation: 'Newer-pass-2027',
        current_password: 'Fresh-pass-2026',
      }),
    });
    expect(withPw.statusCode, withPw.body).toBe(200);
    const stale = await new Agent(t.app).start();
    expect((await stale.login('edited@example.com', 'Fresh-pass-2026')).statusCode).toBe(422);
    await signedIn(t.app, { email: 'edited@example.com', password: 'Newer-pass-2027' });

    // Keeping one's own e-mail is not "taken"; another user's is.
    const taken = await a.call(accountUserContracts.update, {
      params: { id: created.id },
      body: newUser({
        email: HOLDER_A.email,
        password: '',
        password_confirmation: '',
        current_password: HOLDER_A.password,
      }),
    });
    expect(taken.json().errors.email).toEqual([ACCOUNT_USER_TEXT.emailTaken]);
  });

  it('setting another user primary clears the flag on the rest; the primary cannot be un-primaried or deleted', async () => {
    const other = await store(a, { email: 'next.primary@example.com' });
    const res = await a.call(accountUserContracts.update, {
      params: { id: other.id },
      body: newUser({
        email: 'next.primary@example.com',
        password: '',
        password_confirmation: '',
        is_primary: 1,
        current_password: HOLDER_A.password,
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.is_primary).toBe(true);
    const primaries = (await list(a)).users.filter((u) => u.is_primary);
    expect(primaries.map((u) => u.id)).toEqual([other.id]);
    expect(await primaryOf(accountA)).toBe(other.id);
    expect((await userRow(holderA.id)).isPrimary).toBe(false);

    // The new primary user manages the account from here (docs/roles.md).
    const o = await signedIn(t.app, { email: 'next.primary@example.com', password: 'Fresh-pass-2026' });
    // The primary user's own form cannot clear the flag.
    const unprimary = await o.call(accountUserContracts.update, {
      params: { id: other.id },
      body: newUser({ email: 'next.primary@example.com', password: '', password_confirmation: '', is_primary: 0 }),
    });
    expect(unprimary.statusCode).toBe(422);
    expect(unprimary.json().errors).toEqual({ is_primary: [ACCOUNT_USER_TEXT.keepPrimary] });
    expect((await userRow(other.id)).isPrimary).toBe(true);
    // Saving it without the checkbox keeps it primary.
    const keep = await o.call(accountUserContracts.update, {
      params: { id: other.id },
      body: {
        ...newUser({ email: 'next.primary@example.com', password: '', password_confirmation: '' }),
      },
    });
    expect(keep.json().user.is_primary).toBe(true);

    const del = await o.call(accountUserContracts.remove, { params: { id: other.id } });
    expect(del.statusCode).toBe(422);
    expect(del.json()).toEqual({
      message: "Can't delete primary user.",
      errors: { is_primary: ['Please assign a new primary user to allow deletion.'] },
    });
    expect(await userRow(other.id)).toBeTruthy();

    // A new user stored as primary takes the mark too.
    const third = await store(o, {
      email: 'third.primary@example.com',
      is_primary: '1',
      current_password: 'Fresh-pass-2026',
    });
    expect(third.is_primary).toBe(true);
    expect((await list(o)).users.filter((u) => u.is_primary).map((u) => u.id)).toEqual([third.id]);
    expect(await primaryOf(accountA)).toBe(third.id);

    // Back to the holder, so later tests start from the original primary. The transfer signs the
    // new primary user out everywhere else, so the holder signs in again.
    const third$ = await signedIn(t.app, { email: 'third.primary@example.com', password: 'Fresh-pass-2026' });
    const back = await third$.put(
      `/app/account/users/update/${holderA.id}`,
      newUser({
        email: HOLDER_A.email,
        password: '',
        password_confirmation: '',
        is_primary: 1,
        current_password: 'Fresh-pass-2026',
      }),
    );
    expect(back.statusCode, back.body).toBe(200);
    expect(await primaryOf(accountA)).toBe(holderA.id);
    expect((await a.call(accountUserContracts.list)).statusCode).toBe(401);
    a = await signedIn(t.app, HOLDER_A);
  });

  it('deletes a non-primary user and their sessions', async () => {
    const gone = await store(a, { email: 'leaving@example.com' });
    const theirs = await signedIn(t.app, { email: 'leaving@example.com', password: 'Fresh-pass-2026' });
    expect((await t.database.db.select().from(sessions).where(eq(sessions.userId, gone.id))).length).toBe(1);
    const res = await a.call(accountUserContracts.remove, { params: { id: gone.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await userRow(gone.id)).toBeUndefined();
    expect((await t.database.db.select().from(sessions).where(eq(sessions.userId, gone.id))).length).toBe(0);
    expect((await theirs.call(accountUserContracts.list)).statusCode).toBe(401);
    expect((await a.call(accountUserContracts.remove, { params: { id: gone.id } })).statusCode).toBe(404);
  });

  it('deletes a user who once handled an inquiry: the inquiry keeps its handled time, without the handler', async () => {
    const gone = await store(a, { email: 'inquiry.handler@example.com' });
    const [inquiry] = await t.database.db
      .insert(inquiries)
      .values({
        kind: 'contact',
        email: 'asker@example.com',
        isHandled: true,
        handledAt: new Date(),
        handledBy: gone.id,
      })
      .returning();
    const res = await a.call(accountUserContracts.remove, { params: { id: gone.id } });
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await t.database.db.select().from(inquiries).where(eq(inquiries.id, inquiry.id));
    expect(after).toMatchObject({ isHandled: true, handledBy: null });
  });

  it("deleting the user who applied hands the account's application to the primary user; the invoice stays", async () => {
    const db = t.database.db;
    const founder = await store(a, { email: 'founder@example.com' });
    const [level] = await db.select({ id: levels.id }).from(levels).limit(1);
    const [app] = await db
      .insert(applications)
      .values({
        tokenHash: 'founder-token',
        userId: founder.id,
        levelId: level.id,
        type: 'start-up',
        status: 'completed',
        accountId: accountA,
      })
      .returning({ id: applications.id });
    const [draft] = await db
      .insert(applications)
      .values({ tokenHash: 'founder-draft', userId: founder.id, levelId: level.id, type: 'start-up' })
      .returning({ id: applications.id });
    const invoiceId = await createInvoice(db, { accountId: accountA, cents: 1000 });
    await db.update(invoices).set({ applicationId: app.id }).where(eq(invoices.id, invoiceId));
    const res = await a.call(accountUserContracts.remove, { params: { id: founder.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await db.select().from(applications).where(eq(applications.id, app.id)))[0].userId).toBe(holderA.id);
    expect(await db.select().from(applications).where(eq(applications.id, draft.id))).toEqual([]);
    expect((await db.select().from(invoices).where(eq(invoices.id, invoiceId)))[0].applicationId).toBe(app.id);
  });

  it("another account's user is 404 for update and delete, with or without account_id", async () => {
    const upd = await b.call(accountUserContracts.update, {
      params: { id: holderA.id },
      body: newUser({ email: 'hijack@example.com', password: '', password_confirmation: '' }),
    });
    expect(upd.statusCode).toBe(404);
    const withId = await b.call(accountUserContracts.update, {
      params: { id: holderA.id },
      body: {
        ...newUser({ email: 'hijack@example.com', password: '', password_confirmation: '' }),
        account_id: accountA,
      },
    });
    expect(withId.statusCode).toBe(404);
    expect((await b.call(accountUserContracts.remove, { params: { id: holderA.id } })).statusCode).toBe(404);
    expect(
      (await b.request('DELETE', `/app/account/users/delete/${holderA.id}`, { account_id: accountA })).statusCode,
    ).toBe(404);
    expect((await b.call(accountUserContracts.remove, { params: { id: 999999 } })).statusCode).toBe(404);
    expect((await b.call(accountUserContracts.remove, { params: { id: 'abc' } })).statusCode).toBe(404);
    expect(await userRow(holderA.id)).toMatchObject({ email: HOLDER_A.email });
  });

  it('a holder calling admin-only routes gets 403', async () => {
    for (const url of ['/api/admin/inquiries', '/api/admin/applications', '/api/admin/outbox', '/api/admin/banners']) {
      expect((await a.get(url)).statusCode, url).toBe(403);
    }
    expect(
      (await a.call(adminConsoleContracts.createBanner, { body: { kind: 'holiday-alert', text: 'x', is_active: 1 } }))
        .statusCode,
    ).toBe(403);
    expect((await a.get('/admin')).statusCode).toBe(403);
  });

  it("an admin manages any account's users with account_id, audited with the admin and the account", async () => {
    const none = await admin.call(accountUserContracts.list);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({ account_id: ['The account id field is required.'] });
    expect(
      (await admin.call(accountUserContracts.store, { body: newUser({ email: 'noacct@example.com' }) })).statusCode,
    ).toBe(422);
    expect((await admin.call(accountUserContracts.list, { query: { account_id: 999999 } })).statusCode).toBe(404);

    const body = await list(admin, `?account_id=${accountB}`);
    expect(body.account.id).toBe(accountB);
    expect(body.users.map((u) => u.id)).toEqual([holderB.id]);

    const created = await admin.call(accountUserContracts.store, {
      body: {
        ...newUser({ email: 'by.admin@example.com', is_primary: 1 }),
        account_id: accountB,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().user.id as number;
    expect(await userRow(id)).toMatchObject({ accountId: accountB, isPrimary: true, isAdmin: false });
    expect(await primaryOf(accountB)).toBe(id);
    expect((await userRow(holderB.id)).isPrimary).toBe(false);

    // A user of account B is 404 when the admin names account A.
    expect(
      (
        await admin.call(accountUserContracts.update, {
          params: { id: id },
          body: {
            ...newUser({ email: 'by.admin@example.com', password: '', password_confirmation: '' }),
            account_id: accountA,
          },
        })
      ).statusCode,
    ).toBe(404);

    const upd = await admin.call(accountUserContracts.update, {
      params: { id: holderB.id },
      body: {
        ...newUser({ email: HOLDER_B.email, password: '', password_confirmation: '', is_primary: 1 }),
        account_id: accountB,
      },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(await primaryOf(accountB)).toBe(holderB.id);
    const del = await admin.request('DELETE', `/app/account/users/delete/${id}`, { account_id: accountB });
    expect(del.statusCode, del.body).toBe(200);

    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, adminId), eq(auditLog.accountId, accountB)));
    expect(audits.map((r) => r.action).sort()).toEqual([
      'account_users.created',
      'account_users.deleted',
      'account_users.updated',
    ]);
    expect(JSON.stringify(audits.map((r) => r.details))).not.toMatch(/Fresh-pass|argon/);
  });
});
