import { and, eq, gt, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, mailOutbox, sessions, users } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { typedAddress } from '../../src/server/modules/mail/mail-words.ts';
import { hashId, sessionCookieName } from '../../src/server/plugins/session.ts';
import { accountUserContracts } from '../../src/shared/contracts/account-settings.ts';
import { ACCOUNT_USER_TEXT, type AccountUserList } from '../../src/shared/schemas/account-users.ts';
import { databaseFingerprint, sessionAgent } from '../helpers/routes.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * Roles inside an account (docs/roles.md): the primary user and staff acting on behalf manage the
 * account's users; any other user reads the list and edits only their own record. E-mail and
 * password changes and primary transfers by an account user take their current password; they,
 * and removals, end the affected user's other sessions and send notices. Every refusal is a 403
 * with a readable message, changes nothing and is audited.
 */

const PASSWORDS = {
  primary: 'Primary-pass-2026',
  member: 'Member-pass-2026',
  other: 'Other-pass-2026',
  admin: 'Staff-pass-2026',
  stranger: 'Stranger-pass-2026',
  fresh: 'Brand-new-pass-2027',
};
const ALL_PASSWORDS = Object.values(PASSWORDS);

let t: TestApp;
let adminId: number;
let admin: Agent;
let seq = 0;

const db = () => t.database.db;

interface Family {
  accountId: number;
  primary: { id: number; email: string };
  member: { id: number; email: string };
  other: { id: number; email: string };
}

/** A fresh account "Roles Boosters N": a primary user, a member and another member, each with a password. */
async function family(): Promise<Family> {
  const n = ++seq;
  const accountId = (await createAccount(db(), { name: `Roles Boosters ${n}` })).id;
  const make = async (who: 'primary' | 'member' | 'other', firstName: string) => {
    const u = await createUser(db(), {
      email: `${who}.${n}@roles.example.com`,
      password: PASSWORDS[who],
      accountId,
      firstName,
    });
    return { id: u.id, email: u.email };
  };
  const primary = await make('primary', 'Paula');
  const member = await make('member', 'Milo');
  const other = await make('other', 'Olive');
  await db().update(users).set({ isPrimary: true }).where(eq(users.id, primary.id));
  await db().update(accounts).set({ primaryUserId: primary.id }).where(eq(accounts.id, accountId));
  return { accountId, primary, member, other };
}

/** The profile fields of a user as the form sends them (password unchanged unless given). */
const profile = (email: string, over: Record<string, unknown> = {}) => ({
  email,
  first_name: 'Edited',
  last_name: 'Person',
  phone: '',
  sms_phone: '',
  password: '',
  password_confirmation: '',
  ...over,
});

const userRow = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0];
const primaryOf = async (accountId: number) =>
  (await db().select({ p: accounts.primaryUserId }).from(accounts).where(eq(accounts.id, accountId)))[0].p;
const sessionIds = async (userId: number) =>
  (await db().select({ id: sessions.idHash }).from(sessions).where(eq(sessions.userId, userId)))
    .map((r) => r.id)
    .sort();
/** The session id (as stored) of an agent. */
const sessionOf = (agent: Agent) => hashId(agent.cookies.get(sessionCookieName(t.config.cookieSecure))!);
const lastMailId = async () =>
  (await db().select({ id: mailOutbox.id }).from(mailOutbox).orderBy(mailOutbox.id)).at(-1)?.id ?? 0;
const mailsSince = async (id: number) =>
  db().select().from(mailOutbox).where(gt(mailOutbox.id, id)).orderBy(mailOutbox.id);
const lastAuditId = async () =>
  (await db().select({ id: auditLog.id }).from(auditLog).orderBy(auditLog.id)).at(-1)?.id ?? 0;
const auditsSince = async (id: number) => db().select().from(auditLog).where(gt(auditLog.id, id)).orderBy(auditLog.id);

/** Every table but audit_log: a refusal may add its audit row and nothing else. */
const fingerprintButAudit = async () =>
  (await databaseFingerprint(db()))
    .split('\n')
    .filter((l) => !l.startsWith('audit_log '))
    .join('\n');

