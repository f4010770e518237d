import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { SENT_TOKEN_MAIL_NOTE, deliverPendingMail } from '../../src/server/modules/mail/deliver-pending-mail.ts';
import { smtpTransport } from '../../src/server/providers/mail/transport.ts';
import { accountUserContracts } from '../../src/shared/contracts/account-settings.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { mailParts, startSmtpPeer } from '../helpers/local-peers.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * docs/mail.md "Transactional mails": a change of a user's sign-in e-mail or password is told to
 * the address they had before it (and an e-mail change to the new one too), saying what changed,
 * when, by whom, and what to do if it was not them; a new user is invited with a one-time
 * set-password link. Each is read from a real SMTP peer, with both parts.
 */

let t: TestApp;
let accountId: number;
beforeAll(async () => {
  t = await createTestApp();
  accountId = (await createAccount(t.database.db, { name: 'Notice Boosters' })).id;
});
afterAll(async () => {
  await t?.close();
});

/** Sends what the outbox holds to a fresh SMTP peer and answers the messages it received. */
async function deliverAll() {
  const peer = await startSmtpPeer();
  const transport = smtpTransport(peer.url);
  try {
    await deliverPendingMail(t.database.db, transport, 'GoodStanding <no-reply@goodstanding.local>');
    return peer.received.map((m) => ({ to: m.to[0], subject: m.subject, ...mailParts(m.body) }));
  } finally {
    transport.close();
    await peer.close();
  }
}

const DATE = /on [A-Z][a-z]+ \d{1,2}, \d{4} \d{1,2}:\d{2} [ap]m UTC/;

