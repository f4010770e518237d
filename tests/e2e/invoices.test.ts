import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccountHolder } from './support/accounts.ts';
import { openBrowser, type Session } from './support/browser.ts';

let s: Session;
let other: Session;
beforeAll(async () => {
  [s, other] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([s?.close(), other?.close()]);
});

describe('invoice page (docs/requirements/product.md tool 14, docs/requirements/screens.md /app/invoices/show/{id})', () => {
  it('the holder opens an invoice from the payments page and sees its lines, balance and no payments', async () => {
    const { page } = s;
    const { invoiceId } = await newAccountHolder(page, {
      email: 'invoice.reader@example.com',
      name: 'Juneau Ski Boosters',
    });
    await page.goto('/app/payments');
    const link = page.getByRole('link', { name: /^Invoice GS-\d{6}$/ });
    await link.waitFor();
    const number = (await link.innerText()).replace(/^Invoice /, '');
    await link.click();
    await page.waitForURL(`**/app/invoices/show/${invoiceId}`);

    const sheet = page.getByRole('article', { name: `Invoice ${number}` });
    await sheet.waitFor();
    await sheet.getByText('GoodStanding', { exact: true }).waitFor();
    await sheet.getByText('Juneau Ski Boosters').waitFor();
    const lines = sheet.getByRole('table', { name: 'Order details' });
    // The price /pricing shows, and the early-bird discount as its own line.
    const row = lines.getByRole('row').filter({ hasText: 'Start-up with tax exemption (new account)' });
    expect(await row.getByRole('cell').allInnerTexts()).toEqual([
      'Start-up with tax exemption (new account)',
      'New account',
      '$695.00',
    ]);
    const earlyBird = lines.getByRole('row').filter({ hasText: 'Early-bird discount' });
    expect(await earlyBird.getByRole('cell').allInnerTexts()).toEqual([
      'Early-bird discount',
      'New account',
      '-$50.00',
    ]);
    const totals = sheet.getByRole('group', { name: 'Totals' });
    expect(await totals.innerText()).toMatch(/Balance due\s+\$645\.00/);
    await sheet.getByText('No payments yet.').waitFor();
    await sheet.getByText('Start-up with tax exemption: first year of membership.').waitFor();
    expect(await page.title()).toBe(`Invoice ${number} | GoodStanding`);
    await page.getByRole('button', { name: 'Print' }).waitFor();
    await page.screenshot({ path: 'test-results/invoice.png', fullPage: true });

    // Printed, the invoice stands alone: the site's header, footer and the buttons are hidden.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.locator('footer').isVisible()).toBe(false);
    expect(await sheet.getByText('No payments yet.').isVisible()).toBe(true);
    await page.screenshot({ path: 'test-results/invoice-print.png', fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    await page.getByRole('link', { name: 'Back to payments' }).click();
    await page.waitForURL('**/app/payments');
    expect(s.errors).toEqual([]);

    // Another account's holder, at the same address, learns nothing about it.
    await newAccountHolder(other.page, { email: 'invoice.other@example.com', name: 'Ketchikan Band Boosters' });
    await other.page.goto(`/app/invoices/show/${invoiceId}`);
    await other.page.getByRole('heading', { level: 1, name: 'Invoice not found' }).waitFor();
    expect(await other.page.getByText('Juneau Ski Boosters').count()).toBe(0);
    await other.page.getByRole('link', { name: 'Go to payments' }).waitFor();
    await other.page.screenshot({ path: 'test-results/invoice-not-found.png', fullPage: true });
    // The only console error is the browser's own note of the 404 answer.
    expect(other.errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });
});
