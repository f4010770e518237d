import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WIZARD_TITLES, type WizardLevelSlug } from '../../src/server/db/seed/wizard-schemas.ts';
import { BYLAW_ANSWERS } from '../helpers/bylaws.ts';
import { forgetSession, openBrowser, screenshotBothWidths, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * Defects a person met in a real browser, each checked as they would meet it: the rating widget
 * by keyboard and after a reload, the mailed switch link, the list pages, the Greek chapter
 * select, field names in messages, the billing screen of a user with no organization yet, and
 * control text and page width at 375 px and 1280 px. Every test also fails on any console error.
 */

let s: Session;
beforeEach(async () => {
  s = await openBrowser();
});
afterEach(async () => {
  const errors = [...s.errors];
  await s.close();
  expect(errors, 'console errors').toEqual([]);
});

/**
 * Starts an application for `level` as the pricing page would, leaving the new user signed in in
 * `page` with a draft and no organization yet. @returns the draft's token
 */
async function startDraft(page: Page, level: WizardLevelSlug, email: string): Promise<string> {
  await page.goto('/pricing');
  const token = await page.evaluate(
    async ({ email, level }) => {
      const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const { levels } = (await (await fetch('/api/pricing')).json()) as { levels: { id: number; slug: string }[] };
      const res = await fetch('/application/start', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-TOKEN': meta },
        body: JSON.stringify({ email, password: 'Draft#E2e-2026', level_id: levels.find((l) => l.slug === level)!.id }),
      });
      return ((await res.json()) as { token: string }).token;
    },
    { email, level },
  );
  expect(token).toBeTruthy();
  return token;
}

/** Buttons and badges whose text does not fit in them (drawn cut or with an ellipsis). */
const cutControls = (page: Page) =>
  page.evaluate(() => {
    const cut: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(
      'button, a.mantine-Button-root, .mantine-Badge-root, .mantine-Button-label, .mantine-Badge-label',
    )) {
      if (!el.offsetParent) continue;
      if (el.scrollWidth > el.clientWidth + 1)
        cut.push(`"${el.textContent?.trim()}" (${el.scrollWidth} px of text in ${el.clientWidth} px)`);
    }
    return cut;
  });

/** How far the page is wider than the window, in CSS pixels (0 when it fits). */
const overflowPx = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Checks `path` (already loaded once, so `ready` is known) at 375 px and 1280 px. */
async function checkWidths(page: Page, path: string, ready: (page: Page) => Promise<unknown>, label: string) {
  const failures: string[] = [];
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    await ready(page);
    const cut = await cutControls(page);
    if (cut.length) failures.push(`${label} at ${width} px: cut ${cut.join(', ')}`);
    const over = await overflowPx(page);
    if (width === 375 && over > 0)
      failures.push(`${label} at ${width} px: the page is ${over} px wider than the screen`);
    await page
      .screenshot({ path: `/tmp/shots-defects/${label.replace(/\W+/g, '-')}-${width}.png`, fullPage: false })
      .catch(() => undefined);
  }
  return failures;
}

describe('rating widget', () => {
  /** Rates /pricing with the keyboard on the star labelled `star`; @returns what the browser sent */
  async function rateWithKeyboard(page: Page, star: string, comment: string) {
    await page.goto('/pricing');
    const form = page.getByRole('form', { name: 'Rate this page' });
    await form.waitFor();
    // The form is enabled once the page is interactive.
    await form.getByRole('button', { name: 'Send review' }).and(page.locator(':enabled')).waitFor();
    const radio = form.getByRole('radio', { name: star, exact: true });
    await radio.focus();
    await page.keyboard.press('Space');
    await form.getByLabel('Comments').fill(comment);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/ratings') && r.method() === 'POST'),
      form.getByRole('button', { name: 'Send review' }).press('Enter'),
    ]);
    await page.getByRole('status').filter({ hasText: 'Thank you, we have received your review!' }).waitFor();
    return request.postDataJSON() as Record<string, unknown>;
  }

  it('sends the star the keyboard chose, and the comments, under their names', async () => {
    const sent = await rateWithKeyboard(s.page, '5 stars', 'The prices are clear.');
    expect(sent.rating).toBe(5);
    expect(sent.comments).toBe('The prices are clear.');
  });

  it('"1 star" sends 1, and the page after a reload shows the thanks without a hydration error', async () => {
    const sent = await rateWithKeyboard(s.page, '1 star', 'Too long.');
    expect(sent.rating).toBe(1);
    await s.page.reload();
    await s.page.getByRole('status').filter({ hasText: 'Thank you, we have received your review!' }).waitFor();
    await s.page.getByRole('link', { name: 'Pricing' }).first().waitFor();
    // React reports a mismatch once it has hydrated; the page is interactive after it.
    await s.page.waitForFunction(() => document.readyState === 'complete');
    await s.page.getByRole('navigation').first().click({ trial: true });
    expect(s.errors.filter((e) => /418|hydrat/i.test(e))).toEqual([]);
  });

  it('no star chosen: the form says so and sends nothing', async () => {
    const { page } = s;
    await page.goto('/irs-form-990');
    const form = page.getByRole('form', { name: 'Rate this page' });
    await form.getByRole('button', { name: 'Send review' }).and(page.locator(':enabled')).waitFor();
    let posted = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/ratings')) posted = true;
    });
    await form.getByRole('button', { name: 'Send review' }).click();
    await form.getByText('Please choose from 1 to 5 stars.').waitFor();
    expect(posted).toBe(false);
  });
});

