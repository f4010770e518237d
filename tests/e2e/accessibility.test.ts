import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src/shared/routes.ts';
import { routes } from '../../src/web/router.tsx';
import { newAccountHolder, payWithWelcomeCode } from './support/accounts.ts';
import { collectAxe } from './support/axe.ts';
import { baseUrl, fileNameOf, forgetSession, openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';
import type { RouteObject } from 'react-router';

/**
 * Every page of the site, opened by the person who uses it, and the states people meet on the way
 * (a form showing its errors, an open dialog, the navigation drawer on a phone):
 * - axe-core (WCAG 2.1 A and AA, plus best practices) finds nothing (docs/accessibility.md);
 * - at 1280 px and at 375 px wide, nothing scrolls sideways and no button, tab or badge has its
 *   text cut off (docs/accessibility.md "Layout on a phone");
 * - no console error or uncaught error is logged on the way;
 * - a screenshot of each page at both widths is kept in test-results/screens/ (CI's artifact).
 */

type Who = 'visitor' | 'applicant' | 'holder' | 'admin';

/** Addresses learnt while the test runs (records the pages show). */
interface Found {
  bylawsHash: string;
  subordinateId: number;
  wizardToken: string;
  accountId: number;
  invoiceId: number;
  paymentId: number;
  inquiryId: number;
  applicationId: number;
  mailId: number;
  groupId: number;
}

/** Every page of src/shared/routes.ts: who opens it and at which address. */
const VISITS: Record<string, { who: Who; url: (f: Found) => string; expectedError?: RegExp }> = {
  '/': { who: 'visitor', url: () => '/' },
  '/pricing': { who: 'visitor', url: () => '/pricing' },
  '/irs-form-990': { who: 'visitor', url: () => '/irs-form-990' },
  '/state-registration': { who: 'visitor', url: () => '/state-registration' },
  '/incorporation-and-ein': { who: 'visitor', url: () => '/incorporation-and-ein' },
  '/verify-501c3': { who: 'visitor', url: () => '/verify-501c3' },
  '/compliance-check': { who: 'visitor', url: () => '/compliance-check' },
  '/multi-chapter': { who: 'visitor', url: () => '/multi-chapter' },
  '/campus-report': { who: 'visitor', url: () => '/campus-report' },
  '/contact': { who: 'visitor', url: () => '/contact' },
  '/bylaws-generator': { who: 'visitor', url: () => '/bylaws-generator' },
  '/bylaws-generator/school': { who: 'visitor', url: () => '/bylaws-generator/school' },
  '/bylaws-generator/short': { who: 'visitor', url: () => '/bylaws-generator/short' },
  '/bylaws-generator/edit/:hash': { who: 'visitor', url: (f) => `/bylaws-generator/edit/${f.bylawsHash}` },
  '/bylaws-generator/preview/:hash': { who: 'visitor', url: (f) => `/bylaws-generator/preview/${f.bylawsHash}` },
  '/contests/photo': { who: 'visitor', url: () => '/contests/photo' },
  '/contests/video': { who: 'visitor', url: () => '/contests/video' },
  '/privacy': { who: 'visitor', url: () => '/privacy' },
  '/login': { who: 'visitor', url: () => '/login' },
  '/password/forgot': { who: 'visitor', url: () => '/password/forgot' },
  // The page checks the token only when the form is sent.
  '/password/reset/:token': {
    who: 'visitor',
    url: () => '/password/reset/0f1e2d3c4b5a69788796a5b4c3d2e1f0?email=someone%40example.com',
  },
  // The same: opening "This was not me" changes nothing and names no invitation.
  '/invitation/not-me/:token': { who: 'visitor', url: () => '/invitation/not-me/0f1e2d3c4b5a69788796a5' },
  '/app/account/show/:id': { who: 'visitor', url: (f) => `/app/account/show/${f.subordinateId}` },
  '/application/create/:token': { who: 'applicant', url: (f) => `/application/create/${f.wizardToken}` },
  '/application/switch/:token': { who: 'applicant', url: (f) => `/application/switch/${f.wizardToken}` },
  '/app': { who: 'holder', url: () => '/app' },
  '/account': { who: 'holder', url: () => '/account' },
  '/app/payments': { who: 'holder', url: () => '/app/payments' },
  '/app/invoices/show/:id': { who: 'holder', url: (f) => `/app/invoices/show/${f.invoiceId}` },
  '/app/finances': { who: 'holder', url: () => '/app/finances' },
  '/app/payments/receipt/:id': { who: 'holder', url: (f) => `/app/payments/receipt/${f.paymentId}` },
  '/app/account/users': { who: 'holder', url: () => '/app/account/users' },
  '/app/supervision': { who: 'holder', url: () => '/app/supervision' },
  // The holder is made a manager of the demo group first: one group, so /app/group goes on to its workspace.
  '/app/group': { who: 'holder', url: () => '/app/group' },
  '/app/group/:groupId': { who: 'holder', url: (f) => `/app/group/${f.groupId}` },
  '/admin': { who: 'admin', url: () => '/admin' },
  '/admin/accounts': { who: 'admin', url: () => '/admin/accounts' },
  '/admin/accounts/show/:id': { who: 'admin', url: (f) => `/admin/accounts/show/${f.accountId}` },
  '/admin/payments': { who: 'admin', url: () => '/admin/payments' },
  '/admin/inquiries': { who: 'admin', url: () => '/admin/inquiries' },
  '/admin/inquiries/:id': { who: 'admin', url: (f) => `/admin/inquiries/${f.inquiryId}` },
  '/admin/applications': { who: 'admin', url: () => '/admin/applications' },
  '/admin/applications/:id': { who: 'admin', url: (f) => `/admin/applications/${f.applicationId}` },
  '/admin/outbox': { who: 'admin', url: () => '/admin/outbox' },
  '/admin/outbox/:id': { who: 'admin', url: (f) => `/admin/outbox/${f.mailId}` },
  '/admin/banners': { who: 'admin', url: () => '/admin/banners' },
  '/admin/discounts': { who: 'admin', url: () => '/admin/discounts' },
  '/admin/levels': { who: 'admin', url: () => '/admin/levels' },
  '/admin/states': { who: 'admin', url: () => '/admin/states' },
  '/admin/audit': { who: 'admin', url: () => '/admin/audit' },
  '/admin/uploads': { who: 'admin', url: () => '/admin/uploads' },
  // No import exists on this server: the page's "could not be found" state (the browser logs the 404 it was answered).
  '/admin/uploads/roster-imports/:id': {
    who: 'admin',
    url: () => '/admin/uploads/roster-imports/999999',
    expectedError: /status of 404/,
  },
  '/admin/contests': { who: 'admin', url: () => '/admin/contests' },
  '/admin/compliance': { who: 'admin', url: () => '/admin/compliance' },
  '/admin/irs-bulk-checks': { who: 'admin', url: () => '/admin/irs-bulk-checks' },
  '/admin/work-queue': { who: 'admin', url: () => '/admin/work-queue' },
  '/admin/jobs': { who: 'admin', url: () => '/admin/jobs' },
  '/admin/supervision': { who: 'admin', url: () => '/admin/supervision' },
  '/admin/gen-update': { who: 'admin', url: () => '/admin/gen-update' },
  '/admin/yoast/show': { who: 'admin', url: () => '/admin/yoast/show?url=%2Fpricing' },
  '/admin/payments/latest/:accountId': { who: 'admin', url: (f) => `/admin/payments/latest/${f.accountId}` },
};

/** A test visiting many pages: each waits for its data and runs axe (about 1–2 s a page). */
const AXE_TEST_MS = 240_000;

const visitsOf = (who: Who) => Object.entries(VISITS).filter(([, v]) => v.who === who);

/**
 * Waits until the screen is complete: its heading is shown, its data has arrived (no loader
 * left, no request in flight) and no opening transition is still running (axe would see colours
 * half faded in).
 */
async function settled(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () => !document.querySelector('.mantine-Loader-root, [aria-busy="true"] .mantine-LoadingOverlay-root'),
  );
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** The widths every page is checked at: a desktop and a small phone. */
const WIDTHS = [1280, 375] as const;
const SCREENS_DIR = path.join('test-results', 'screens');

/**
 * What the person would see wrong at this width: the page scrolling sideways, a control whose
 * text is cut off (a label wider than the box that clips it: Mantine cuts button and badge labels
 * with an ellipsis instead of wrapping them), or a text box whose hint does not fit in it.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1) {
      const wide = [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.getClientRects().length > 0)
        .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= window.innerWidth + 1)
        .slice(0, 3)
        .map(
          (el) => `<${el.tagName.toLowerCase()} class="${el.className}">${(el.textContent ?? '').trim().slice(0, 40)}`,
        );
      problems.push(
        `scrolls sideways: ${doc.scrollWidth} px wide in a ${window.innerWidth} px window (${wide.join('; ')})`,
      );
    }
    const controls = document.querySelectorAll<HTMLElement>(
      'button, [role="button"], [role="tab"], .mantine-Badge-root, .mantine-Button-label, .mantine-Badge-label, .mantine-Tabs-tabLabel, .mantine-NavLink-label',
    );
    for (const el of controls) {
      if (!el.getClientRects().length) continue;
      const style = getComputedStyle(el);
      const clips = style.overflow !== 'visible' || style.textOverflow === 'ellipsis';
      if (clips && el.scrollWidth > el.clientWidth + 1 && (el.textContent ?? '').trim()) {
        problems.push(
          `text cut off: "${(el.textContent ?? '').trim().slice(0, 60)}" (${el.scrollWidth} px of text in ${el.clientWidth} px)`,
        );
      }
    }
    // Any other text cut with an ellipsis (a name or an address in a narrow column).
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!el.getClientRects().length || getComputedStyle(el).textOverflow !== 'ellipsis') continue;
      if (
        el.matches(
          'button, [role="button"], [role="tab"], .mantine-Badge-root, .mantine-Button-label, .mantine-Badge-label, .mantine-Tabs-tabLabel, .mantine-NavLink-label',
        )
      )
        continue;
      if (el.scrollWidth > el.clientWidth + 1 && (el.textContent ?? '').trim()) {
        problems.push(
          `text cut off: "${(el.textContent ?? '').trim().slice(0, 60)}" (${el.scrollWidth} px of text in ${el.clientWidth} px)`,
        );
      }
    }
    // A hint in an empty box that is wider than the box: the browser cuts it without an ellipsis.
    const measure = document.createElement('canvas').getContext('2d');
    for (const el of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
      if (!measure || !el.getClientRects().length || el.value || !el.placeholder) continue;
      const style = getComputedStyle(el);
      measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = measure.measureText(el.placeholder).width;
      const box = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (text > box + 1) {
        problems.push(`placeholder cut off: "${el.placeholder}" (${Math.ceil(text)} px of text in ${box} px)`);
      }
    }
    return problems;
  });
}

/**
 * Looks at the current page at each width: layout problems go to `failures` under `label`, and a
 * full-page screenshot is written for people to look at. Leaves the page at the width it had.
 */
async function checkLayout(page: Page, label: string, failures: string[]) {
  const before = page.viewportSize() ?? { width: 1280, height: 900 };
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  const name = fileNameOf(label);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForFunction((w) => window.innerWidth === w, width);
    await page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    );
    for (const problem of await layoutProblems(page)) failures.push(`${label} at ${width} px: ${problem}`);
    await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
  await page.waitForFunction((w) => window.innerWidth === w, before.width);
}

