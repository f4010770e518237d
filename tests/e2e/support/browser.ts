import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../helpers/chromium.ts';
import { E2E_USERS } from './global-setup.ts';

export const baseUrl = () => inject('baseUrl');

export interface Session {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** console errors and uncaught page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/** `label` as a file name: letters and digits, lower case, runs of anything else as one '-'. */
export function fileNameOf(label: string): string {
  return label
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

/** The sessions not closed yet, for a look at their pages when a test fails. */
const openSessions = new Set<Session>();

/**
 * What every page still open shows when a test fails: for each, its address, the start of its
 * main content's text and a full-page screenshot written to `test-results/failures/` (kept by CI
 * with the other test results). A page that does not answer within 5 s is reported as such.
 * @param testName names the screenshots, e.g. 'searches, filters and sorts…'
 * @returns one line per page, for the test's output
 */
export async function describeOpenPages(testName: string): Promise<string[]> {
  const dir = path.join('test-results', 'failures');
  fs.mkdirSync(dir, { recursive: true });
  const base = fileNameOf(testName).slice(0, 80);
  const lines: string[] = [];
  let n = 0;
  for (const session of openSessions) {
    for (const page of session.context.pages()) {
      const file = path.join(dir, `${base}-${++n}.png`);
      try {
        await page.screenshot({ path: file, fullPage: true, timeout: 5_000 });
        // The page's main content says more than the header every page shares.
        const main = page.locator('main');
        const text = await ((await main.count()) ? main.first() : page.locator('body')).innerText({ timeout: 5_000 });
        const shown = text.replace(/\s+/g, ' ').trim().slice(0, 400);
        lines.push(`page ${n}: ${page.url()} (screenshot ${file}); it shows: ${shown}`);
      } catch (err) {
        lines.push(`page ${n}: ${page.url()} did not answer: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  return lines;
}

/**
 * A fresh browser with one page; collects console errors so tests can assert there are none.
 * @param origin the address the site is opened at: the server's 127.0.0.1 address by default
 */
export async function openBrowser(origin = baseUrl()): Promise<Session> {
  // launch() gives every browser a new, empty profile of its own (the fresh user-data-dir of docs/requirements/platform.md §8).
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const session: Session = {
    browser,
    context,
    page,
    errors,
    async close() {
      openSessions.delete(session);
      await browser.close();
    },
  };
  openSessions.add(session);
  return session;
}

/** Signs in through the sign-in page as a person would. */
export async function signIn(page: Page, who: keyof typeof E2E_USERS) {
  const user = E2E_USERS[who];
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

/**
 * Signs the browser out by dropping its cookies. The page is left first: a request the old page
 * made after the cookies went would get a new visitor session, replacing the one the next page's
 * CSRF token is bound to (a 419 on its first form).
 */
export async function forgetSession(page: Page) {
  await page.goto('about:blank');
  await page.context().clearCookies();
}

/**
 * Full-page screenshots of the page as it is now, 1280 and 375 px wide, for a person to look at:
 * kept with the test results (`test-results/screens/<set>/<name>-<width>.png`, CI's artifact).
 * Leaves the page 1280 × 900.
 */
export async function screenshotBothWidths(page: Page, set: string, name: string) {
  const dir = path.join('test-results', 'screens', set);
  fs.mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
