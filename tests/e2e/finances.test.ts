import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccountHolder, payWithWelcomeCode } from './support/accounts.ts';
import { forgetSession, openBrowser, signIn, type Session } from './support/browser.ts';

let s: Session;
let staff: Session;
beforeAll(async () => {
  [s, staff] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([s?.close(), staff?.close()]);
});

describe('finances (docs/requirements/product.md tool 14, docs/requirements/screens.md /app/finances, /admin/payments/latest/{accountId})', () => {
  it('a holder with a paid payment sees it listed and opens its printable receipt', async () => {
    const { page } = s;
    const { invoiceId } = await newAccountHolder(page, {
      email: 'finance.reader@example.com',
      name: 'Sitka Soccer Boosters',
    });
    // Before paying: nothing listed, and a notice that leads to the billing screen.
    await page.goto('/app/finances');
    await page.getByRole('heading', { level: 1, name: 'Finances' }).waitFor();
    await page.getByText('No payments yet.').waitFor();
    await page.getByText('You have 1 unpaid invoice.').waitFor();
    expect(await page.getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe('/app/payments');

    const paymentId = await payWithWelcomeCode(page, invoiceId);
    await page.reload();
    const table = page.getByRole('table', { name: 'Payments' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ hasText: 'Discount (no payment)' });
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells[1]).toBe('Discount (no payment)');
    expect(cells[2]).toMatch(/^\$0\.00\s+Discount \$645\.00$/);
    // The badge's words; Mantine shows badges in capitals.
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('Paid');
    const invoiceLink = row.getByRole('link', { name: /^GS-\d{6}$/ });
    expect(await invoiceLink.getAttribute('href')).toBe(`/app/invoices/show/${invoiceId}`);
    const number = await invoiceLink.innerText();
    // Nothing left to pay: no unpaid-invoice notice.
    expect(await page.getByText(/unpaid invoice/).count()).toBe(0);
    await page.screenshot({ path: 'test-results/finances.png', fullPage: true });

    await row.getByRole('link', { name: /^Receipt/ }).click();
    await page.waitForURL(`**/app/payments/receipt/${paymentId}`);
    const sheet = page.getByRole('article', { name: 'Payment receipt' });
    await sheet.waitFor();
    await sheet.getByText('GoodStanding', { exact: true }).waitFor();
    await sheet.getByText('(888) 555-0142', { exact: true }).waitFor();
    await sheet.getByText('Sitka Soccer Boosters').waitFor();
    const invoicesPaid = sheet.getByRole('table', { name: 'Invoices paid' });
    expect(await invoicesPaid.getByRole('row').filter({ hasText: number }).getByRole('cell').allInnerTexts()).toEqual([
      `Invoice ${number}`,
      '$645.00',
    ]);
    const totals = sheet.getByRole('group', { name: 'Totals' });
    expect(await totals.innerText()).toMatch(
      /Amount paid\s+\$0\.00\s+Discount\s+\$645\.00\s+Total settled\s+\$645\.00/,
    );
    expect(await page.title()).toBe(`Receipt ${paymentId} — Sitka Soccer Boosters | GoodStanding`);
    await page.screenshot({ path: 'test-results/receipt.png', fullPage: true });

    // Printed, the receipt stands alone: the site's header, footer and the buttons are hidden.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.locator('footer').isVisible()).toBe(false);
    expect(await sheet.getByText('Total settled').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });

    await page.getByRole('link', { name: 'Back to finances' }).click();
    await page.waitForURL('**/app/finances');
    expect(s.errors).toEqual([]);

    // The admin page is for staff: a holder gets the 403 screen.
    await page.goto('/admin/payments/latest/1');
    await page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor();
    expect(s.errors.filter((e) => !/status of 403/.test(e))).toEqual([]);
  });

  it('an admin opens the latest payments of an account', async () => {
    const { page } = staff;
    const { accountId, invoiceId } = await newAccountHolder(page, {
      email: 'finance.admin.view@example.com',
      name: 'Kodiak Crew Boosters',
    });
    const paymentId = await payWithWelcomeCode(page, invoiceId);
    await forgetSession(staff.page);
    await signIn(page, 'admin');
    await page.goto(`/admin/payments/latest/${accountId}`);
    await page.getByRole('heading', { level: 1, name: 'Latest payments — Kodiak Crew Boosters' }).waitFor();
    const row = page
      .getByRole('table', { name: 'Payments' })
      .getByRole('row')
      .filter({ hasText: 'Discount (no payment)' });
    await row.waitFor();
    expect(await row.getByRole('link', { name: /^Receipt/ }).getAttribute('href')).toBe(
      `/app/payments/receipt/${paymentId}`,
    );
    expect(await page.getByRole('link', { name: 'Pay invoices for this account' }).getAttribute('href')).toBe(
      `/app/payments?account_id=${accountId}`,
    );
    expect(await page.title()).toBe('Latest payments — Kodiak Crew Boosters | GoodStanding');

    // The admin's receipt leads back to that account's latest payments.
    await row.getByRole('link', { name: /^Receipt/ }).click();
    await page.getByRole('article', { name: 'Payment receipt' }).getByText('Kodiak Crew Boosters').waitFor();
    await page.getByRole('link', { name: 'Back to finances' }).click();
    await page.waitForURL(`**/admin/payments/latest/${accountId}`);
    await page.screenshot({ path: 'test-results/latest-payments.png', fullPage: true });
    expect(staff.errors).toEqual([]);
  });
});
