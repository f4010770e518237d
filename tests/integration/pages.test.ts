import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { securityHeadersPlugin } from '../../src/server/plugins/security-headers.ts';
import { signInContracts } from '../../src/shared/contracts/sign-in.ts';
import { PAGES, type PageRoute } from '../../src/shared/routes.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Every page of src/shared/routes.ts as a browser loads it (docs/requirements/platform.md §3): the HTML shell with the
 * CSRF meta tag and boot data, who may open it, 404s, security headers and cookie flags (§5.1, §5.9).
 */

const HOLDER = { email: 'page.holder@example.com', password: 'Holder-pass-123' };
const ADMIN = { email: 'page.admin@example.com', password: 'Admin-pass-123' };

let t: TestApp;
let visitor: Agent;
let holder: Agent;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.database.db, HOLDER);
  await createUser(t.database.db, { ...ADMIN, isAdmin: true });
  visitor = await new Agent(t.app).start();
  holder = await new Agent(t.app).start();
  admin = await new Agent(t.app).start();
  expect((await holder.login(HOLDER.email, HOLDER.password)).statusCode).toBe(200);
  expect((await admin.login(ADMIN.email, ADMIN.password)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** A concrete address for a route pattern: ':token' -> 'abc123', ':id' -> '1'. */
const concrete = (p: PageRoute) => p.path.replace(/:token\b/g, 'abcDEF123_-').replace(/:[a-z]+/gi, '1');

const openPage = (a: Agent, url: string) =>
  a.request('GET', url, undefined, { accept: 'text/html,application/xhtml+xml' });

const decodeEntities = (s: string) =>
  s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

function readPage(res: LightMyRequestResponse) {
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  const title = /<title>(.*?)<\/title>/s.exec(res.body)?.[1];
  const meta = /<meta name="csrf-token" content="([^"]+)"/.exec(res.body)?.[1];
  const boot = /<script type="application\/json" id="boot-data">(.*?)<\/script>/s.exec(res.body)?.[1];
  expect(title).toBeDefined();
  expect(meta).toBeDefined();
  expect(boot).toBeDefined();
  return { title: decodeEntities(title!), csrfToken: meta!, boot: JSON.parse(boot!) };
}

const publicPages = PAGES.filter((p) => p.access === 'visitor');
const userPages = PAGES.filter((p) => p.access === 'signed-in');
const adminPages = PAGES.filter((p) => p.access === 'staff');

