import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccountHolder } from './support/accounts.ts';
import { collectAxe } from './support/axe.ts';
import { forgetSession, openBrowser, screenshotBothWidths, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * The group's home, /app (docs/app-home.md): an account holder signs in, lands on it, sees where
 * the group stands, what is due, what is unpaid, what is in progress, its documents and users, and
 * goes to pay; staff open the account's home from the staff page, see that they act on its behalf
 * on every account page, and stop acting.
 */

let holder: Session;
let staff: Session;
beforeAll(async () => {
  [holder, staff] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([holder?.close(), staff?.close()]);
});

const NAME = 'Laramie Lacrosse Boosters';
const HOLDER = { email: 'app.home.holder@example.com', password: 'Holder#Home-2026' };

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describe('the group’s home', () => {
  let accountId = 0;

  it('an account holder signs in, lands on /app, sees every section and goes to pay the open invoice', async () => {
    ({ accountId } = await newAccountHolder(holder.page, { ...HOLDER, name: NAME }));
    const { page } = holder;
    await forgetSession(page);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(HOLDER.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(HOLDER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/app');
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();

    await region(page, 'Standing with the IRS').getByText('Not yet on the IRS list').waitFor();
    // The next deadline is shown once, first; the later ones below it.
    const due = region(page, 'What is due');
    await due.getByText('Next deadline').waitFor();
    expect(await due.getByText(/^Form 990-N, 990-EZ or 990 for the fiscal year ending/).count()).toBe(1);
    expect(await due.getByText(/ renewal$/).count()).toBe(1);
    const invoices = region(page, 'Invoices to pay');
    expect(await invoices.getByRole('listitem').count()).toBe(1);
    const invoiceNumber = /^Invoice (GS-\d+)/.exec(await invoices.getByRole('listitem').first().innerText())?.[1];
    expect(invoiceNumber).toBeTruthy();
    const pay = invoices.getByRole('link', { name: /^Pay \$\d{1,3}(,\d{3})*\.\d{2}$/ });
    const amount = (await pay.innerText()).replace('Pay ', '');
    expect(await invoices.getByRole('listitem').first().innerText()).toContain(amount);
    // The submitted application is no longer in progress: the section says what to do next.
    expect(await region(page, 'Applications in progress').innerText()).toContain(
      'No application in progress — start one from Pricing.',
    );
    const documents = region(page, 'Documents');
    // The application's bylaws step wrote the group's bylaws (docs/wizard.md "The bylaws step").
    expect(await documents.getByRole('link', { name: 'Download (.docx)' }).getAttribute('href')).toMatch(
      /^\/bylaws-generator\/download\//,
    );
    await documents
      .getByText('A good-standing letter can be downloaded here once the IRS data shows the group in good standing.')
      .waitFor();
    expect(await region(page, 'Users').innerText()).toContain(HOLDER.email);
    // The header leads back here from anywhere.
    expect(await page.getByRole('banner').getByRole('link', { name: 'Your group' }).getAttribute('href')).toBe('/app');
    expect(await page.getByRole('complementary', { name: 'Acting on behalf of an account' }).count()).toBe(0);
    await screenshotBothWidths(page, 'home', 'app-home-holder');

    await pay.click();
    await page.waitForURL((u) => u.pathname === '/app/payments');
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    // The billing screen lists the same invoice, ready to be paid.
    await page.getByText(invoiceNumber!).first().waitFor();
    expect(holder.errors).toEqual([]);
  });

  it('staff open the account’s home, see the acting-on-behalf banner on each account page, and stop acting', async () => {
    const { page } = staff;
    await signIn(page, 'admin');
    // Staff keep landing on the admin console.
    expect(new URL(page.url()).pathname).toBe('/admin');
    await page.goto(`/admin/accounts/show/${accountId}`);
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    await region(page, 'Summary').getByRole('link', { name: 'Open the group’s home' }).click();
    await page.waitForURL((u) => u.pathname === '/app' && u.searchParams.get('account_id') === String(accountId));
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    const banner = page.getByRole('complementary', { name: 'Acting on behalf of an account' });
    await banner.getByText(`You are acting on behalf of ${NAME}.`).waitFor();
    await region(page, 'Invoices to pay').getByRole('listitem').first().waitFor();
    expect(await region(page, 'Invoices to pay').getByRole('link', { name: /^Pay / }).getAttribute('href')).toBe(
      `/app/payments?account_id=${accountId}`,
    );
    await screenshotBothWidths(page, 'home', 'app-home-staff');
    // The bar passes the same accessibility checks as every page (contrast, landmarks).
    const findings: string[] = [];
    await collectAxe(page, '/app acting on behalf', findings);
    expect(findings).toEqual([]);

    // The banner stays on the next account page, which keeps the account.
    await region(page, 'Users').getByRole('link', { name: 'Manage users' }).click();
    await page.waitForURL(
      (u) => u.pathname === '/app/account/users' && u.searchParams.get('account_id') === String(accountId),
    );
    await banner.getByText(`You are acting on behalf of ${NAME}.`).waitFor();
    await screenshotBothWidths(page, 'home', 'app-users-staff');

    await banner.getByRole('button', { name: 'Stop acting' }).click();
    await page.waitForURL(
      (u) => u.pathname === `/admin/accounts/show/${accountId}` && !u.searchParams.has('account_id'),
    );
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    expect(await banner.count()).toBe(0);

    // Looking at the group's home on its behalf is in the account's audit log.
    await page.goto(`/admin/audit?account_id=${accountId}`);
    await page.getByRole('table', { name: 'Audit log' }).getByText('home.viewed_on_behalf').first().waitFor();
    expect(staff.errors).toEqual([]);
  });
});
