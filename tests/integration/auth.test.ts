import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { adminConsoleContracts } from '../../src/shared/contracts/admin-console.ts';
import { adminInboxContracts } from '../../src/shared/contracts/admin-inbox.ts';
import { adminOutboxContracts } from '../../src/shared/contracts/admin-outbox.ts';
import { createRatingContract } from '../../src/shared/contracts/public-forms.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { siteContracts } from '../../src/shared/contracts/site.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Sign-in, sessions, CSRF rotation, sign-out and admin access (docs/requirements/platform.md §3, §5.1, §5.2, §5.6). */

const BAD_CREDENTIALS = 'These credentials do not match our records.';
const HOLDER = { email: 'holder@example.com', password: 'Holder-pass-123' };
const ADMIN = { email: 'admin@example.com', password: 'Admin-pass-456' };

let t: TestApp;
let holderId: number;
let accountId: number;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  const account = await createAccount(t.database.db, { name: 'Lincoln High Boosters' });
  accountId = account.id;
  holderId = (await createUser(t.database.db, { ...HOLDER, accountId, firstName: 'Hana' })).id;
  adminId = (await createUser(t.database.db, { ...ADMIN, isAdmin: true })).id;
});
afterAll(async () => {
  await t?.close();
});

const sessionCookie = (a: Agent) => a.cookies.get('gs_session') ?? '';
const sessionCount = async (userId: number) =>
  (await t.database.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)))[0].n;