/** Console errors logged since the last call, as failures under `label`, but for the one the page is expected to log. */
function takeConsoleErrors(session: Session, label: string, failures: string[], expected?: RegExp) {
  for (const error of session.errors.splice(0)) {
    if (!expected?.test(error)) failures.push(`${label}: console error: ${error}`);
  }
}

/**
 * Opens `url`, waits for it to settle and records under `label` what axe finds, the layout at
 * both widths and any console error logged while it loaded.
 */
async function check(page: Page, url: string, label: string, failures: string[], expectedError?: RegExp) {
  const res = await page.goto(url);
  expect(res?.status(), `${label}: HTTP status`).toBe(200);
  await settled(page);
  await collectAxe(page, label, failures);
  await checkLayout(page, label, failures);
  takeConsoleErrors(sessionOf(page), label, failures, expectedError);
}

/** The same check for a state reached on the current page (a dialog, errors shown). */
async function checkHere(page: Page, label: string, failures: string[], expectedError?: RegExp) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  await collectAxe(page, label, failures);
  takeConsoleErrors(sessionOf(page), label, failures, expectedError);
}

/** The session a page belongs to (each test drives one). */
function sessionOf(page: Page): Session {
  return [visitor, holder, admin].find((s) => s.page === page)!;
}

/**
 * Staff, in a browser of their own, add the user signed in as `email` to the demo seed's group
 * (GEN 5271) as a manager (POST /api/app/groups/{groupId}/users, docs/roles.md "Central
 * organizations"). @returns the group's id
 */