/**
 * Sends `attempt` and requires a 403 with `message`, no change anywhere, and exactly one audit row
 * 'account_users.refused' by `actorId` on `accountId` with `details`, which names no password.
 */
async function expectRefused(
  attempt: () => Promise<{ statusCode: number; body: string; json: () => { message: string } }>,
  expected: {
    message: string;
    actorId: number;
    accountId: number;
    details: Record<string, unknown>;
  },
) {
  const before = await fingerprintButAudit();
  const auditMark = await lastAuditId();
  const res = await attempt();
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toEqual({ message: expected.message });
  expect(await fingerprintButAudit(), 'a refusal changed something').toBe(before);
  const audits = await auditsSince(auditMark);
  expect(audits).toHaveLength(1);
  expect(audits[0]).toMatchObject({
    action: 'account_users.refused',
    actorUserId: expected.actorId,
    accountId: expected.accountId,
  });
  expect(audits[0].details).toEqual({ onBehalf: false, ...expected.details });
  for (const pw of ALL_PASSWORDS) expect(JSON.stringify(audits[0].details)).not.toContain(pw);
}

/** Sends `attempt` and requires a 422 on `current_password` with `message`, and no change anywhere. */
async function expectCurrentPasswordRefused(
  attempt: () => Promise<{ statusCode: number; body: string; json: () => unknown }>,
  message: string,
) {
  const before = await databaseFingerprint(db());
  const res = await attempt();
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json()).toEqual({ message, errors: { current_password: [message] } });
  for (const pw of ALL_PASSWORDS) expect(res.body).not.toContain(pw);
  expect(await databaseFingerprint(db()), 'a refused change wrote').toBe(before);
}

/** No notice carries a password or any link (so no token either). */
function expectSafeNotices(mails: { textBody: string; subject: string }[]) {
  for (const m of mails) {
    for (const pw of ALL_PASSWORDS) expect(m.textBody + m.subject).not.toContain(pw);
    expect(m.textBody).not.toMatch(/https?:\/\/|\/password\/reset|token/i);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  adminId = (
    await createUser(db(), {
      email: 'roles.staff@example.com',
      password: PASSWORDS.admin,
      isAdmin: true,
      firstName: 'Stan',
    })
  ).id;
  admin = await signedIn(t.app, { email: 'roles.staff@example.com', password: PASSWORDS.admin });
});
afterAll(async () => t?.close());

