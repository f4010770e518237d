import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseUrl, forgetSession, openBrowser, type Session } from './support/browser.ts';
import { E2E_USERS } from './support/global-setup.ts';

let session: Session;
/** Requests the page tried to send to any other host (refused, so nothing leaves the machine). */
let offSite: string[];

beforeEach(async () => {
  session = await openBrowser();
  offSite = [];
  const origin = new URL(baseUrl()).origin;
  await session.context.route(
    (url) => url.origin !== origin,
    (route) => {
      offSite.push(route.request().url());
      return route.abort();
    },
  );
});
afterEach(async () => {
  await session.close();
});

/** Signs in as the admin from `/login` with `next`, and waits to leave the sign-in page on this site. */
async function signInWithNext(next: string) {
  const { page } = session;
  const origin = new URL(baseUrl()).origin;
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('E-mail').fill(E2E_USERS.admin.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(E2E_USERS.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.origin === origin && !u.pathname.startsWith('/login'));
  return new URL(page.url());
}

describe('the sign-in page’s next address', () => {
  it('returns to the page that asked for sign-in', async () => {
    const landed = await signInWithNext('/admin/audit?page=1');
    expect(landed.pathname + landed.search).toBe('/admin/audit?page=1');
  });

  it('never follows a next address that leads to another site', async () => {
    for (const next of [
      '/\\evil.example/account',
      '//evil.example/account',
      '/\t/evil.example/account',
      'https://evil.example/account',
    ]) {
      const landed = await signInWithNext(next);
      expect(landed.pathname, next).toBe('/admin');
      await forgetSession(session.page);
    }
    expect(offSite).toEqual([]);
  });
});