describe('POST /login', () => {
  it('answers 422 on email for a wrong password, an unknown e-mail, and keeps the visitor signed out', async () => {
    const a = await new Agent(t.app).start();
    for (const body of [
      { email: HOLDER.email, password: 'wrong-password-1' },
      { email: 'nobody@example.com', password: HOLDER.password },
      { email: HOLDER.email, password: HOLDER.password.toLowerCase() },
    ]) {
      const res = await a.call(signInContracts.login, { body: body });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: BAD_CREDENTIALS, errors: { email: [BAD_CREDENTIALS] } });
    }
    expect((await a.call(siteContracts.session)).json().user).toBeNull();
  });

  it('answers 422 with field messages for missing fields', async () => {
    const a = await new Agent(t.app).start();
    const res = await a.call(signInContracts.login);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      email: ['The email field is required.'],
      password: ['The password field is required.'],
    });
    const bad = await a.call(signInContracts.login, { body: { email: 'not-an-email', password: 'x' } });
    expect(bad.json().errors.email[0]).toBe('The email field must be a valid email address.');
  });

  it('never answers 5xx to odd input', async () => {
    const a = await new Agent(t.app).start();
    for (const body of [
      { email: `${HOLDER.email}\u0000`, password: `${HOLDER.password}\u0000x` },
      { email: 'x'.repeat(1_000_000), password: 'y' },
      { email: HOLDER.email, password: 'p'.repeat(1_000_000) },
      { email: ['a@example.com'], password: { $ne: '' } },
      { email: "' OR 1=1 --@example.com", password: "' OR '1'='1" },
    ]) {
      const res = await a.call(signInContracts.login, { body: body });
      expect(res.statusCode).toBe(422);
    }
    expect((await a.call(siteContracts.session)).json().user).toBeNull();
  });

  it('needs the CSRF token of the visitor session', async () => {
    const a = await new Agent(t.app).start();
    const res = await a.request('POST', '/login', HOLDER, {}, false);
    expect(res.statusCode).toBe(419);
    expect((await a.call(siteContracts.session)).json().user).toBeNull();
  });

  it('signs in with a new session id, rotates the CSRF token, and shows the user in /api/session', async () => {
    const a = await new Agent(t.app).start();
    const visitorCookie = sessionCookie(a);
    const oldToken = a.csrfToken;
    expect(visitorCookie).toMatch(/^a\./);

    const res = await a.login(HOLDER.email.toUpperCase(), HOLDER.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redirect: '/app', csrfToken: expect.any(String) });
    const newCookie = sessionCookie(a);
    expect(newCookie).toMatch(/^u\./);
    expect(newCookie).not.toBe(visitorCookie);
    expect(a.csrfToken).not.toBe(oldToken);

    // The session id is stored hashed, never as sent.
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, holderId));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.idHash === newCookie)).toBe(false);

    const session = await a.call(siteContracts.session);
    expect(session.headers['cache-control']).toBe('no-store');
    expect(session.json().user).toEqual({
      id: holderId,
      email: HOLDER.email,
      firstName: 'Hana',
      lastName: '',
      isAdmin: false,
      accountId,
    });

    // The token of the visitor session no longer works; the new one does.
    const stale = await a.request('POST', '/ratings', { url: '/pricing', rating: 5 }, { 'x-csrf-token': oldToken });
    expect(stale.statusCode).toBe(419);
    const fresh = await a.call(createRatingContract, { body: { url: '/pricing', rating: 5 } });
    expect(fresh.statusCode).toBe(201);

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.actorUserId, holderId));
    expect(audit.map((r) => r.action)).toContain('auth.login');
  });

  it('issues a fresh session on each sign-in and keeps other devices signed in', async () => {
    const phone = await new Agent(t.app).start();
    const laptop = await new Agent(t.app).start();
    expect((await phone.login(HOLDER.email, HOLDER.password)).statusCode).toBe(200);
    expect((await laptop.login(HOLDER.email, HOLDER.password)).statusCode).toBe(200);
    expect(sessionCookie(phone)).not.toBe(sessionCookie(laptop));
    expect((await phone.call(siteContracts.session)).json().user.id).toBe(holderId);
    expect((await laptop.call(siteContracts.session)).json().user.id).toBe(holderId);

    // Signing in again on the same device replaces that device's session.
    const before = await sessionCount(holderId);
    const first = sessionCookie(phone);
    expect((await phone.login(HOLDER.email, HOLDER.password)).statusCode).toBe(200);
    expect(sessionCookie(phone)).not.toBe(first);
    expect(await sessionCount(holderId)).toBe(before);
  });

  it('refuses a forged or malformed session cookie, treating the request as a visitor', async () => {
    for (const forged of ['u.AAAAAAAAAAAAAAAAAAAAAA', 'u.short', `u.${'x'.repeat(5000)}`, 'a.\u0000', '']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/session',
        headers: { cookie: `gs_session=${encodeURIComponent(forged)}` },
      });
      expect(res.statusCode, forged).toBe(200);
      expect(res.json().user).toBeNull();
    }
  });

  it('ends an expired session', async () => {
    const a = await new Agent(t.app).start();
    await a.login(HOLDER.email, HOLDER.password);
    expect((await a.call(siteContracts.session)).json().user).not.toBeNull();
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, holderId));
    expect((await a.call(siteContracts.session)).json().user).toBeNull();
    expect((await a.call(accountOverviewContracts.account)).statusCode).toBe(401);
  });

  it('ends an idle session', async () => {
    const a = await new Agent(t.app).start();
    await a.login(HOLDER.email, HOLDER.password);
    const idle = new Date(Date.now() - (t.config.sessionIdleMinutes + 1) * 60_000);
    await t.database.db.update(sessions).set({ lastSeenAt: idle }).where(eq(sessions.userId, holderId));
    expect((await a.call(siteContracts.session)).json().user).toBeNull();
  });
});

describe('POST /logout', () => {
  it('ends the session on the server: the old cookie no longer authenticates', async () => {
    const a = await new Agent(t.app).start();
    await a.login(HOLDER.email, HOLDER.password);
    const signedIn = sessionCookie(a);
    const tokenWhileSignedIn = a.csrfToken;
    expect((await a.call(accountOverviewContracts.account)).statusCode).toBe(200);

    const res = await a.call(signInContracts.logout);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redirect: '/', csrfToken: expect.any(String) });
    expect(sessionCookie(a)).toMatch(/^a\./);
    expect((await a.call(siteContracts.session)).json().user).toBeNull();

    // Replaying the old cookie (as a stolen copy would) gets a visitor, not the user.
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { cookie: `gs_session=${signedIn}` },
    });
    expect(replay.statusCode).toBe(401);
    const replaySession = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: `gs_session=${signedIn}` },
    });
    expect(replaySession.json().user).toBeNull();
    const replayPost = await t.app.inject({
      method: 'POST',
      url: '/logout',
      payload: {},
      headers: {
        cookie: `gs_session=${signedIn}; gs_csrf=${a.cookies.get('gs_csrf')}`,
        'x-csrf-token': tokenWhileSignedIn,
      },
    });
    expect(replayPost.statusCode).toBe(419);
  });

  it('needs the CSRF token', async () => {
    const a = await new Agent(t.app).start();
    await a.login(HOLDER.email, HOLDER.password);
    const res = await a.request('POST', '/logout', {}, {}, false);
    expect(res.statusCode).toBe(419);
    expect((await a.call(siteContracts.session)).json().user?.id).toBe(holderId);
  });
});