describe('notices of sign-in changes', () => {
  it('tells the old address when a user changes their own e-mail and password, and the new address of the e-mail change', async () => {
    const me = await createUser(t.database.db, {
      email: 'old.address@example.com',
      password: 'Old-pass-2026',
      accountId,
      firstName: 'Olive',
    });
    const a = await signedIn(t.app, { email: 'old.address@example.com', password: 'Old-pass-2026' });
    await deliverAll();
    const res = await a.call(accountUserContracts.update, {
      params: { id: me.id },
      body: {
        email: 'new.address@example.com',
        first_name: 'Olive',
        last_name: 'Owner',
        phone: '',
        sms_phone: '',
        password: 'New-pass-2027',
        password_confirmation: 'New-pass-2027',
        current_password: 'Old-pass-2026',
      },
    });
    expect(res.statusCode, res.body).toBe(200);

    const mails = await deliverAll();
    const byTo = (to: string) =>
      mails
        .filter((m) => m.to === to)
        .map((m) => m.subject)
        .sort();
    expect(byTo('old.address@example.com')).toEqual([
      expect.stringMatching(/password was changed$/),
      expect.stringMatching(/sign-in e-mail address was changed$/),
    ]);
    expect(byTo('new.address@example.com')).toEqual([expect.stringMatching(/sign-in e-mail address was changed$/)]);
    const password = mails.find((m) => m.to === 'old.address@example.com' && /password/.test(m.subject))!;
    expect(password.text).toMatch(
      /^Hello,\n\nThe password of your sign-in to the .+ account named “Notice Boosters” was changed on .+ UTC by you\./,
    );
    expect(password.text).toMatch(DATE);
    expect(password.text).toContain(
      'If this was not you, someone else may have your password: choose a new one right away with "Forgot your password?" on the',
    );
    // No link in a notice (docs/roles.md "Notices"): nothing to imitate for a false sign-in page.
    expect(password.html).not.toContain('<a ');
    expect(password.html).toContain('If this was not you');
    expect(password.html).toContain('Notice Boosters');
    const email = mails.find((m) => m.to === 'old.address@example.com' && /e-mail/.test(m.subject))!;
    // Addresses are typed text too: defanged, so no mail client makes them links.
    expect(email.text).toContain('from old[.]address@example[.]com to new[.]address@example[.]com');
    expect(email.text).toMatch(DATE);
    expect(email.html).toContain('from old[.]address@example[.]com to new[.]address@example[.]com');
    expect(mails.every((m) => !m.text.includes('New-pass-2027') && !m.html.includes('New-pass-2027'))).toBe(true);
  });

  it('tells the user when their password was reset with a mailed link, and nobody else', async () => {
    await createUser(t.database.db, { email: 'resetting@example.com', password: 'Before-pass-1', firstName: 'Remy' });
    const visitor = await new Agent(t.app).start();
    expect(
      (await visitor.call(signInContracts.forgotPassword, { body: { email: 'resetting@example.com' } })).statusCode,
    ).toBe(200);
    const link = async () =>
      (
        await t.database.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.kind, 'password.reset'), eq(mailOutbox.toAddress, 'resetting@example.com')))
          .orderBy(desc(mailOutbox.id))
      )[0];
    await expect.poll(async () => !!(await link())).toBe(true);
    const token = /\/password\/reset\/([A-Za-z0-9_-]+)/.exec((await link()).textBody)![1];
    await deliverAll();

    const reset = await visitor.call(signInContracts.resetPassword, {
      body: {
        token,
        email: 'resetting@example.com',
        password: 'After-pass-22',
        password_confirmation: 'After-pass-22',
      },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().message).toBe('Your password has been reset.');
    const mails = await deliverAll();
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['resetting@example.com', expect.stringMatching(/password was changed$/)],
    ]);
    expect(mails[0].text).toMatch(
      /^Hello,\n\nThe password of your .+ sign-in \(resetting@example\[\.\]com\) was changed on .+ UTC with a password reset link/,
    );
    expect(mails[0].text).toContain('If this was not you');
    expect(mails[0].html).toContain('If this was not you');
    expect(mails[0].html).not.toContain('<a ');
  });

  it('invites a new user with a one-time set-password link in both parts, kept nowhere once sent; the link sets the password and signs them in', async () => {
    const primaryUser = await createUser(t.database.db, {
      email: 'inviter@example.com',
      password: 'Inviter-pass-1',
      accountId,
      firstName: 'Ivy',
    });
    await t.database.db.update(users).set({ isPrimary: true }).where(eq(users.id, primaryUser.id));
    const primary = await signedIn(t.app, { email: 'inviter@example.com', password: 'Inviter-pass-1' });
    await deliverAll();
    const res = await primary.call(accountUserContracts.store, {
      body: {
        email: 'invitee@example.com',
        first_name: 'Ina',
        last_name: 'Vitee',
        phone: '',
        sms_phone: '',
      },
    });
    expect(res.statusCode, res.body).toBe(201);

    const mails = await deliverAll();
    // The subject names no account: its name is typed by its users (docs/security.md "Mail carries only our links").
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['invitee@example.com', expect.stringMatching(/^You are invited to an account on \S+$/)],
    ]);
    const [mail] = mails;
    expect(mail.text).toMatch(
      /^Hello,\n\nYou were invited to sign in to an account on .+ with this e-mail address \(invitee@example\[\.\]com\)\. The account's name, as its users typed it: “Notice Boosters”\. The invitation was sent by its user “Ivy” \(inviter@example\[\.\]com\)\./,
    );
    const link =
      /(http:\/\/\S+\/password\/reset\/([A-Za-z0-9_-]{22})\?email=invitee%40example.com&invitation=1)\n/.exec(
        mail.text,
      );
    expect(link).not.toBeNull();
    expect(mail.text).toMatch(/The link works once, until [A-Z][a-z]+ \d{1,2}, \d{4} \d{1,2}:\d{2} [ap]m UTC:/);
    expect(mail.html).toContain(`<a href="${link![1].replace(/&/g, '&amp;')}"`);
    // "This was not me", with the same token, is its only other link.
    const notMe = /(http:\/\/\S+\/invitation\/not-me\/([A-Za-z0-9_-]{22}))\n/.exec(mail.text);
    expect(notMe![2]).toBe(link![2]);
    expect([...mail.html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      link![1].replace(/&/g, '&amp;'),
      notMe![1],
    ]);
    // Sent: our copy keeps neither part of the link.
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'account_users.invitation'));
    expect(row).toMatchObject({ status: 'sent', textBody: SENT_TOKEN_MAIL_NOTE, htmlBody: null });

    const page = await new Agent(t.app).start();
    expect((await page.get(link![1].replace(/^http:\/\/[^/]+/, ''))).statusCode).toBe(200);
    const set = await page.call(signInContracts.resetPassword, {
      body: {
        token: link![2],
        email: 'invitee@example.com',
        password: 'Chosen-pass-2026',
        password_confirmation: 'Chosen-pass-2026',
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ message: 'Your password is set. Welcome!' });
    expect((await page.call(accountUserContracts.list)).statusCode).toBe(200);
    // Choosing a first password is not a change to be warned about.
    expect(await deliverAll()).toEqual([]);
  });
});