async function addToDemoGroup(email: string): Promise<number> {
  const staff = await openBrowser();
  try {
    await signIn(staff.page, 'admin');
    const answer = await staff.page.evaluate(async (email) => {
      const headers = {
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
      };
      const view = (await (await fetch('/api/admin/gen-update', { headers })).json()) as { group: { id: number } };
      const added = await fetch(`/api/app/groups/${view.group.id}/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email, first_name: 'Alex', last_name: 'Holder', role: 'manager' }),
      });
      return { groupId: view.group.id, status: added.status };
    }, email);
    expect(answer.status).toBe(201);
    return answer.groupId;
  } finally {
    await staff.close();
  }
}

const found = {} as Found;
let visitor: Session;
let holder: Session;
let admin: Session;

beforeAll(async () => {
  [visitor, holder, admin] = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([visitor?.close(), holder?.close(), admin?.close()]);
});

describe('accessibility: axe-core finds no violations (WCAG 2.1 A/AA and best practices)', () => {
  it('the list below covers every page of the site, and the router serves each of them', () => {
    expect(Object.keys(VISITS).sort()).toEqual(PAGES.map((p) => p.path).sort());
    // The router's own routes, not its source text: a reformatted file must not hide a page.
    const routerPaths: string[] = [];
    const visit = (list: RouteObject[]) => {
      for (const route of list) {
        if (route.path && route.path !== '*') routerPaths.push(route.path);
        if (route.children) visit(route.children);
      }
    };
    visit(routes);
    expect(routerPaths.sort()).toEqual(PAGES.map((p) => p.path).sort());
    for (const [path, visit] of Object.entries(VISITS)) {
      const access = PAGES.find((p) => p.path === path)!.access;
      const expected =
        access === 'visitor' ? ['visitor'] : access === 'signed-in' ? ['holder', 'applicant'] : ['admin'];
      expect(expected, path).toContain(visit.who);
    }
  });

  it(
    'every public page, as a visitor; a form with its errors and the success dialog; the phone menu',
    async () => {
      const { page } = visitor;
      const failures: string[] = [];

      // Records the visitor-only pages need: a saved set of bylaws and a subordinate.
      await page.goto('/bylaws-generator/short');
      await page.getByRole('textbox', { name: /What is the name of your organization\?/ }).fill('Riverside PTO');
      await page
        .getByRole('textbox', { name: /What is the purpose of your organization\?/ })
        .fill('To provide classroom supplies for Riverside Elementary School.');
      await page.getByRole('combobox', { name: /Last month of the fiscal year/ }).selectOption({ label: 'December' });
      await page.getByRole('button', { name: 'Generate' }).click();
      await page.waitForURL(/\/bylaws-generator\/edit\/[0-9a-f]{32}$/);
      await page.getByText('Your bylaws have been created! Please select an option.').waitFor();
      await checkHere(page, 'visitor: bylaws generated, choice of download or view', failures);
      found.bylawsHash = page.url().split('/').pop()!;
      const search = (await (
        await fetch(`${baseUrl()}/search?search=verify-501c3&keyword=wrestling&page=1`)
      ).json()) as { data: { id: number }[] };
      found.subordinateId = search.data[0].id;

      for (const [path, visit] of visitsOf('visitor')) await check(page, visit.url(found), `visitor ${path}`, failures);

      // The contact form refusing an empty submit: every error under its field.
      await check(page, '/contact', 'visitor /contact', []);
      await page.getByRole('button', { name: 'Send message' }).click();
      await page.getByText('The subject field is required.').waitFor();
      await checkHere(page, 'visitor /contact with its errors shown', failures);
      // Sent: the success dialog.
      await page.getByRole('textbox', { name: /^Name/ }).fill('Robin Reader');
      await page.getByRole('textbox', { name: /^E-mail/ }).fill('robin.reader@example.com');
      await page.getByRole('combobox', { name: /^Subject/ }).selectOption('State registration');
      await page.getByRole('textbox', { name: /^Message/ }).fill('Which states need a charitable registration?');
      await page.getByRole('button', { name: 'Send message' }).click();
      await page.getByRole('dialog').getByText('Success!').waitFor();
      await checkHere(page, 'visitor /contact with the success dialog open', failures);
      await page.keyboard.press('Escape');

      // Sign-in refused.
      await check(page, '/login', 'visitor /login', []);
      await page.getByRole('textbox', { name: /^E-mail/ }).fill('nobody@example.com');
      await page.getByRole('textbox', { name: /^Password/ }).fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').first().waitFor();
      // The browser logs the refusal it was answered (422), which the form then shows.
      await checkHere(page, 'visitor /login after a refused sign-in', failures, /status of 422/);

      // A phone: the navigation drawer open.
      await page.setViewportSize({ width: 390, height: 844 });
      await check(page, '/', 'visitor / on a phone', failures);
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByRole('dialog').getByRole('link', { name: 'Pricing' }).waitFor();
      await checkHere(page, 'visitor / on a phone with the navigation open', failures);
      await page.setViewportSize({ width: 1280, height: 900 });

      expect(failures.join('\n\n')).toBe('');
    },
    AXE_TEST_MS,
  );

  it(
    'the application wizard, as a new applicant, with its errors and the cancel dialog',
    async () => {
      const { page } = visitor;
      const failures: string[] = [];
      await forgetSession(page);
      await page.goto('/pricing');
      await page.getByRole('link', { name: /^Choose Start-up/ }).click();
      const form = page.getByRole('form', { name: 'Start your application' });
      await form.waitFor();
      await form.getByRole('button', { name: "Let's go!" }).click();
      await form.getByText('The email field is required.').waitFor();
      await checkHere(page, 'visitor /pricing with the start form and its errors', failures);
      await form.getByRole('textbox', { name: /^E-mail/ }).fill('a11y.applicant@example.com');
      await form.getByRole('textbox', { name: /^Password/ }).fill('Booster#Club2026!');
      await form.getByRole('button', { name: "Let's go!" }).click();
      await page.waitForURL('**/application/create/**');
      found.wizardToken = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

      const [[path, visit]] = visitsOf('applicant');
      await check(page, visit.url(found), `applicant ${path}`, failures);
      await page.getByRole('button', { name: 'Next' }).click();
      await page
        .getByText(/field is required\./)
        .first()
        .waitFor();
      await checkHere(page, `applicant ${path} with its errors shown`, failures);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').waitFor();
      await checkHere(page, `applicant ${path} with the cancel dialog open`, failures);
      await page.keyboard.press('Escape');
      // The applicant's other pages (the mailed switch link's page asks before it switches anything).
      for (const [otherPath, other] of visitsOf('applicant').slice(1))
        await check(page, other.url(found), `applicant ${otherPath}`, failures);
      expect(failures.join('\n\n')).toBe('');
    },
    AXE_TEST_MS,
  );

  it(
    'every page of the account area, as an account holder; the billing form with its errors; a dialog',
    async () => {
      const { page } = holder;
      const failures: string[] = [];
      const made = await newAccountHolder(page, {
        email: 'a11y.holder@example.com',
        name: 'Laramie Lacrosse Boosters',
      });
      found.accountId = made.accountId;
      found.invoiceId = made.invoiceId;

      // Unpaid: the billing form is on the payments page.
      await check(page, '/app/payments', 'holder /app/payments (billing form)', failures);
      const card = page.getByRole('form', { name: 'Pay by credit card' });
      await card.getByRole('button', { name: /^Pay \$/ }).click();
      await card.getByText('The card number field is required.').waitFor();
      await checkHere(page, 'holder /app/payments with the card errors shown', failures);

      // The account users' delete confirmation.
      await check(page, '/app/account/users', 'holder /app/account/users (before)', []);
      await page
        .getByRole('table', { name: 'Users' })
        .getByRole('button', { name: /^Delete/ })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
      await checkHere(page, 'holder /app/account/users with a dialog open', failures);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // Paid: a receipt exists.
      found.paymentId = await payWithWelcomeCode(page, found.invoiceId);
      // No central organization's workspace yet; then staff make the holder a manager of the demo group's.
      await check(page, '/app/group', 'holder /app/group (no workspace)', failures);
      found.groupId = await addToDemoGroup('a11y.holder@example.com');
      for (const [path, visit] of visitsOf('holder')) await check(page, visit.url(found), `holder ${path}`, failures);
      expect(failures.join('\n\n')).toBe('');
    },
    AXE_TEST_MS,
  );

  it(
    'every admin page, as an admin',
    async () => {
      const { page } = admin;
      const failures: string[] = [];
      await signIn(page, 'admin');
      const firstLinkId = async (list: string, table: string) => {
        await page.goto(list);
        const link = page.getByRole('table', { name: table }).getByRole('link').first();
        await link.waitFor();
        return Number((await link.getAttribute('href'))!.split('/').pop());
      };
      found.inquiryId = await firstLinkId('/admin/inquiries', 'Inquiries');
      found.applicationId = await firstLinkId('/admin/applications', 'Applications');
      found.mailId = await firstLinkId('/admin/outbox', 'Mails');
      expect(found.accountId, 'the holder test made an account').toBeGreaterThan(0);

      for (const [path, visit] of visitsOf('admin'))
        await check(page, visit.url(found), `admin ${path}`, failures, visit.expectedError);
      expect(failures.join('\n\n')).toBe('');
    },
    AXE_TEST_MS,
  );
});