describe('who may do what (docs/roles.md)', () => {
  it('any user of the account reads the list; the answer says what the viewer may do', async () => {
    const f = await family();
    const member = await signedIn(t.app, { email: f.member.email, password: PASSWORDS.member });
    const asMember = (await member.call(accountUserContracts.list)).json() as AccountUserList;
    expect(asMember.users.map((u) => u.id).sort()).toEqual([f.primary.id, f.member.id, f.other.id].sort());
    expect(asMember.viewer).toEqual({ id: f.member.id, can_manage: false, must_confirm: true });

    const primary = await signedIn(t.app, { email: f.primary.email, password: PASSWORDS.primary });
    expect(((await primary.call(accountUserContracts.list)).json() as AccountUserList).viewer).toEqual({
      id: f.primary.id,
      can_manage: true,
      must_confirm: true,
    });

    const asStaff = (
      await admin.call(accountUserContracts.list, { query: { account_id: f.accountId } })
    ).json() as AccountUserList;
    expect(asStaff.viewer).toEqual({ id: adminId, can_manage: true, must_confirm: false });
  });

  it('a user who is not primary cannot edit the primary user: 403, nothing changed, audited', async () => {
    const f = await family();
    const member = await signedIn(t.app, { email: f.member.email, password: PASSWORDS.member });
    const primary = await sessionAgent(t, f.primary.id);
    const before = await userRow(f.primary.id);
    await expectRefused(
      () =>
        member.call(accountUserContracts.update, {
          params: { id: f.primary.id },
          body: profile('taken.over@example.com', {
            password: PASSWORDS.fresh,
            password_confirmation: PASSWORDS.fresh,
            current_password: PASSWORDS.member,
          }),
        }),
      {
        message: ACCOUNT_USER_TEXT.refusedOther,
        actorId: f.member.id,
        accountId: f.accountId,
        details: { attempted: 'update', targetUserId: f.primary.id, fields: ['email', 'password'] },
      },
    );
    expect(await userRow(f.primary.id)).toEqual(before);
    // The primary user is still signed in and still primary.
    expect((await primary.call(accountUserContracts.list)).statusCode).toBe(200);
    expect(await primaryOf(f.accountId)).toBe(f.primary.id);
  });

  it('a user who is not primary cannot edit another user, add, delete anyone or make themselves primary', async () => {
    const f = await family();
    const member = await signedIn(t.app, { email: f.member.email, password: PASSWORDS.member });
    const refused = { actorId: f.member.id, accountId: f.accountId };

    await expectRefused(
      () =>
        member.call(accountUserContracts.update, {
          params: { id: f.other.id },
          body: profile(f.other.email, { first_name: 'Renamed' }),
        }),
      {
        ...refused,
        message: ACCOUNT_USER_TEXT.refusedOther,
        details: { attempted: 'update', targetUserId: f.other.id, fields: [] },
      },
    );
    await expectRefused(
      () =>
        member.call(accountUserContracts.store, {
          body: profile('added.by.member@example.com', {
            password: PASSWORDS.fresh,
            password_confirmation: PASSWORDS.fresh,
          }),
        }),
      { ...refused, message: ACCOUNT_USER_TEXT.refusedCreate, details: { attempted: 'create' } },
    );
    await expectRefused(() => member.call(accountUserContracts.remove, { params: { id: f.other.id } }), {
      ...refused,
      message: ACCOUNT_USER_TEXT.refusedDelete,
      details: { attempted: 'delete', targetUserId: f.other.id },
    });
    // The primary user: 403 for the role, before the "can't delete primary" rule.
    await expectRefused(() => member.call(accountUserContracts.remove, { params: { id: f.primary.id } }), {
      ...refused,
      message: ACCOUNT_USER_TEXT.refusedDelete,
      details: { attempted: 'delete', targetUserId: f.primary.id },
    });
    await expectRefused(() => member.call(accountUserContracts.remove, { params: { id: f.member.id } }), {
      ...refused,
      message: ACCOUNT_USER_TEXT.refusedDelete,
      details: { attempted: 'delete', targetUserId: f.member.id },
    });
    // Self-promotion, even with the right current password.
    await expectRefused(
      () =>
        member.call(accountUserContracts.update, {
          params: { id: f.member.id },
          body: profile(f.member.email, { is_primary: 1, current_password: PASSWORDS.member }),
        }),
      {
        ...refused,
        message: ACCOUNT_USER_TEXT.refusedPrimary,
        details: { attempted: 'make_primary', targetUserId: f.member.id },
      },
    );
    expect(await primaryOf(f.accountId)).toBe(f.primary.id);
    expect((await userRow(f.member.id)).isPrimary).toBe(false);
    expect(await userRow(f.other.id)).toBeTruthy();
    expect(await db().select().from(users).where(eq(users.email, 'added.by.member@example.com'))).toEqual([]);
  });

  it("another account's user stays 404, writes nothing and reveals nothing", async () => {
    const f = await family();
    const g = await family();
    for (const [agent, target] of [
      [await signedIn(t.app, { email: g.member.email, password: PASSWORDS.member }), f.member],
      [await signedIn(t.app, { email: g.primary.email, password: PASSWORDS.primary }), f.primary],
    ] as const) {
      const before = await databaseFingerprint(db());
      const upd = await agent.call(accountUserContracts.update, {
        params: { id: target.id },
        body: {
          ...profile('x.taken@example.com', { current_password: PASSWORDS.primary }),
          account_id: f.accountId,
        },
      });
      expect(upd.statusCode).toBe(404);
      expect(upd.body).not.toContain(target.email);
      expect(
        (await agent.request('DELETE', `/app/account/users/delete/${target.id}`, { account_id: f.accountId }))
          .statusCode,
      ).toBe(404);
      expect(await databaseFingerprint(db())).toBe(before);
    }
  });
});