describe('application switch link', () => {
  it('GET /application/switch/{token} from a mail asks, switches the draft and lands on the wizard', async () => {
    const { page } = s;
    const token = await startDraft(page, 'start-up', `switch-${Date.now()}@e2e.test`);
    await page.goto(`/application/switch/${token}`);
    await page.getByRole('heading', { name: 'Switch to the maintain application?' }).waitFor();
    await screenshotBothWidths(page, 'defects', 'switch');
    await page.getByRole('button', { name: 'Switch to the maintain application' }).click();
    await page.waitForURL(`**/application/create/${token}`);
    await page
      .getByText(/Maintain application/)
      .first()
      .waitFor();
    expect(await page.getByRole('heading', { name: WIZARD_TITLES.maintain }).count()).toBe(1);
  });

  it('a visitor is sent to sign in first', async () => {
    const res = await s.page.goto('/application/switch/abc123');
    expect(res?.status()).toBe(200);
    await s.page.waitForURL(/\/login\?next=/);
  });
});

describe('billing screen of a user with no organization yet', () => {
  it('says there is nothing to pay and leads back to the application, no endless spinner', async () => {
    const { page } = s;
    await startDraft(page, 'start-up', `noorg-${Date.now()}@e2e.test`);
    await page.goto('/app/payments');
    await page.getByRole('heading', { name: 'You have nothing to pay yet.' }).waitFor({ timeout: 5000 });
    await page.getByRole('link', { name: 'Continue your application' }).waitFor();
    expect(await page.getByRole('status', { name: 'Loading' }).count()).toBe(0);
    await screenshotBothWidths(page, 'defects', 'no-organization-payments');
    await page.getByRole('link', { name: 'Continue your application' }).click();
    // The account's list links to the draft by its id (the mailed token is not kept).
    await page.waitForURL('**/application/create/**');
    await page.getByRole('heading', { name: WIZARD_TITLES['start-up'] }).waitFor();
  });
});

describe('signed-in pages of a user with no organization yet', () => {
  it('each page ends its loading with content, never an endless spinner or a failed request', async () => {
    const { page } = s;
    await startDraft(page, 'start-up', `noorg-pages-${Date.now()}@e2e.test`);
    const stuck: string[] = [];
    for (const path of ['/account', '/app/finances', '/app/supervision', '/app/account/users', '/app/payments']) {
      await page.goto(path);
      await page.getByRole('heading').first().waitFor();
      // The account's pages have nothing to show yet and lead back to the application.
      if (path !== '/account') await page.getByRole('link', { name: 'Continue your application' }).waitFor();
      const loader = page.getByRole('status', { name: 'Loading' });
      try {
        await loader.first().waitFor({ state: 'detached', timeout: 10_000 });
      } catch {
        stuck.push(path);
      }
    }
    expect(stuck).toEqual([]);
  });
});

describe('pagination', () => {
  it('shows the first and last page and three pages either side of the current one', async () => {
    const { page } = s;
    await page.goto('/verify-501c3');
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await pages.waitFor();
    const shown = async () => (await pages.getByRole('button', { name: /^Page \d+$/ }).allInnerTexts()).map(Number);
    const last = Math.max(...(await shown()));
    expect(await shown()).toEqual([1, 2, 3, 4, last]);
    // Each click moves the window: the next target appears once the new page is shown.
    for (const [go, next] of [
      [4, 7],
      [7, 10],
      [10, 13],
    ]) {
      await pages.getByRole('button', { name: `Page ${go}`, exact: true }).click();
      await pages.getByRole('button', { name: `Page ${next}`, exact: true }).waitFor();
    }
    expect(await pages.locator('[aria-current="page"]').innerText()).toBe('10');
    expect(await shown()).toEqual([1, 7, 8, 9, 10, 11, 12, 13, last]);
  });
});

