import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, passwordResets, sessions, users } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { siteContracts } from '../../src/shared/contracts/site.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Password reset (docs/requirements/product.md tool 11, docs/requirements/entities.md payload, docs/requirements/errors.md; docs/requirements/platform.md §5.5). */

const LINK_SENT = 'If an account exists for that e-mail address, we have e-mailed a link to reset its password.';
const INVALID = 'This password reset link is invalid or has expired. Please ask for a new one.';
const USER = { email: 'reset.me@example.com', password: 'Original-pass-1' };
const OTHER = { email: 'someone.else@example.com', password: 'Other-pass-22' };

let t: TestApp;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  userId = (await createUser(t.database.db, { ...USER, firstName: 'Rae' })).id;
  await createUser(t.database.db, OTHER);
});
afterAll(async () => {
  await t?.close();
});

const mailCount = async () => (await t.database.db.select({ n: count() }).from(mailOutbox))[0].n;

/** Asks for a link for `email` and returns the token read from the mail the user would get. */
async function requestToken(email = USER.email): Promise<string> {
  const a = await new Agent(t.app).start();
  const before = await mailCount();
  const res = await a.call(signInContracts.forgotPassword, { body: { email } });
  expect(res.statusCode).toBe(200);
  // The link is written after the answer (so timing reveals nothing): wait for the mail.
  await expect.poll(mailCount).toBe(before + 1);
  const [mail] = await t.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, 'password.reset'), eq(mailOutbox.toAddress, email.toLowerCase())))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const m = /\/password\/reset\/([A-Za-z0-9_-]+)/.exec(mail.textBody);
  expect(m).not.toBeNull();
  return m![1];
}

const resetBody = (token: string, password = 'Brand-new-pass-7', email = USER.email) => ({
  token,
  email,
  password,
  password_confirmation: password,
});

describe('POST /password/forgot', () => {
  it('answers the same for a known and an unknown e-mail; only the known one gets a mail with a reset link', async () => {
    const a = await new Agent(t.app).start();
    const before = await mailCount();
    const unknown = await a.call(signInContracts.forgotPassword, { body: { email: 'nobody.here@example.com' } });
    expect(unknown.statusCode).toBe(200);

    const known = await a.call(signInContracts.forgotPassword, { body: { email: USER.email.toUpperCase() } });
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ message: LINK_SENT });
    // One mail in all: the known address's; the unknown one wrote nothing.
    await expect.poll(mailCount).toBe(before + 1);

    const [mail] = await t.database.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    expect(mail.kind).toBe('password.reset');
    expect(mail.toAddress).toBe(USER.email);
    // Greeted without the name: a name is typed text, never put first as if it were ours.
    expect(mail.textBody).toMatch(/^Hello,\n/);
    expect(mail.textBody).not.toContain('Rae');
    // Marked as carrying a token: its body is dropped once sent, and hidden from staff meanwhile.
    expect(mail.carriesToken).toBe(true);
    expect(mail.textBody).toMatch(
      new RegExp(`${t.config.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/password/reset/[A-Za-z0-9_-]{22}`),
    );

    // Only the hash of the token is stored.
    const token = /\/password\/reset\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
    const rows = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, userId));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    // Expires in 60 minutes.
    const newest = rows.sort((x, y) => y.id - x.id)[0];
    const minutes = (newest.expiresAt.getTime() - newest.createdAt.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60.1);
  });

  it('answers 422 on a missing or invalid e-mail', async () => {
    const a = await new Agent(t.app).start();
    expect((await a.call(signInContracts.forgotPassword)).json().errors.email[0]).toBe('The email field is required.');
    expect((await a.call(signInContracts.forgotPassword, { body: { email: 'nope' } })).json().errors.email[0]).toBe(
      'The email field must be a valid email address.',
    );
  });

  it('needs the CSRF token', async () => {
    const a = await new Agent(t.app).start();
    const before = await mailCount();
    expect((await a.request('POST', '/password/forgot', { email: USER.email }, {}, false)).statusCode).toBe(419);
    expect(await mailCount()).toBe(before);
  });
});

