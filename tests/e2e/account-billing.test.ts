import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccountHolder } from './support/accounts.ts';
import { openBrowser, type Session } from './support/browser.ts';

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s?.close();
});

describe('invoices and payments on /account (docs/requirements/product.md "Staff console")', () => {
  it('shows what is due with Pay now, and no payments yet', async () => {
    const { page } = s;
    const { invoiceId } = await newAccountHolder(page, {
      email: 'account.billing@example.com',
      name: 'Casper Chess Boosters',
    });
    await page.goto('/account');
    const card = page.getByRole('region', { name: 'Invoices and payments' });
    await card.waitFor();
    const invoice = card.getByRole('link', { name: /^Invoice GS-\d{6}$/ });
    expect(await invoice.getAttribute('href')).toBe(`/app/invoices/show/${invoiceId}`);
    await card.getByText('$645.00 due').waitFor();
    await card.getByText('No payments yet.').waitFor();
    await card.screenshot({ path: 'test-results/account-billing-card.png' });
    await card.getByRole('link', { name: 'Pay now' }).click();
    await page.waitForURL('**/app/payments');
    await page.getByRole('heading', { level: 2, name: 'Unpaid invoices' }).waitFor();
    expect(s.errors).toEqual([]);
  });
});