describe('Greek chapter application', () => {
  it('the national organization is chosen from the list; free text is not kept', async () => {
    const { page } = s;
    const token = await startDraft(page, 'greek-chapter', `greek-${Date.now()}@e2e.test`);
    await page.goto(`/application/create/${token}`);
    const field = page.getByLabel(/^National organization/).and(page.locator('input'));
    await field.fill('Made Up Fraternity');
    await page.getByLabel(/^Chapter name/).click();
    expect(await field.inputValue()).toBe('');
    await field.fill('Sigma C');
    await page.getByRole('option', { name: 'Sigma Chi', exact: true }).click();
    expect(await field.inputValue()).toBe('Sigma Chi');
  });
});

describe('field names in messages', () => {
  it('the compliance check names the EIN field by its label', async () => {
    const { page } = s;
    await page.goto('/compliance-check');
    const form = page.getByRole('form', { name: 'Free compliance check' });
    const submit = form.getByRole('button', { name: 'Submit', exact: true });
    await submit.and(page.locator(':enabled')).waitFor();
    // Sent empty: every required field is named by its label.
    await submit.click();
    await form.getByText('The EIN field is required.').waitFor();
    await form.getByText('The organization field is required.').waitFor();
    expect(await form.getByText(/\bein\b/).count()).toBe(0);
    await form.getByLabel(/^Name/).fill('Ada Park');
    await form.getByLabel(/^E-mail/).fill('ada.park@example.org');
    await form.getByLabel(/^Phone/).fill('(907) 555-0101');
    await form.getByLabel(/^Organization/).fill('Kenai Boosters');
    await form.getByLabel(/^EIN/).fill('12');
    await submit.click();
    await form.getByText('The EIN must be 9 digits, like 12-3456789.').waitFor();
    expect(await form.getByText(/\bein\b/).count()).toBe(0);
  });
});

describe('control text and page width', () => {
  it('buttons and badges keep their whole text at 375 px and 1280 px; the pages fit a phone', async () => {
    const { page } = s;
    const failures: string[] = [];
    // The bylaws preview of a new set of bylaws.
    await page.goto('/bylaws-generator');
    const hash = await page.evaluate(async (answers) => {
      const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch('/bylaws-generator', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-TOKEN': meta },
        body: JSON.stringify({
          ...answers,
          name: 'Soldotna Track and Field Boosters Association of the Kenai Peninsula',
        }),
      });
      return ((await res.json()) as { bylaw: { hash: string } }).bylaw.hash;
    }, BYLAW_ANSWERS.standard);
    failures.push(
      ...(await checkWidths(
        page,
        `/bylaws-generator/preview/${hash}`,
        (p) => p.getByRole('article', { name: 'Bylaws document' }).waitFor(),
        'bylaws preview',
      )),
    );

    await signIn(page, 'holder');
    failures.push(...(await checkWidths(page, '/account', (p) => p.getByRole('heading').first().waitFor(), 'account')));
    // The billing screen with a discount applied (its Remove discount button).
    const billing = async (p: Page) => {
      await p.getByLabel('Discount code').waitFor();
      if ((await p.getByRole('button', { name: 'Remove discount' }).count()) === 0) {
        await p.getByLabel('Discount code').fill('WELCOME100');
        await p.getByRole('button', { name: /^Apply/ }).click();
      }
      await p.getByRole('button', { name: 'Remove discount' }).waitFor();
    };
    failures.push(...(await checkWidths(page, '/app/payments', billing, 'billing screen')));
    failures.push(
      ...(await checkWidths(page, '/app/finances', (p) => p.getByRole('heading').first().waitFor(), 'finances')),
    );
    failures.push(
      ...(await checkWidths(page, '/app/supervision', (p) => p.getByRole('heading').first().waitFor(), 'supervision')),
    );
    // Staff lists with status badges.
    await forgetSession(page);
    await signIn(page, 'admin');
    failures.push(
      ...(await checkWidths(page, '/admin/accounts', (p) => p.getByRole('table').first().waitFor(), 'admin accounts')),
    );
    failures.push(
      ...(await checkWidths(
        page,
        '/admin/payments',
        (p) => p.getByRole('heading', { name: 'Payments' }).first().waitFor(),
        'admin payments',
      )),
    );
    expect(failures).toEqual([]);
  });
});