describe('POST /password/reset', () => {
  it('answers 422 on email for a wrong token, a wrong e-mail or an expired token', async () => {
    const token = await requestToken();
    const a = await new Agent(t.app).start();

    const wrongToken = await a.call(signInContracts.resetPassword, { body: resetBody('A'.repeat(22)) });
    expect(wrongToken.statusCode).toBe(422);
    expect(wrongToken.json().errors).toEqual({ email: [INVALID] });

    const wrongEmail = await a.call(signInContracts.resetPassword, {
      body: resetBody(token, 'Brand-new-pass-7', OTHER.email),
    });
    expect(wrongEmail.statusCode).toBe(422);
    expect(wrongEmail.json().errors).toEqual({ email: [INVALID] });

    const unknownEmail = await a.call(signInContracts.resetPassword, {
      body: resetBody(token, 'Brand-new-pass-7', 'nobody.here@example.com'),
    });
    expect(unknownEmail.json().errors).toEqual({ email: [INVALID] });

    // Failed attempts did not use the token up, but once expired it fails too.
    await t.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, userId));
    const expired = await a.call(signInContracts.resetPassword, { body: resetBody(token) });
    expect(expired.statusCode).toBe(422);
    expect(expired.json().errors).toEqual({ email: [INVALID] });

    // The old password still signs in.
    expect((await new Agent(t.app).start().then((b) => b.login(USER.email, USER.password))).statusCode).toBe(200);
  });

  it('answers 422 on password for a mismatched confirmation, and for a weak password', async () => {
    const token = await requestToken();
    const a = await new Agent(t.app).start();
    const mismatch = await a.call(signInContracts.resetPassword, {
      body: {
        ...resetBody(token),
        password_confirmation: 'Brand-new-pass-8',
      },
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors).toEqual({ password: ['The password field confirmation does not match.'] });

    const short = await a.call(signInContracts.resetPassword, { body: resetBody(token, 'abc1') });
    expect(short.json().errors.password[0]).toBe('The password field must be at least 8 characters.');
    const noDigit = await a.call(signInContracts.resetPassword, { body: resetBody(token, 'abcdefghij') });
    expect(noDigit.json().errors.password[0]).toBe(
      'The password field must contain at least one letter and one number.',
    );

    const missing = await a.call(signInContracts.resetPassword);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toMatchObject({
      token: ['The token field is required.'],
      email: ['The email field is required.'],
    });
    expect(missing.json().errors.password[0]).toBe('The password field is required.');
  });

  it('sets the new password once, signs out every other session, and signs the user in', async () => {
    // The user is signed in on two other devices.
    const phone = await new Agent(t.app).start();
    const laptop = await new Agent(t.app).start();
    expect((await phone.login(USER.email, USER.password)).statusCode).toBe(200);
    expect((await laptop.login(USER.email, USER.password)).statusCode).toBe(200);

    const token = await requestToken();
    const browser = await new Agent(t.app).start();
    const res = await browser.call(signInContracts.resetPassword, { body: resetBody(token, 'Brand-new-pass-7') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: '/app', message: 'Your password has been reset.' });

    // The resetting browser is now signed in with a fresh session ...
    expect(browser.cookies.get('gs_session')).toMatch(/^u\./);
    expect((await browser.call(siteContracts.session)).json().user).toMatchObject({ id: userId, email: USER.email });
    // ... and every other session has ended.
    expect((await phone.call(siteContracts.session)).json().user).toBeNull();
    expect((await laptop.call(accountOverviewContracts.account)).statusCode).toBe(401);
    const [{ n }] = await t.database.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId));
    expect(n).toBe(1);

    // The token works once.
    const again = await (await new Agent(t.app).start()).post('/password/reset', resetBody(token, 'Another-pass-9'));
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual({ email: [INVALID] });

    // The old password no longer signs in; the new one does.
    const old = await (await new Agent(t.app).start()).login(USER.email, USER.password);
    expect(old.statusCode).toBe(422);
    const fresh = await (await new Agent(t.app).start()).login(USER.email, 'Brand-new-pass-7');
    expect(fresh.statusCode).toBe(200);

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, userId), eq(auditLog.action, 'auth.password_reset')));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0].details)).not.toContain(token);
  });

  it('a newer request supersedes the older link; after a reset no link of the user works; other users are untouched', async () => {
    const first = await requestToken(OTHER.email);
    const second = await requestToken(OTHER.email);
    expect(first).not.toBe(second);
    const a = await new Agent(t.app).start();
    const superseded = await a.call(signInContracts.resetPassword, {
      body: resetBody(first, 'Other-new-pass-1', OTHER.email),
    });
    expect(superseded.statusCode).toBe(422);
    expect(superseded.json().errors).toEqual({ email: [INVALID] });
    // The refused attempt changed nothing: the old password still signs in.
    expect((await (await new Agent(t.app).start()).login(OTHER.email, OTHER.password)).statusCode).toBe(200);
    expect(
      (await a.call(signInContracts.resetPassword, { body: resetBody(second, 'Other-new-pass-1', OTHER.email) }))
        .statusCode,
    ).toBe(200);
    expect((await (await new Agent(t.app).start()).login(OTHER.email, 'Other-new-pass-1')).statusCode).toBe(200);
    // Every open reset of the user is now used: neither link works any more.
    const [other] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, OTHER.email));
    const rows = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, other.id));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => r.usedAt !== null)).toBe(true);
    for (const token of [first, second]) {
      expect(
        (
          await (
            await new Agent(t.app).start()
          ).post('/password/reset', resetBody(token, 'Other-new-pass-2', OTHER.email))
        ).statusCode,
      ).toBe(422);
    }
    // USER's password is unchanged by OTHER's reset.
    expect((await (await new Agent(t.app).start()).login(USER.email, 'Brand-new-pass-7')).statusCode).toBe(200);
  });

  it('a link sent twice at once resets the password once', async () => {
    const token = await requestToken(OTHER.email);
    const [x, y] = await Promise.all([
      (await new Agent(t.app).start()).post('/password/reset', resetBody(token, 'Other-race-pass-1', OTHER.email)),
      (await new Agent(t.app).start()).post('/password/reset', resetBody(token, 'Other-race-pass-2', OTHER.email)),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 422]);
    const winner = x.statusCode === 200 ? 'Other-race-pass-1' : 'Other-race-pass-2';
    expect((await (await new Agent(t.app).start()).login(OTHER.email, winner)).statusCode).toBe(200);
  });

  it('a request made after a reset gives a link that works', async () => {
    const token = await requestToken(OTHER.email);
    const a = await new Agent(t.app).start();
    expect(
      (await a.call(signInContracts.resetPassword, { body: resetBody(token, 'Other-after-pass-3', OTHER.email) }))
        .statusCode,
    ).toBe(200);
  });

  it('never answers 5xx to odd tokens', async () => {
    const a = await new Agent(t.app).start();
    for (const token of ['\u0000', 'x'.repeat(1_000_000), '../../etc/passwd', '\uD800', '%00', { a: 1 }]) {
      const res = await a.call(signInContracts.resetPassword, { body: { ...resetBody('x'), token } });
      expect(res.statusCode).toBe(422);
    }
  });

  it('needs the CSRF token', async () => {
    const token = await requestToken();
    const a = await new Agent(t.app).start();
    const res = await a.request('POST', '/password/reset', resetBody(token, 'Never-used-pass-3'), {}, false);
    expect(res.statusCode).toBe(419);
    // Unused: it still works with the token.
    expect(
      (await a.call(signInContracts.resetPassword, { body: resetBody(token, 'Never-used-pass-3') })).statusCode,
    ).toBe(200);
  });
});

describe('the reset page', () => {
  it('renders for any token', async () => {
    const a = await new Agent(t.app).start();
    const res = await a.request('GET', '/password/reset/abcDEF123_-?email=x%40example.com', undefined, {
      accept: 'text/html',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<title>Choose a new password | GoodStanding</title>');
  });
});