describe('changing one\'s own record (docs/roles.md "Passwords")', () => {
  it('a member edits their own name freely; a new e-mail needs the current password, and ends their other sessions only', async () => {
    const f = await family();
    const member = await signedIn(t.app, { email: f.member.email, password: PASSWORDS.member });
    const memberElsewhere = await sessionAgent(t, f.member.id);
    const primary = await sessionAgent(t, f.primary.id);

    const named = await member.call(accountUserContracts.update, {
      params: { id: f.member.id },
      body: profile(f.member.email, { first_name: 'Milton' }),
    });
    expect(named.statusCode, named.body).toBe(200);
    expect((await userRow(f.member.id)).firstName).toBe('Milton');
    expect((await sessionIds(f.member.id)).length).toBe(2);

    const newEmail = `milton.${seq}@roles.example.com`;
    await expectCurrentPasswordRefused(
      () =>
        member.call(accountUserContracts.update, {
          params: { id: f.member.id },
          body: profile(newEmail, { first_name: 'Milton' }),
        }),
      ACCOUNT_USER_TEXT.currentPasswordRequired,
    );
    await expectCurrentPasswordRefused(
      () =>
        member.call(accountUserContracts.update, {
          params: { id: f.member.id },
          body: profile(newEmail, { first_name: 'Milton', current_password: PASSWORDS.primary }),
        }),
      ACCOUNT_USER_TEXT.currentPasswordWrong,
    );

    const mailMark = await lastMailId();
    const ok = await member.call(accountUserContracts.update, {
      params: { id: f.member.id },
      body: profile(newEmail, { first_name: 'Milton', current_password: PASSWORDS.member }),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await userRow(f.member.id)).email).toBe(newEmail);
    // This session stays; the member's other one ends; nobody else's does.
    expect(await sessionIds(f.member.id)).toEqual([sessionOf(member)]);
    expect((await member.call(accountUserContracts.list)).statusCode).toBe(200);
    expect((await memberElsewhere.call(accountUserContracts.list)).statusCode).toBe(401);
    expect((await primary.call(accountUserContracts.list)).statusCode).toBe(200);

    const mails = await mailsSince(mailMark);
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([
      ['account_users.email_changed', f.member.email],
      ['account_users.email_changed', newEmail],
    ]);
    expect(mails[0].textBody).toContain(`from ${typedAddress(f.member.email)} to ${typedAddress(newEmail)}`);
    expect(mails[0].textBody).toContain('by you');
    expectSafeNotices(mails);
    await signedIn(t.app, { email: newEmail, password: PASSWORDS.member });
  });

  it('a new password needs the current one; it ends the other sessions and sends a notice to the user', async () => {
    const f = await family();
    const member = await signedIn(t.app, { email: f.member.email, password: PASSWORDS.member });
    const memberElsewhere = await sessionAgent(t, f.member.id);
    const change = (current?: string) =>
      member.call(accountUserContracts.update, {
        params: { id: f.member.id },
        body: profile(f.member.email, {
          password: PASSWORDS.fresh,
          password_confirmation: PASSWORDS.fresh,
          ...(current === undefined ? {} : { current_password: current }),
        }),
      });
    await expectCurrentPasswordRefused(() => change(), ACCOUNT_USER_TEXT.currentPasswordRequired);
    await expectCurrentPasswordRefused(() => change(''), ACCOUNT_USER_TEXT.currentPasswordRequired);
    await expectCurrentPasswordRefused(() => change('Not-my-pass-1'), ACCOUNT_USER_TEXT.currentPasswordWrong);

    const mailMark = await lastMailId();
    const ok = await change(PASSWORDS.member);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await sessionIds(f.member.id)).toEqual([sessionOf(member)]);
    expect((await memberElsewhere.call(accountUserContracts.list)).statusCode).toBe(401);
    const mails = await mailsSince(mailMark);
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([['account_users.password_changed', f.member.email]]);
    expectSafeNotices(mails);
    expect((await new Agent(t.app).start().then((a) => a.login(f.member.email, PASSWORDS.member))).statusCode).toBe(
      422,
    );
    await signedIn(t.app, { email: f.member.email, password: PASSWORDS.fresh });
    // The old password no longer confirms anything.
    await expectCurrentPasswordRefused(
      () =>
        member.call(accountUserContracts.update, {
          params: { id: f.member.id },
          body: profile(`again.${seq}@roles.example.com`, { current_password: PASSWORDS.member }),
        }),
      ACCOUNT_USER_TEXT.currentPasswordWrong,
    );
  });
});

