import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, type Session } from './support/browser.ts';

/**
 * The staff's view of money (/admin/payments): an admin opens the payments page from the
 * admin navigation, sees the totals and every account's payments, switches to the open invoices,
 * finds the demo account's unpaid invoices (oldest first, so the demo seed's come first) and
 * follows "Pay for this account" to the billing screen for that account.
 */

let staff: Session;
beforeAll(async () => {
  staff = await openBrowser();
});
afterAll(async () => {
  await staff?.close();
});

const DEMO = 'Lincoln High School Athletic Boosters';

describe('admin payments (docs/requirements/product.md "Staff console")', () => {
  it('an admin sees the payments and open invoices of all accounts and pays one on an account’s behalf', async () => {
    const { page } = staff;
    await signIn(page, 'admin');
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Payments', exact: true }).click();
    await page.waitForURL('**/admin/payments');
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();

    // Totals first, with the note on held and pending payments.
    const totals = page.getByRole('region', { name: 'Totals' });
    await totals.getByText(/^\$[\d,]+\.\d\d$/).waitFor();
    expect(await totals.innerText()).toMatch(/Held for review[\s\S]*Not confirmed/);
    await page.getByText(/Held payments are under review at the payment gateway/).waitFor();

    // The payments tab: a table of payments, or its empty state when no test has paid yet.
    await page.getByRole('table', { name: 'Payments' }).or(page.getByText('No payments yet.')).waitFor();
    await page.getByLabel('Status').selectOption('held');
    await page.waitForURL((u) => u.searchParams.get('status') === 'held');
    await page.getByRole('table', { name: 'Payments' }).or(page.getByText('No payments match.')).waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.waitForURL((u) => !u.searchParams.has('status'));
    await page.screenshot({ path: 'test-results/admin-payments.png', fullPage: true });

    // The open invoices tab: the demo account's invoices are among the oldest.
    await page.getByRole('tab', { name: 'Open invoices' }).click();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'invoices');
    const table = page.getByRole('table', { name: 'Open invoices' });
    await table.waitFor();
    const demoRows = table.locator('tbody tr').filter({ hasText: DEMO });
    await demoRows.first().waitFor();
    expect(await demoRows.count()).toBeGreaterThanOrEqual(1);
    const row = demoRows.first();
    expect(await row.innerText()).toMatch(/\$[\d,]+\.\d\d/);
    const invoiceHref = await row.getByRole('link').first().getAttribute('href');
    expect(invoiceHref).toMatch(/^\/app\/invoices\/show\/\d+$/);
    const accountHref = await row.getByRole('link', { name: DEMO }).getAttribute('href');
    const accountId = /^\/admin\/accounts\/show\/(\d+)$/.exec(accountHref ?? '')?.[1];
    expect(accountId).toBeDefined();
    await page.screenshot({ path: 'test-results/admin-payments-open-invoices.png', fullPage: true });

    // The overdue filter narrows the list (the demo invoices may or may not be that old).
    await page.getByLabel('Overdue').selectOption('30');
    await page.waitForURL((u) => u.searchParams.get('overdue') === '30');
    await table.or(page.getByText('No open invoices are more than 30 days old.')).first().waitFor();
    await page.getByLabel('Overdue').selectOption('');
    await page.waitForURL((u) => !u.searchParams.has('overdue'));

    // Pay for the account: the billing screen for that account.
    await demoRows.first().getByRole('link', { name: 'Pay for this account' }).click();
    await page.waitForURL((u) => u.pathname === '/app/payments' && u.searchParams.get('account_id') === accountId);
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Unpaid invoices' }).waitFor();
    expect(staff.errors).toEqual([]);
  });
});
