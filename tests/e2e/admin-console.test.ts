import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * Admin console (docs/requirements/product.md "Staff console") in Chromium: a 20 % service-fee code with a use limit, a level's
 * early-bird price shown on /pricing, the state requirements table, and the audit log with both
 * changes. Screenshots go to test-results/.
 */

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
  await signIn(s.page, 'admin');
});
afterAll(async () => {
  await s.close();
});

const code = `FEES20${Date.now().toString(36).toUpperCase()}`;

/** Sends a state-registration question through /contact as `name`, then opens the staff inbox; @returns its table. */
async function inquiryInInbox(page: Page, name: string, email: string) {
  await page.goto('/contact');
  await page.getByRole('textbox', { name: /^Name/ }).fill(name);
  await page.getByRole('textbox', { name: /^E-mail/ }).fill(email);
  await page.getByRole('combobox', { name: /^Subject/ }).selectOption('State registration');
  await page.getByRole('textbox', { name: /^Message/ }).fill('Do we register in Oregon?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await page.getByRole('dialog').getByText('Success!').waitFor();
  await page.goto('/admin/inquiries');
  const inbox = page.getByRole('table', { name: 'Inquiries' });
  await inbox.waitFor();
  return inbox;
}

describe('admin console', () => {
  it('creates a 20 % service-fee code with a use limit and sees it listed', async () => {
    const { page } = s;
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Discount codes' }).click();
    await page.getByRole('heading', { name: 'Discount codes', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Discount code' });

    // Nothing chosen yet: the shared schema's messages show before anything is sent.
    await form.getByRole('button', { name: 'Create code' }).click();
    await form.getByText('The code field is required.').waitFor();

    await form.getByRole('textbox', { name: 'Code' }).fill(code.toLowerCase());
    await form.getByLabel('Description').fill('20 % off service fees (e2e)');
    await form.getByRole('radio', { name: 'Percentage' }).check();
    await form.getByLabel('Percentage off (0–100)').fill('20');
    await form.getByRole('button', { name: 'Create code' }).click();
    await form.getByText('Choose at least one kind of charge the code applies to.').waitFor();
    await form.getByRole('checkbox', { name: 'Service fees' }).check();
    await form.getByLabel('Use limit').fill('3');
    await form.getByRole('button', { name: 'Create code' }).click();

    const row = page.getByRole('table', { name: 'Discount codes' }).getByRole('row').filter({ hasText: code });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain('20%');
    expect(text.toLowerCase()).toContain('service fees');
    expect(text).toContain('used 0 of 3');
    expect(text.toLowerCase()).toContain('active');
    await page.screenshot({ path: 'test-results/admin-discounts.png', fullPage: true });

    // Editing fills the form with the stored values.
    await row.getByRole('button', { name: `Edit ${code}` }).click();
    await expect(form.getByLabel('Percentage off (0–100)').inputValue()).resolves.toBe('20');
    await page.screenshot({ path: 'test-results/admin-discounts-edit.png', fullPage: true });
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it("edits a level's early-bird price and /pricing shows it", async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Levels and prices' }).click();
    await page.getByRole('heading', { name: 'Levels and prices', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit Greek chapter' }).click();
    const form = page.getByRole('form', { name: 'Level' });
    const earlyBird = form.getByRole('textbox', { name: 'Early-bird price' });
    const before = await earlyBird.inputValue();
    await earlyBird.fill('400');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('The early-bird price must not be greater than the price.').waitFor();
    await earlyBird.fill('239.00');
    await page.screenshot({ path: 'test-results/admin-levels-edit.png', fullPage: true });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'Greek chapter' }).getByText('early-bird $239.00').waitFor();
    await page.screenshot({ path: 'test-results/admin-levels.png', fullPage: true });

    await page.goto('/pricing');
    const card = page.getByRole('article', { name: 'Greek chapter' });
    await card.getByText('$239.00').waitFor();
    expect(await card.innerText()).toContain('Early-bird price: $239.00');

    // Put the seeded price back for the other browser tests.
    await page.goto('/admin/levels');
    await page.getByRole('button', { name: 'Edit Greek chapter' }).click();
    await page.getByRole('form', { name: 'Level' }).getByRole('textbox', { name: 'Early-bird price' }).fill(before);
    await page.getByRole('form', { name: 'Level' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Level' }).waitFor({ state: 'detached' });
  });

  it('shows the state requirements, edits one in its row, and the public page still works', async () => {
    const { page } = s;
    await page.goto('/admin/states');
    const table = page.getByRole('table', { name: 'State requirements' });
    await table.getByRole('row').filter({ hasText: 'Wyoming' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(52);
    await table.getByRole('button', { name: 'Edit Wyoming' }).click();
    const row = table.getByRole('row', { name: 'Edit Wyoming' });
    const maintain = row.getByLabel('Maintain estimate');
    const before = await maintain.inputValue();
    await maintain.fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await row.getByText('The maintain estimate field is required.').waitFor();
    await page.screenshot({ path: 'test-results/admin-states-edit.png', fullPage: false });
    await maintain.fill(before);
    // A filing date needs a label and a day the month has.
    await row.getByLabel('Filing due month').selectOption({ label: 'April' });
    await row.getByLabel('Filing due day').fill('31');
    await row.getByRole('button', { name: 'Save' }).click();
    await row.getByText('The filing due day must be between 1 and 30 for April.').waitFor();
    await row.getByText('The filing label field is required when a filing date is given.').waitFor();
    await row.getByLabel('Filing due day').fill('15');
    await row.getByLabel('Filing label').fill('Annual report');
    await row.getByRole('button', { name: 'Save' }).click();
    await table.getByRole('button', { name: 'Edit Wyoming' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'Wyoming' }).getByText('Annual report, due April 15').waitFor();
    await page.screenshot({ path: 'test-results/admin-states.png', fullPage: false });

    await page.goto('/state-registration');
    await page.getByText('Wyoming').first().waitFor();
  });

  it('opens the audit log and sees both changes', async () => {
    const { page } = s;
    await page.goto('/admin');
    await page
      .getByRole('link', { name: /Audit log/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.getByRole('row').filter({ hasText: 'discount.created' }).filter({ hasText: code }).waitFor();
    await log.getByRole('row').filter({ hasText: 'level.updated' }).first().waitFor();
    const levelRow = await log.getByRole('row').filter({ hasText: 'level.updated' }).first().innerText();
    expect(levelRow).toContain('admin@e2e.test');
    // What changed, in words: the early-bird price from the seeded one to $239.00 and back.
    expect(levelRow).toContain('Changed a level’s prices');
    expect(levelRow).toMatch(/Early-bird price: \$239\.00 → \$\d/);
    await page.screenshot({ path: 'test-results/admin-audit.png', fullPage: true });

    // Sorted by time, oldest first, kept in the address; a second click turns it back.
    await log.getByRole('button', { name: /^Time/ }).click();
    await page.waitForURL(/sort=created_at/);
    await log.locator('th[aria-sort="ascending"]').filter({ hasText: 'Time' }).waitFor();
    await log.getByRole('button', { name: /^Time/ }).click();
    await page.waitForURL((u) => !u.searchParams.has('sort'));
    await log.locator('th[aria-sort="descending"]').filter({ hasText: 'Time' }).waitFor();

    // A search by the actor's e-mail; the export link carries the same filters.
    await page.getByRole('textbox', { name: 'Search' }).fill('admin@e2e');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/search=admin%40e2e/);
    // The export link follows the filters on the page.
    const exportLink = page
      .getByRole('link', { name: 'Export CSV' })
      .and(page.locator('[href="/api/admin/audit/export.csv?search=admin%40e2e"]'));
    await exportLink.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('Time,Actor,Account,What,Action,Changes,Details,IP address');
    expect(csv).toContain(`Created a discount code,discount.created,,"Code: ${code}\nDiscount: `);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.waitForURL((u) => !u.searchParams.has('search'));
    await page.getByRole('button', { name: 'Clear' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe('');

    await page.getByLabel('Action starts with').fill('discount.');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/action=discount\./);
    await log.getByRole('row').filter({ hasText: code }).waitFor();
    await log.getByRole('row').filter({ hasText: 'level.updated' }).first().waitFor({ state: 'detached' });
    expect(await log.getByRole('row').filter({ hasText: 'level.updated' }).count()).toBe(0);
    await page.screenshot({ path: 'test-results/admin-audit-filtered.png', fullPage: false });

    // Sorted by What (the action's code under the words), kept in the address, then the other way
    // round (docs/staff-lists.md "Audit log sorts"); the whole log, which holds many kinds of action.
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.waitForURL((u) => !u.searchParams.has('action'));
    const codes = async () => (await log.locator('tbody code').allInnerTexts()).map((c) => c.trim());
    const ordered = async (desc: boolean) => {
      const c = await codes();
      const want = [...c].sort();
      return c.length > 1 && new Set(c).size > 1 && c.join() === (desc ? want.reverse() : want).join();
    };
    await log.getByRole('button', { name: /^What/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'action');
    await log.locator('th[aria-sort="ascending"]').filter({ hasText: 'What' }).waitFor();
    await expect.poll(() => ordered(false)).toBe(true);
    await log.getByRole('button', { name: /^What/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === '-action');
    await log.locator('th[aria-sort="descending"]').filter({ hasText: 'What' }).waitFor();
    await expect.poll(() => ordered(true)).toBe(true);
    await page.screenshot({ path: 'test-results/admin-audit-sorted.png', fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: 'test-results/admin-audit-sorted-375.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(s.errors).toEqual([]);
  });

  it('searches, filters and sorts the inbox and the outbox, with every choice kept in the address', async () => {
    const { page } = s;
    const sender = `Quinn Sortwell ${Date.now().toString(36)}`;
    const inbox = await inquiryInInbox(page, sender, 'quinn.sortwell@example.com');
    await page.getByRole('textbox', { name: 'Search' }).fill(sender);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('search') === sender);
    // The list shows the previous page until the search is answered: wait for the one match alone.
    await expect.poll(() => inbox.locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining(sender)]);
    await page.getByRole('combobox', { name: 'State' }).selectOption('handled');
    await page.waitForURL((u) => u.searchParams.get('status') === 'handled');
    await page.getByText('No inquiries match.').waitFor();
    // A reload keeps the search and the filter.
    await page.reload();
    await page.getByText('No inquiries match.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe(sender);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.waitForURL((u) => u.search === '');
    await inbox.getByRole('button', { name: /^From/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'name');
    await inbox.locator('th[aria-sort="ascending"]').filter({ hasText: 'From' }).waitFor();

    // The outbox: the staff notice of that inquiry, found by its subject, oldest first on request.
    await page.goto('/admin/outbox');
    const mails = page.getByRole('table', { name: 'Mails' });
    await mails.waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill('quinn.sortwell');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('search') === 'quinn.sortwell');
    await mails.getByRole('row').filter({ hasText: 'quinn.sortwell@example.com' }).first().waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
    await page.waitForURL((u) => u.searchParams.get('status') === 'failed');
    await page.getByText('No mails match.').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('');
    // The list is back when the address has dropped the status and the mail is shown again.
    await page.waitForURL((u) => !u.searchParams.has('status'));
    await mails.getByRole('row').filter({ hasText: 'quinn.sortwell@example.com' }).first().waitFor();
    await mails.getByRole('button', { name: /^Written/ }).click();
    // Polled so that a failure prints the address the page ended on.
    await expect.poll(() => new URL(page.url()).search).toBe('?search=quinn.sortwell&sort=created_at');
    await mails.locator('th[aria-sort="ascending"]').filter({ hasText: 'Written' }).waitFor();
    expect(s.errors).toEqual([]);
  });

  it('keeps a search just sent when the order and a filter are picked before the list has redrawn (a slow computer)', async () => {
    const { page } = s;
    const sender = `Rowan Quickfilter ${Date.now().toString(36)}`;
    const inbox = await inquiryInInbox(page, sender, 'rowan.quickfilter@example.com');
    // A computer ten times slower draws each new address well after the address changes; the
    // person acts on the list still on screen.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 10 });
    const query = () => Object.fromEntries(new URL(page.url()).searchParams);
    try {
      await page.getByRole('textbox', { name: 'Search' }).fill(sender);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await inbox.getByRole('button', { name: /^From/ }).click();
      await page.getByRole('combobox', { name: 'State' }).selectOption('handled');
      await expect.poll(query).toEqual({ search: sender, status: 'handled', sort: 'name' });
      await page.getByText('No inquiries match.').waitFor();
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
    expect(await page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe(sender);
    expect(s.errors).toEqual([]);
  });
});
