import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CARD_DECLINED } from '../../src/shared/rules/payment-refusals.ts';
import { newAccountHolder } from './support/accounts.ts';
import { fillCard, openBilling } from './support/billing.ts';
import { openBrowser, screenshotBothWidths, type Session } from './support/browser.ts';
import { startProductServer, type ProductServer } from './support/product-server.ts';

/*
 * The abuse limits as a person meets them (docs/security.md "Limits on mail and payments", "Sign-in
 * and address probing"): a server of its own, at the product's default abuse limits (the shared one
 * puts them out of reach), and what the pages say past a limit.
 */

const HOLDER = { email: 'limits.holder@e2e.test', password: 'H0lder-limits-Pass' };
/** "… Please try again after November 28, 2026 4:05 pm UTC (in 42 minutes)." */
const TRY_AGAIN = /Please try again after [A-Z][a-z]+ \d{1,2}, \d{4} \d{1,2}:\d{2} [ap]m UTC \(in .+\)\./;

let server: ProductServer;
const sessions: Session[] = [];
const browse = async () => {
  const s = await openBrowser(server.baseUrl);
  sessions.push(s);
  return s;
};

beforeAll(async () => {
  server = await startProductServer({
    ADMIN_EMAIL: 'limits.admin@e2e.test',
    ADMIN_PASSWORD: 'Adm1n-limits-Pass',
    DEMO_EMAIL: HOLDER.email,
    DEMO_PASSWORD: HOLDER.password,
    // The per-minute limits guard the server's load, not what this file is about.
    RATE_LIMIT_FORMS_PER_MINUTE: '1000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
  });
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});
afterAll(async () => server?.stop());

describe('past a limit, the page says what happened and when to try again', () => {
  it('a card declined five times: the sixth attempt is paused, in the same dialog, with the time to try again', async () => {
    const { page, errors } = await browse();
    await newAccountHolder(page, { email: 'card.declines@e2e.test', name: 'Declined Card Boosters' });
    await openBilling(page);
    const form = await fillCard(page, { number: '5424 0000 0000 0015', zip: '46282' });
    const dialog = page.getByRole('dialog');
    for (let i = 0; i < 5; i++) {
      await form.getByRole('button', { name: /^Pay \$/ }).click();
      await dialog.getByText(CARD_DECLINED).waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    await form.getByRole('button', { name: /^Pay \$/ }).click();
    await dialog.getByText('Uh oh!').waitFor();
    const paused = dialog.getByText(/^For your security, payments are paused after too many declined attempts\./);
    await paused.waitFor();
    expect(await paused.innerText()).toMatch(TRY_AGAIN);
    // The dialog has faded in before it is pictured.
    await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
    await screenshotBothWidths(page, 'abuse-limits', 'payments-paused');
    // What the card data was stays, for when payments open again.
    expect(await form.getByLabel('Card number').inputValue()).toBe('5424 0000 0000 0015');
    expect(errors.filter((e) => !/status of (422|429)/.test(e))).toEqual([]);
  });

  it('ten wrong passwords from a new browser stop the eleventh, right one; the owner on their own browser still signs in', async () => {
    const owner = await browse();
    /** Fills and sends the sign-in form; @returns the status the server answered. */
    const signInWith = async (page: typeof owner.page, password: string) => {
      // Typing the address again clears the last refusal's message, which holds the button.
      await page.getByLabel('E-mail').fill('');
      await page.getByLabel('E-mail').fill(HOLDER.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
      const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/login'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      return (await answered).status();
    };
    // The owner has signed in on this browser before, then signed out.
    await owner.page.goto('/login');
    expect(await signInWith(owner.page, HOLDER.password)).toBe(200);
    await owner.page.waitForURL('**/app');
    await owner.page.goto('about:blank');
    await owner.context.clearCookies({ name: 'gs_session' });

    const stranger = await browse();
    await stranger.page.goto('/login');
    for (let i = 0; i < 10; i++) {
      expect(await signInWith(stranger.page, `Guess-number-${i}`)).toBe(422);
      await stranger.page.getByText('These credentials do not match our records.').waitFor();
    }
    expect(await signInWith(stranger.page, HOLDER.password)).toBe(429);
    const refused = stranger.page.getByRole('alert').filter({ hasText: 'Too many failed sign-ins to this account' });
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(TRY_AGAIN);
    expect(stranger.page.url()).toContain('/login');
    await screenshotBothWidths(stranger.page, 'abuse-limits', 'sign-in-paused');

    await owner.page.goto('/login');
    expect(await signInWith(owner.page, HOLDER.password)).toBe(200);
    await owner.page.waitForURL('**/app');
  });
});