describe('public pages', () => {
  it('covers the pages of docs/requirements/screens.md and the public forms', () => {
    const paths = PAGES.map((p) => p.path);
    for (const p of [
      '/pricing',
      '/privacy',
      '/irs-form-990',
      '/state-registration',
      '/incorporation-and-ein',
      '/contact',
      '/compliance-check',
      '/multi-chapter',
      '/campus-report',
      '/app/account/show/:id',
      '/account',
    ]) {
      expect(paths, p).toContain(p);
    }
  });

  it.each(publicPages.map((p) => [p.path, p] as const))(
    '%s renders the page shell with status 200 for visitors',
    async (_path, page) => {
      const res = await openPage(visitor, concrete(page));
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const { title, csrfToken, boot } = readPage(res);
      expect(title).toBe(`${page.title} | GoodStanding`);
      if (page.description) expect(res.body).toContain('<meta name="description"');
      expect(boot).toMatchObject({ status: 200, user: null, csrfToken, banners: [], captchaSiteKey: null });
      expect(boot.company).toMatchObject({ name: 'GoodStanding', phone: expect.any(String) });
    },
  );

  it('renders for signed-in users too, with the user in the boot data', async () => {
    const { boot } = readPage(await openPage(holder, '/contact'));
    expect(boot.user).toMatchObject({ email: HOLDER.email, isAdmin: false });
  });

  it('keeps working with a query string', async () => {
    expect((await openPage(visitor, '/pricing?utm_source=mail&x=%00')).statusCode).toBe(200);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await visitor.request('HEAD', '/pricing');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});

describe('pages for account holders', () => {
  it.each(userPages.map((p) => [p.path, p] as const))('%s sends visitors to /login?next=...', async (_path, page) => {
    const url = concrete(page);
    const res = await openPage(visitor, `${url}?tab=1`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/login?next=${encodeURIComponent(`${url}?tab=1`)}`);
  });

  it.each(userPages.map((p) => [p.path, p] as const))('%s renders for a signed-in user', async (_path, page) => {
    for (const a of [holder, admin]) {
      const res = await openPage(a, concrete(page));
      expect(res.statusCode).toBe(200);
      expect(readPage(res).title).toBe(`${page.title} | GoodStanding`);
    }
  });
});

describe('admin pages', () => {
  it.each(adminPages.map((p) => [p.path, p] as const))(
    '%s: login for visitors, 403 for holders, 200 for admins',
    async (_path, page) => {
      const url = concrete(page);
      const v = await openPage(visitor, url);
      expect(v.statusCode).toBe(302);
      expect(v.headers.location).toBe(`/login?next=${encodeURIComponent(url)}`);

      const h = await openPage(holder, url);
      expect(h.statusCode).toBe(403);
      const forbidden = readPage(h);
      expect(forbidden.boot.status).toBe(403);
      expect(forbidden.title).toBe('Not allowed | GoodStanding');

      const ok = await openPage(admin, url);
      expect(ok.statusCode).toBe(200);
      const shown = readPage(ok);
      expect(shown.title).toBe(`${page.title} | GoodStanding`);
      expect(shown.boot).toMatchObject({ status: 200, user: { email: ADMIN.email, isAdmin: true } });
    },
  );
});

describe('not found', () => {
  it('answers an unknown page with the HTML shell and status 404', async () => {
    for (const url of ['/no-such-page', '/admin/nothing-here', '/app/account/show', '/contact/extra', '/%00']) {
      const res = await openPage(visitor, url);
      expect(res.statusCode, url).toBe(404);
      const { boot, title } = readPage(res);
      expect(boot.status).toBe(404);
      expect(title).toBe('Page not found | GoodStanding');
    }
  });

  it('answers an unknown /api path with JSON 404, whatever the client accepts', async () => {
    for (const headers of [{}, { accept: 'text/html' }] as Record<string, string>[]) {
      const res = await visitor.request('GET', '/api/no-such-thing', undefined, headers);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
  });

  it('answers JSON 404 to a non-HTML request for an unknown path', async () => {
    const res = await visitor.request('GET', '/no-such-page', undefined, { accept: 'application/json' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
    const post = await visitor.post('/no-such-endpoint', { a: 1 });
    expect(post.statusCode).toBe(404);
  });
});

describe('security headers (docs/requirements/platform.md §5.9)', () => {
  const paths = ['/contact', '/api/session', '/no-such-page', '/api/no-such-thing'];

  it.each(paths)('%s carries a CSP, nosniff and frame protection', async (url) => {
    const res = await openPage(visitor, url);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests'); // plain-http test host
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // HSTS only when served over https.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('adds the same headers to error answers', async () => {
    const res = await visitor.request('POST', '/contact', {}, {}, false);
    expect(res.statusCode).toBe(419);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('refuses, at start, a header option that would differ from request to request', async () => {
    const app = Fastify({ logger: false });
    await expect(
      app
        .register(securityHeadersPlugin, {
          contentSecurityPolicy: {
            directives: { scriptSrc: ["'self'", (req) => `'nonce-${String((req as { id?: string }).id)}'`] },
          },
        })
        .ready(),
    ).rejects.toThrow(/reads the request/);
    await app.close();
  });

  it('never sends internal error text', async () => {
    const res = await visitor.request('POST', '/contact', '{bad json', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/Unexpected|JSON\.parse|at .*\.ts|stack/i);
  });
});

describe('cookies (docs/requirements/platform.md §5.1)', () => {
  const setCookies = (res: LightMyRequestResponse) => {
    const raw = res.headers['set-cookie'];
    return (Array.isArray(raw) ? raw : raw ? [raw] : []).map(String);
  };

  it('sets the visitor session and CSRF cookies HttpOnly and SameSite=Lax on the first page load', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/contact', headers: { accept: 'text/html' } });
    const cookies = setCookies(res);
    const names = cookies.map((c) => c.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['gs_session', 'gs_csrf']));
    for (const c of cookies) {
      expect(c, c).toMatch(/;\s*HttpOnly/i);
      expect(c, c).toMatch(/;\s*SameSite=Lax/i);
      expect(c, c).toMatch(/;\s*Path=\//i);
      expect(c, c).not.toMatch(/;\s*Secure/i); // plain-http test host
    }
  });

  it('sets the signed-in session cookie HttpOnly and SameSite=Lax, and again on sign-out', async () => {
    const a = await new Agent(t.app).start();
    const login = await a.call(signInContracts.login, { body: HOLDER });
    const session = setCookies(login).find((c) => c.startsWith('gs_session='));
    expect(session).toMatch(/^gs_session=u\.[A-Za-z0-9_-]{22};/);
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
    a.csrfToken = login.json().csrfToken;
    const logout = await a.call(signInContracts.logout);
    const cleared = setCookies(logout).find((c) => c.startsWith('gs_session='));
    expect(cleared).toMatch(/^gs_session=a\./);
    expect(cleared).toMatch(/;\s*HttpOnly/i);
    expect(cleared).toMatch(/;\s*SameSite=Lax/i);
  });

  describe('on an app with secure cookies', () => {
    let secure: TestApp;
    beforeAll(async () => {
      secure = await createTestApp({ config: { cookieSecure: true } });
    });
    afterAll(async () => {
      await secure?.close();
    });

    it('uses __Host- prefixed Secure cookies', async () => {
      const res = await secure.app.inject({ method: 'GET', url: '/api/session' });
      const cookies = setCookies(res);
      expect(cookies.map((c) => c.split('=')[0]).sort()).toEqual(['__Host-gs_csrf', '__Host-gs_session']);
      for (const c of cookies) {
        expect(c).toMatch(/;\s*Secure/i);
        expect(c).toMatch(/;\s*HttpOnly/i);
        expect(c).toMatch(/;\s*SameSite=Lax/i);
        expect(c).toMatch(/;\s*Path=\//i);
        expect(c).not.toMatch(/;\s*Domain=/i);
      }
    });
  });
});