describe('account and admin access', () => {
  const adminPaths = [
    '/api/admin/inquiries',
    '/api/admin/outbox',
    '/api/admin/banners',
    '/api/admin/inquiries/1',
    '/api/admin/outbox/1',
  ];

  it('answers 401 to visitors', async () => {
    const a = await new Agent(t.app).start();
    for (const p of adminPaths) {
      const res = await a.get(p);
      expect(res.statusCode, p).toBe(401);
      expect(res.json()).toEqual({ message: 'Please sign in first.' });
    }
    expect((await a.call(accountOverviewContracts.account)).statusCode).toBe(401);
    expect(
      (await a.call(adminConsoleContracts.createBanner, { body: { kind: 'urgent-alert', text: 'x', is_active: 1 } }))
        .statusCode,
    ).toBe(401);
  });

  it('answers 403 to account holders', async () => {
    const a = await new Agent(t.app).start();
    await a.login(HOLDER.email, HOLDER.password);
    for (const p of adminPaths) {
      const res = await a.get(p);
      expect(res.statusCode, p).toBe(403);
      expect(res.json()).toEqual({ message: 'You are not allowed to do that.' });
    }
    const write = await a.call(adminConsoleContracts.createBanner, {
      body: { kind: 'urgent-alert', text: 'x', is_active: 1 },
    });
    expect(write.statusCode).toBe(403);
    const mark = await a.call(adminInboxContracts.handled, { params: { id: 1 }, body: { is_handled: 1 } });
    expect(mark.statusCode).toBe(403);
  });

  it('answers 200 to admins', async () => {
    const a = await new Agent(t.app).start();
    const res = await a.login(ADMIN.email, ADMIN.password);
    expect(res.json().redirect).toBe('/admin');
    const list = await a.call(adminInboxContracts.list);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ current_page: 1, data: expect.any(Array), total: expect.any(Number) });
    expect((await a.call(adminOutboxContracts.list)).statusCode).toBe(200);
    expect((await a.call(adminConsoleContracts.banners)).statusCode).toBe(200);
    expect((await a.call(siteContracts.session)).json().user).toMatchObject({
      id: adminId,
      isAdmin: true,
      accountId: null,
    });
  });

  it('shows an account holder their own account', async () => {
    const a = await new Agent(t.app).start();
    await a.login(HOLDER.email, HOLDER.password);
    const res = await a.call(accountOverviewContracts.account);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user: { id: holderId, email: HOLDER.email },
      account: { id: accountId, name: 'Lincoln High Boosters' },
    });
  });
});

describe('login rate limit (an app with 2 sign-in attempts a minute)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({
      config: { rateLimits: { formsPerMinute: 1000, loginPerMinute: 2, searchPerMinute: 1000 } },
    });
    await createUser(limited.database.db, HOLDER);
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('answers 429 after the configured attempts a minute, per address, even with the right password', async () => {
    const a = await new Agent(limited.app, '10.20.30.40').start();
    for (let i = 0; i < 2; i++)
      expect(
        (await a.call(signInContracts.login, { body: { email: HOLDER.email, password: 'nope' } })).statusCode,
      ).toBe(422);
    const res = await a.call(signInContracts.login, { body: HOLDER });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many requests\./);
    expect((await a.call(siteContracts.session)).json().user).toBeNull();

    const b = await new Agent(limited.app, '10.20.30.41').start();
    expect((await b.login(HOLDER.email, HOLDER.password)).statusCode).toBe(200);
  });
});
