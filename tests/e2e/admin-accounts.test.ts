import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccountHolder } from './support/accounts.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * The admin's accounts (docs/requirements/screens.md /admin/accounts/show/{id}, docs/requirements/permissions.md): an admin finds a holder's
 * account, renews it on its behalf from the account page (the server sends admins back to it),
 * sees the new invoice, manages its users, and finds the on-behalf renewal in the audit log.
 */

let holder: Session;
let staff: Session;
beforeAll(async () => {
  [holder, staff] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([holder?.close(), staff?.close()]);
});

const NAME = 'Rawlins Rodeo Boosters';
const HOLDER = { email: 'admin.accounts.holder@example.com', password: 'Holder#Accounts-2026' };
const ADDED = { email: 'admin.added.user@example.com' };

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** Waits until the notifications are gone, for a clean screenshot. */
const quiet = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), null, { timeout: 15_000 });

describe('admin accounts (docs/requirements/product.md "Staff console")', () => {
  it('an admin finds an account, renews it on its behalf, sees the new invoice and invites a user to it', async () => {
    const { accountId } = await newAccountHolder(holder.page, { ...HOLDER, name: NAME });
    const { page } = staff;
    await signIn(page, 'admin');

    // The admin home and navigation lead to the accounts list first.
    await page.goto('/admin');
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').first().innerText()).toBe(
      'Accounts',
    );
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Accounts' }).click();
    await page.waitForURL('**/admin/accounts');
    await page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    await page.getByRole('table', { name: 'Accounts' }).waitFor();

    // Search by the account's name.
    await page.getByRole('textbox', { name: 'Search' }).fill('rodeo rawlins');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('search') === 'rodeo rawlins');
    const link = page.getByRole('table', { name: 'Accounts' }).getByRole('link', { name: NAME });
    await page.getByText('1 account', { exact: true }).waitFor();
    const rows = page.getByRole('table', { name: 'Accounts' }).locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('Start-up');
    // The filters narrow it: due in 30 days it is not (a new account is due in a year).
    // Each filter waits for the address to show it, as a person waits for the list to change.
    await page.getByLabel('Renewal due').selectOption('30');
    await page.waitForURL((u) => u.searchParams.get('renewal_due') === '30');
    await page.getByText('No accounts match.').waitFor();
    await page.getByLabel('Renewal due').selectOption('');
    await page.waitForURL((u) => !u.searchParams.has('renewal_due'));
    await link.waitFor();
    await page.getByLabel('Status').selectOption('active');
    await page.waitForURL(
      (u) => u.searchParams.get('status') === 'active' && u.searchParams.get('search') === 'rodeo rawlins',
    );
    await page.getByText('1 account', { exact: true }).waitFor();
    await link.waitFor();
    await page.screenshot({ path: 'test-results/admin-accounts-list.png', fullPage: true });
    // A column title sorts, kept in the address; Export CSV downloads the filtered accounts.
    const table = page.getByRole('table', { name: 'Accounts' });
    await table.getByRole('button', { name: /^EIN/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'ein' && u.searchParams.get('status') === 'active');
    await table.locator('th[aria-sort="ascending"]').filter({ hasText: 'EIN' }).waitFor();
    const exportLink = page
      .getByRole('link', { name: 'Export CSV' })
      .and(page.locator('[href="/api/admin/accounts/export.csv?search=rodeo+rawlins&status=active&sort=ein"]'));
    const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
    const csv = fs
      .readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('Name,EIN,City,State,Level,Renewal due,Status,Primary user,Users,Account id');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`${NAME},`);

    await link.click();
    await page.waitForURL(`**/admin/accounts/show/${accountId}`);
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    const invoices = page.getByRole('table', { name: 'Invoices' });
    await invoices.waitFor();
    expect(await invoices.locator('tbody tr').count()).toBe(1);
    const users = page.getByRole('table', { name: 'Users' });
    expect(await users.innerText()).toContain(HOLDER.email);
    await region(page, 'Compliance calendar').waitFor();
    expect(await region(page, 'Invoices').getByRole('link', { name: 'Pay invoices' }).getAttribute('href')).toBe(
      `/app/payments?account_id=${accountId}`,
    );
    expect(await region(page, 'Payments').getByRole('link', { name: 'All payments' }).getAttribute('href')).toBe(
      `/admin/payments/latest/${accountId}`,
    );

    // Renew on its behalf, without the upgrade: staff may do so before the holder's renewal opens.
    const renewal = region(page, 'Renewal');
    const upgrade = renewal.getByRole('checkbox', { name: /^Upgrade to / });
    await upgrade.waitFor();
    await renewal
      .getByText(/^The account holder can renew from \d\d\/\d\d\/\d{4}\. As staff, you can renew it now\.$/)
      .waitFor();
    expect(await upgrade.isChecked()).toBe(false);
    await page.screenshot({ path: 'test-results/admin-account-show.png', fullPage: true });
    await upgrade.uncheck();
    expect(await renewal.getByTestId('renewal-order-total').innerText()).toBe('$645.00');
    await renewal.getByRole('button', { name: 'Renew now' }).click();
    // Back on this very page, with the renewal invoice listed and the form replaced by its notice.
    await renewal.getByText(/^Your renewal invoice GS-\d+ is waiting for payment\./).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/accounts/show/${accountId}`);
    await invoices.locator('tbody tr').nth(1).waitFor();
    expect(await invoices.locator('tbody tr').count()).toBe(2);
    expect(await invoices.locator('tbody tr').first().innerText()).toContain('$645.00');
    expect(await renewal.getByRole('link', { name: /payments page/ }).getAttribute('href')).toBe(
      `/app/payments?account_id=${accountId}`,
    );
    await page.screenshot({ path: 'test-results/admin-account-renewed.png', fullPage: true });

    // The renewal is in the audit log as done on the account's behalf.
    await region(page, 'Summary').getByRole('link', { name: 'This account’s audit log' }).click();
    await page.waitForURL(
      (u) => u.pathname === '/admin/audit' && u.searchParams.get('account_id') === String(accountId),
    );
    await page.getByRole('table', { name: 'Audit log' }).getByText('renewal.submitted_on_behalf').waitFor();
    await page.goBack();
    await page.waitForURL(`**/admin/accounts/show/${accountId}`);

    // Manage its users: add one.
    await region(page, 'Users').getByRole('link', { name: 'Manage users' }).click();
    await page.waitForURL(
      (u) => u.pathname === '/app/account/users' && u.searchParams.get('account_id') === String(accountId),
    );
    await page.getByText(`People who can sign in for ${NAME}.`).waitFor();
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByRole('textbox', { name: 'E-mail' }).fill(ADDED.email);
    await form.getByLabel('First name').fill('Robin');
    await form.getByLabel('Last name').fill('Added');
    // Staff type no password for anyone: the new user is invited to choose their own.
    expect(await form.getByRole('textbox', { name: 'Password', exact: true }).count()).toBe(0);
    await form.getByRole('button', { name: 'Add user and send invitation' }).click();
    await page
      .getByRole('table', { name: 'Users' })
      .getByRole('row')
      .filter({ hasText: ADDED.email })
      .getByText('Invited')
      .waitFor();

    // The account page lists the new user.
    await page.goto(`/admin/accounts/show/${accountId}`);
    await page.getByRole('table', { name: 'Users' }).getByText(ADDED.email).waitFor();
    await quiet(page);
    expect(staff.errors).toEqual([]);
    expect(holder.errors).toEqual([]);
  });

  it('an account holder gets the 403 screen on the admin account pages', async () => {
    const { page } = holder;
    await page.goto('/admin/accounts');
    await page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('table', { name: 'Accounts' }).count()).toBe(0);
  });
});
