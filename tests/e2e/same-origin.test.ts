import { afterEach, describe, expect, it } from 'vitest';
import { newAccountHolder } from './support/accounts.ts';
import { fillCard, openBilling } from './support/billing.ts';
import { baseUrl, openBrowser, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * Every address the browser uses comes from the origin it opened the site at, or is a path
 * (docs/security.md "Same origin"). The server runs with the default settings (no PUBLIC_URL, so
 * mail links say http://localhost:PORT); a card payment must work when the site is opened at
 * http://127.0.0.1:PORT and at http://localhost:PORT, and PayPal must bring the payer back to the
 * address they left from. Every request the page makes stays on that origin.
 */

const port = () => new URL(baseUrl()).port;

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** Opens the site at `origin` in a fresh browser, noting the origin of every request the page makes. */
async function openAt(origin: string): Promise<{ page: Page; origins: Set<string>; errors: string[] }> {
  s = await openBrowser(origin);
  const origins = new Set<string>();
  s.page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
  });
  return { page: s.page, origins, errors: s.errors };
}

describe('the site at whichever address it is opened, with the default settings', () => {
  it('runs without PUBLIC_URL: links meant for mail say localhost while the browser uses 127.0.0.1', async () => {
    const { page } = await openAt(baseUrl());
    await page.goto('/');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`http://localhost:${port()}/`);
  });

  for (const host of ['127.0.0.1', 'localhost']) {
    it(`pays by card at http://${host}:PORT, every request on that origin`, async () => {
      const origin = `http://${host}:${port()}`;
      const { page, origins, errors } = await openAt(origin);
      await newAccountHolder(page, {
        email: `card.${host.replace(/\W/g, '')}@same-origin.test`,
        name: `Same Origin ${host} Boosters`,
      });
      await openBilling(page);
      expect(new URL(page.url()).origin).toBe(origin);

      const form = await fillCard(page, { number: '4111 1111 1111 1111', zip: '46201' });
      await form.getByRole('button', { name: 'Pay $645.00' }).click();
      await page.waitForURL('**/app/finances');
      await page.getByRole('dialog').getByText('This transaction has been approved.').waitFor();
      await page.screenshot({ path: `test-results/same-origin-card-${host}.png`, fullPage: true });

      expect(new URL(page.url()).origin).toBe(origin);
      expect([...origins]).toEqual([origin]);
      // No CSP refusal, no "An error occurred during processing" from the tokenizer.
      expect(errors).toEqual([]);
    });
  }

  it('pays by PayPal at http://localhost:PORT: the consent page and the way back stay on localhost', async () => {
    const origin = `http://localhost:${port()}`;
    const { page, origins, errors } = await openAt(origin);
    await newAccountHolder(page, { email: 'paypal.localhost@same-origin.test', name: 'Same Origin PayPal Boosters' });
    await openBilling(page);
    await page.getByRole('radio', { name: 'PayPal' }).check();
    await page.getByRole('button', { name: 'Continue to PayPal' }).click();
    await page.getByRole('heading', { name: 'PayPal (simulator)' }).waitFor();
    expect(new URL(page.url()).origin).toBe(origin);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/app\/payments\?paypal=return/);
    expect(new URL(page.url()).origin).toBe(origin);
    // Back with the session: the screen restores the PayPal payment and completes it.
    await page.getByText('PayPal approved', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Complete PayPal payment' }).click();
    await page.waitForURL('**/app/finances');
    await page.getByRole('dialog').getByText('This transaction has been approved.').waitFor();
    expect([...origins]).toEqual([origin]);
    expect(errors).toEqual([]);
  });
});
