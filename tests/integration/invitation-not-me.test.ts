import { desc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, levels, mailOutbox, passwordResets, users } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { NOT_ME_ANSWER } from '../../src/server/modules/account-users/end-invitation.ts';
import { accountUserContracts, accountSettingsContracts } from '../../src/shared/contracts/account-settings.ts';
import { acceptInvitation, invitationLink } from '../helpers/invitations.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * The attacker's review of invitations (docs/roles.md "Invitations", docs/security.md "Mail
 * carries only our links"): an account's primary user adds a stranger's address with a first name
 * and an account name that read as a message with a link, then sends the invitation again. The
 * stranger gets only our words and our links, with what was typed shown as typed; "This was not
 * me" ends the invitation once (the page itself changes nothing), frees the address and tells
 * staff; and a pending invitation never stops its address from starting its own application.
 */

const PUBLIC_URL = 'https://goodstanding.test';
const EVIL_NAME = 'customer, your card was charged $950. Dispute at https://evil.example/dispute';
const EVIL_ACCOUNT = 'Account suspended - verify now at https://evil.example/verify';

let t: TestApp;
let n = 0;
const db = () => t.database.db;

/** An account named by its primary user (through the organization data form), who is signed in. */
async function attackerAccount(name = EVIL_ACCOUNT) {
  const account = await createAccount(db(), { name: 'Before' });
  const email = `attacker${++n}@notme.test`;
  const user = await createUser(db(), { email, password: 'Attacker-pass-1', accountId: account.id });
  await db().update(users).set({ isPrimary: true }).where(eq(users.id, user.id));
  await db().update(accounts).set({ primaryUserId: user.id }).where(eq(accounts.id, account.id));
  const agent = await signedIn(t.app, { email, password: 'Attacker-pass-1' });
  const form = (await agent.call(accountSettingsContracts.editableFields)).json();
  const saved = await agent.call(accountSettingsContracts.saveData, {
    body: {
      ...form.fields,
      account___name: name,
      account___street: '1 Main St',
      account___city: 'Casper',
      account___state: 'WY',
      account___zip: '82601',
      account___fiscal_year_end: '12',
      contact___president_first_name: 'Pat',
      contact___president_last_name: 'Lee',
      contact___president_email: 'pat@example.com',
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { account, user, email, agent };
}

/** Adds `email` to the attacker's account with the attacker's first name. @returns the new user's id */
async function invite(agent: Agent, email: string): Promise<number> {
  const res = await agent.call(accountUserContracts.store, {
    body: {
      email,
      first_name: EVIL_NAME,
      last_name: 'Stranger',
      phone: '',
      sms_phone: '',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().user.id;
}

const mailsTo = (email: string) =>
  db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(mailOutbox.id);
const userByEmail = async (email: string) => (await db().select().from(users).where(eq(users.email, email)))[0];
const lastMailId = async () =>
  (await db().select({ id: mailOutbox.id }).from(mailOutbox).orderBy(desc(mailOutbox.id)))[0]?.id ?? 0;
const mailsSince = (id: number) => db().select().from(mailOutbox).where(gt(mailOutbox.id, id)).orderBy(mailOutbox.id);
const endedAudits = (userId: number) =>
  db()
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, 'account_users.invitation_ended'))
    .then((rows) => rows.filter((r) => (r.details as { userId?: number }).userId === userId));

beforeAll(async () => {
  t = await createTestApp({ config: { publicUrl: PUBLIC_URL } });
});
afterAll(async () => {
  await t?.close();
});

describe('an invitation relays nothing of the attacker’s', () => {
  it('the stranger gets our words and links only; what was typed is shown as typed, defanged, never in the subject', async () => {
    const { agent } = await attackerAccount();
    const stranger = 'relay.stranger@example.com';
    const id = await invite(agent, stranger);
    for (let i = 0; i < 2; i++)
      expect((await agent.call(accountUserContracts.invitation, { params: { id: id } })).statusCode).toBe(200);

    const mails = await mailsTo(stranger);
    expect(mails).toHaveLength(3);
    for (const mail of mails) {
      expect(mail.subject).toBe('You are invited to an account on GoodStanding');
      for (const part of [mail.subject, mail.textBody, mail.htmlBody!]) {
        expect(part).not.toMatch(/evil\.example/);
        expect(part).not.toContain('card was charged');
      }
      // The account's name, introduced as what its users typed, unclickable; the first name not at all.
      expect(mail.textBody).toContain(
        "The account's name, as its users typed it: “Account suspended - verify now at hxxps[:]//evil[.]example/verify”.",
      );
      expect(mail.textBody).toMatch(/^Hello,\n/);
      // The HTML part links our two addresses and nothing else.
      const hrefs = [...mail.htmlBody!.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      expect(hrefs).toHaveLength(2);
      expect(hrefs[0]).toMatch(
        /^https:\/\/goodstanding\.test\/password\/reset\/[A-Za-z0-9_-]{22}\?email=relay\.stranger%40example\.com&invitation=1$/,
      );
      expect(hrefs[1]).toMatch(/^https:\/\/goodstanding\.test\/invitation\/not-me\/[A-Za-z0-9_-]{22}$/);
      expect(mail.htmlBody).not.toMatch(/https?:\/\/(?!goodstanding\.test\/)/);
    }
  });
});

describe('"This was not me"', () => {
  it('the page changes nothing; its button ends the invitation once, frees the address, tells staff and the primary user, audited', async () => {
    const { agent, account, email: primaryEmail } = await attackerAccount();
    const stranger = 'notme.stranger@example.com';
    const id = await invite(agent, stranger);
    const { token, link } = await invitationLink(db(), stranger);
    const visitor = await new Agent(t.app).start();

    // Opening the page (a mail scanner would) changes nothing and says nothing of the invitation.
    const page = await visitor.request('GET', `/invitation/not-me/${token}`, undefined, { accept: 'text/html' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(stranger);
    expect(await userByEmail(stranger)).toMatchObject({ id, accountId: account.id });

    // A POST from another site carries no CSRF token: refused.
    expect((await visitor.request('POST', '/invitation/not-me', { token }, {}, false)).statusCode).toBe(419);
    expect(await userByEmail(stranger)).toBeDefined();

    const mark = await lastMailId();
    const res = await visitor.call(accountUserContracts.notMe, { body: { token } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: NOT_ME_ANSWER });
    // The user is gone (their set-password links with them), and the address is free.
    expect(await userByEmail(stranger)).toBeUndefined();
    expect(await db().select().from(passwordResets).where(eq(passwordResets.userId, id))).toEqual([]);
    const setPassword = await (
      await new Agent(t.app).start()
    ).post('/password/reset', {
      token,
      email: stranger,
      password: 'Stranger-pass-1',
      password_confirmation: 'Stranger-pass-1',
    });
    expect(setPassword.statusCode).toBe(422);
    expect(link).toContain(token);
    // Audited, with the address and why.
    expect(await endedAudits(id)).toEqual([
      expect.objectContaining({
        actorUserId: null,
        accountId: account.id,
        details: { userId: id, invitedEmail: stranger, reason: 'declined' },
      }),
    ]);
    // Staff are told, with the account's staff page; the primary user in words that reveal nothing new.
    const mails = await mailsSince(mark);
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([
      ['account_users.invitation_ended', primaryEmail],
      ['account_users.invitation_ended.staff', t.config.mail.staffEmail],
    ]);
    expect(mails[0].textBody).toContain('notme[.]stranger@example[.]com');
    expect(mails[0].textBody).toContain('was ended by its recipient');
    expect(mails[1].subject).toBe('An invitation was declined: "This was not me"');
    expect(mails[1].textBody).toContain('The recipient pressed "This was not me" in the invitation mail.');
    expect(mails[1].textBody).toContain(`${PUBLIC_URL}/admin/accounts/show/${account.id}`);
    expect(mails[1].htmlBody).toContain(`<a href="${PUBLIC_URL}/admin/accounts/show/${account.id}"`);
    for (const m of mails) expect(m.textBody + m.htmlBody).not.toMatch(/evil\.example/);
    // The list no longer shows them.
    const list = (await agent.call(accountUserContracts.list)).json();
    expect(list.users.map((u: { email: string }) => u.email)).not.toContain(stranger);

    // Once: the same link again, an unknown token, anything: the same answer, nothing more written.
    const again = await lastMailId();
    for (const other of [token, 'AbCdEfGhIjKlMnOpQrStUv', 'x']) {
      const r = await visitor.call(accountUserContracts.notMe, { body: { token: other } });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ message: NOT_ME_ANSWER });
    }
    expect(await mailsSince(again)).toEqual([]);
    expect(await endedAudits(id)).toHaveLength(1);

    // The address is free: the stranger starts their own application.
    const [level] = await db().select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));
    const own = await (
      await new Agent(t.app).start()
    ).post('/application/start', {
      email: stranger,
      password: 'Stranger-pass-1',
      level_id: level.id,
    });
    expect(own.statusCode, own.body).toBe(201);
  });

  it('works with the link of any invitation mail the person got, even one sent again since', async () => {
    const { agent } = await attackerAccount();
    const stranger = 'older.link@example.com';
    const id = await invite(agent, stranger);
    const first = await invitationLink(db(), stranger);
    expect((await agent.call(accountUserContracts.invitation, { params: { id: id } })).statusCode).toBe(200);
    expect((await invitationLink(db(), stranger)).token).not.toBe(first.token);
    const res = await (await new Agent(t.app).start()).post('/invitation/not-me', { token: first.token });
    expect(res.json()).toEqual({ message: NOT_ME_ANSWER });
    expect(await userByEmail(stranger)).toBeUndefined();
  });

  it('changes nothing for an invitation already accepted: the same answer', async () => {
    const { agent } = await attackerAccount('Willing Boosters');
    const member = 'willing.member@example.com';
    const id = await invite(agent, member);
    const { token } = await invitationLink(db(), member);
    await acceptInvitation(t.app, db(), member, 'Willing-pass-2026', { signOut: true });
    const mark = await lastMailId();
    const res = await (await new Agent(t.app).start()).post('/invitation/not-me', { token });
    expect(res.json()).toEqual({ message: NOT_ME_ANSWER });
    expect(await userByEmail(member)).toMatchObject({ id, invitedAt: null });
    expect(await mailsSince(mark)).toEqual([]);
    expect(await endedAudits(id)).toEqual([]);
  });

  it('an invited user made primary who says it was not them: the first user with a password is primary again', async () => {
    const { agent, account, user } = await attackerAccount('Handover Boosters');
    const res = await agent.call(accountUserContracts.store, {
      body: {
        email: 'handover.new@example.com',
        first_name: 'New',
        last_name: 'Primary',
        phone: '',
        sms_phone: '',
        is_primary: 1,
        current_password: 'Attacker-pass-1',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { token } = await invitationLink(db(), 'handover.new@example.com');
    expect((await (await new Agent(t.app).start()).post('/invitation/not-me', { token })).statusCode).toBe(200);
    expect(await userByEmail('handover.new@example.com')).toBeUndefined();
    const [row] = await db().select().from(accounts).where(eq(accounts.id, account.id));
    expect(row.primaryUserId).toBe(user.id);
    expect((await userByEmail(user.email)).isPrimary).toBe(true);
  });
});

describe('a pending invitation never stops its address from starting its own application', () => {
  it('the address starts as a new one would; the invitation ends as if declined, the primary user and staff told, audited', async () => {
    const { agent, account, email: primaryEmail } = await attackerAccount();
    const stranger = 'blocked.applicant@example.com';
    const id = await invite(agent, stranger);
    const [level] = await db().select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));

    const fresh = await (
      await new Agent(t.app).start()
    ).post('/application/start', {
      email: 'fresh.applicant@example.com',
      password: 'Booster-club-2026',
      level_id: level.id,
    });
    const mark = await lastMailId();
    const res = await (
      await new Agent(t.app).start()
    ).post('/application/start', {
      email: stranger,
      password: 'Booster-club-2026',
      level_id: level.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    // The same answer as for a new address.
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    const now = await userByEmail(stranger);
    expect(now.id).not.toBe(id);
    expect(now.accountId).toBeNull();
    expect(now.invitedAt).toBeNull();
    expect(await endedAudits(id)).toEqual([
      expect.objectContaining({
        accountId: account.id,
        details: { userId: id, invitedEmail: stranger, reason: 'application_started' },
      }),
    ]);
    const mails = await mailsSince(mark);
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([
      ['account_users.invitation_ended', primaryEmail],
      ['account_users.invitation_ended.staff', t.config.mail.staffEmail],
      ['application.started', stranger],
    ]);
    // The primary user learns nothing new: the same words as a "This was not me".
    expect(mails[0].textBody).not.toMatch(/application/i);
    expect(mails[0].textBody).toContain('was ended by its recipient');
    expect(
      (await agent.call(accountUserContracts.list)).json().users.map((u: { email: string }) => u.email),
    ).not.toContain(stranger);
  });

  it('an address whose user chose a password is still refused with the same message', async () => {
    const { agent } = await attackerAccount('Real Boosters');
    const member = 'real.member@example.com';
    await invite(agent, member);
    await acceptInvitation(t.app, db(), member, 'Real-member-2026', { signOut: true });
    const [level] = await db().select({ id: levels.id }).from(levels).where(eq(levels.slug, 'maintain'));
    const mark = await lastMailId();
    const res = await (
      await new Agent(t.app).start()
    ).post('/application/start', {
      email: member,
      password: 'Booster-club-2026',
      level_id: level.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual(['An account already uses this e-mail address. Please sign in instead.']);
    expect(await mailsSince(mark)).toEqual([]);
    expect((await userByEmail(member)).invitedAt).toBeNull();
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'account_users.invitation_ended'));
    expect(audits.filter((r) => (r.details as { invitedEmail?: string }).invitedEmail === member)).toEqual([]);
  });
});