describe('the primary user manages the others (docs/roles.md)', () => {
  it("changing another user's e-mail takes the primary's own password and signs that user out everywhere; their password is theirs alone", async () => {
    const f = await family();
    const primary = await signedIn(t.app, { email: f.primary.email, password: PASSWORDS.primary });
    const primaryElsewhere = await sessionAgent(t, f.primary.id);
    const memberSessions = [await sessionAgent(t, f.member.id), await sessionAgent(t, f.member.id)];
    const newEmail = `moved.${seq}@roles.example.com`;
    const body = (current?: string) => profile(newEmail, current ? { current_password: current } : {});

    // Nobody types another person's password (docs/roles.md "Invitations"), even with their own.
    const typed = await primary.call(accountUserContracts.update, {
      params: { id: f.member.id },
      body: profile(newEmail, {
        password: PASSWORDS.fresh,
        password_confirmation: PASSWORDS.fresh,
        current_password: PASSWORDS.primary,
      }),
    });
    expect(typed.statusCode).toBe(422);
    expect(typed.json().errors).toEqual({ password: [ACCOUNT_USER_TEXT.ownPasswordOnly] });
    expect((await userRow(f.member.id)).email).toBe(f.member.email);

    await expectCurrentPasswordRefused(
      () => primary.call(accountUserContracts.update, { params: { id: f.member.id }, body: body() }),
      ACCOUNT_USER_TEXT.currentPasswordRequired,
    );
    // The member's password is not the one asked for: the acting user's is.
    await expectCurrentPasswordRefused(
      () => primary.call(accountUserContracts.update, { params: { id: f.member.id }, body: body(PASSWORDS.member) }),
      ACCOUNT_USER_TEXT.currentPasswordWrong,
    );

    const mailMark = await lastMailId();
    const ok = await primary.call(accountUserContracts.update, {
      params: { id: f.member.id },
      body: body(PASSWORDS.primary),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await sessionIds(f.member.id)).toEqual([]);
    for (const s of memberSessions) expect((await s.call(accountUserContracts.list)).statusCode).toBe(401);
    // The primary user's own sessions are not the affected user's: all stay.
    expect((await sessionIds(f.primary.id)).length).toBe(2);
    expect((await primaryElsewhere.call(accountUserContracts.list)).statusCode).toBe(200);

    const mails = await mailsSince(mailMark);
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([
      ['account_users.email_changed', f.member.email],
      ['account_users.email_changed', newEmail],
    ]);
    expect(mails[0].textBody).toContain(`by “Paula” (${typedAddress(f.primary.email)})`);
    expectSafeNotices(mails);
    await signedIn(t.app, { email: newEmail, password: PASSWORDS.member });
  });

  it("transferring primary takes the primary's password, signs both out elsewhere, notifies both, and the former primary loses the rights", async () => {
    const f = await family();
    const primary = await signedIn(t.app, { email: f.primary.email, password: PASSWORDS.primary });
    const primaryElsewhere = await sessionAgent(t, f.primary.id);
    const member = await sessionAgent(t, f.member.id);
    const other = await sessionAgent(t, f.other.id);
    const transfer = (current?: string) =>
      primary.call(accountUserContracts.update, {
        params: { id: f.member.id },
        body: profile(f.member.email, { is_primary: 1, ...(current ? { current_password: current } : {}) }),
      });

    await expectCurrentPasswordRefused(() => transfer(), ACCOUNT_USER_TEXT.currentPasswordRequired);
    await expectCurrentPasswordRefused(() => transfer(PASSWORDS.member), ACCOUNT_USER_TEXT.currentPasswordWrong);
    expect(await primaryOf(f.accountId)).toBe(f.primary.id);

    const mailMark = await lastMailId();
    const ok = await transfer(PASSWORDS.primary);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await primaryOf(f.accountId)).toBe(f.member.id);
    expect((await userRow(f.primary.id)).isPrimary).toBe(false);
    expect((await userRow(f.member.id)).isPrimary).toBe(true);
    // The acting session stays; the former primary's other session and the new primary's end; others are untouched.
    expect(await sessionIds(f.primary.id)).toEqual([sessionOf(primary)]);
    expect((await primaryElsewhere.call(accountUserContracts.list)).statusCode).toBe(401);
    expect((await member.call(accountUserContracts.list)).statusCode).toBe(401);
    expect((await other.call(accountUserContracts.list)).statusCode).toBe(200);

    const mails = await mailsSince(mailMark);
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([
      ['account_users.primary_transferred', f.primary.email],
      ['account_users.primary_transferred', f.member.email],
    ]);
    expect(mails[0].textBody).toContain('You are no longer the primary user');
    expect(mails[1].textBody).toContain('You are now the primary user');
    expectSafeNotices(mails);

    // The former primary user is an ordinary user now.
    expect(((await primary.call(accountUserContracts.list)).json() as AccountUserList).viewer.can_manage).toBe(false);
    await expectRefused(() => primary.call(accountUserContracts.remove, { params: { id: f.other.id } }), {
      message: ACCOUNT_USER_TEXT.refusedDelete,
      actorId: f.primary.id,
      accountId: f.accountId,
      details: { attempted: 'delete', targetUserId: f.other.id },
    });
    // The new primary user signs in again and manages the account.
    const next = await signedIn(t.app, { email: f.member.email, password: PASSWORDS.member });
    expect(((await next.call(accountUserContracts.list)).json() as AccountUserList).viewer.can_manage).toBe(true);
  });

  it("a new user stored as primary is a transfer too: the primary's password is asked for", async () => {
    const f = await family();
    const primary = await signedIn(t.app, { email: f.primary.email, password: PASSWORDS.primary });
    const newUser = (current?: string) =>
      primary.call(accountUserContracts.store, {
        body: profile(`heir.${seq}@roles.example.com`, {
          is_primary: 1,
          ...(current ? { current_password: current } : {}),
        }),
      });
    await expectCurrentPasswordRefused(() => newUser(), ACCOUNT_USER_TEXT.currentPasswordRequired);
    // Adding an ordinary user needs no password.
    const plain = await primary.call(accountUserContracts.store, { body: profile(`plain.${seq}@roles.example.com`) });
    expect(plain.statusCode, plain.body).toBe(201);
    const mailMark = await lastMailId();
    const ok = await newUser(PASSWORDS.primary);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await primaryOf(f.accountId)).toBe(ok.json().user.id);
    expect((await mailsSince(mailMark)).map((m) => [m.kind, m.toAddress])).toEqual([
      // The new user chooses their own password (docs/roles.md "Invitations").
      ['account_users.invitation', `heir.${seq}@roles.example.com`],
      ['account_users.primary_transferred', f.primary.email],
      ['account_users.primary_transferred', `heir.${seq}@roles.example.com`],
    ]);
  });

  it('removing a user ends all their sessions and sends them a notice; the primary stays signed in', async () => {
    const f = await family();
    const primary = await signedIn(t.app, { email: f.primary.email, password: PASSWORDS.primary });
    const memberSession = await sessionAgent(t, f.member.id);
    const mailMark = await lastMailId();
    const res = await primary.call(accountUserContracts.remove, { params: { id: f.member.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await sessionIds(f.member.id)).toEqual([]);
    expect((await memberSession.call(accountUserContracts.list)).statusCode).toBe(401);
    expect((await primary.call(accountUserContracts.list)).statusCode).toBe(200);
    const mails = await mailsSince(mailMark);
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([['account_users.removed', f.member.email]]);
    expect(mails[0].textBody).toContain(`by “Paula” (${typedAddress(f.primary.email)})`);
    expectSafeNotices(mails);
  });
});

describe('staff acting on behalf (docs/roles.md "Staff")', () => {
  it('need no current password, are audited, and the same sessions end and notices go out', async () => {
    const f = await family();
    const memberSession = await sessionAgent(t, f.member.id);
    const primarySession = await sessionAgent(t, f.primary.id);
    const auditMark = await lastAuditId();
    const mailMark = await lastMailId();
    const newEmail = `by.staff.${seq}@roles.example.com`;

    // Staff do not choose a user's password either (docs/roles.md "Invitations").
    const typed = await admin.call(accountUserContracts.update, {
      params: { id: f.member.id },
      body: {
        ...profile(newEmail, { password: PASSWORDS.fresh, password_confirmation: PASSWORDS.fresh }),
        account_id: f.accountId,
      },
    });
    expect(typed.statusCode).toBe(422);
    expect(typed.json().errors).toEqual({ password: [ACCOUNT_USER_TEXT.ownPasswordOnly] });
    const upd = await admin.call(accountUserContracts.update, {
      params: { id: f.member.id },
      body: {
        ...profile(newEmail),
        account_id: f.accountId,
      },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect((await memberSession.call(accountUserContracts.list)).statusCode).toBe(401);
    await signedIn(t.app, { email: newEmail, password: PASSWORDS.member });

    const transfer = await admin.call(accountUserContracts.update, {
      params: { id: f.other.id },
      body: {
        ...profile(f.other.email, { is_primary: 1 }),
        account_id: f.accountId,
      },
    });
    expect(transfer.statusCode, transfer.body).toBe(200);
    expect(await primaryOf(f.accountId)).toBe(f.other.id);
    expect((await primarySession.call(accountUserContracts.list)).statusCode).toBe(401);

    const del = await admin.request('DELETE', `/app/account/users/delete/${f.primary.id}`, { account_id: f.accountId });
    expect(del.statusCode, del.body).toBe(200);

    const audits = (await auditsSince(auditMark)).filter((a) => a.accountId === f.accountId);
    expect(audits.map((a) => [a.action, a.actorUserId, a.accountId, a.details])).toEqual([
      [
        'account_users.updated',
        adminId,
        f.accountId,
        { userId: f.member.id, emailChanged: true, passwordChanged: false, madePrimary: false },
      ],
      [
        'account_users.updated',
        adminId,
        f.accountId,
        { userId: f.other.id, emailChanged: false, passwordChanged: false, madePrimary: true },
      ],
      ['account_users.deleted', adminId, f.accountId, { userId: f.primary.id }],
    ]);
    const mails = await mailsSince(mailMark);
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([
      ['account_users.email_changed', f.member.email],
      ['account_users.email_changed', newEmail],
      ['account_users.primary_transferred', f.primary.email],
      ['account_users.primary_transferred', f.other.email],
      ['account_users.removed', f.primary.email],
    ]);
    expect(mails[0].textBody).toMatch(/by \S.* staff/);
    expect(mails[0].textBody).not.toContain('roles.staff@example.com');
    expectSafeNotices(mails);
  });

  it("the admin's own session is never ended by a change on behalf", async () => {
    const f = await family();
    const adminSessions = await sessionIds(adminId);
    const res = await admin.call(accountUserContracts.update, {
      params: { id: f.member.id },
      body: {
        ...profile(`member.moved.${seq}@roles.example.com`),
        account_id: f.accountId,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await sessionIds(adminId)).toEqual(adminSessions);
    const stillIn = await db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, adminId), inArray(sessions.idHash, [sessionOf(admin)])));
    expect(stillIn).toHaveLength(1);
  });
});
