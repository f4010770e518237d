import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveImportedAccountAUser, acceptInvitation } from './support/accounts.ts';
import { axeFindings } from './support/axe.ts';
import { openBrowser, screenshotBothWidths, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * Form 8868 extensions (docs/irs-standing.md "Extensions"). The e2e server holds GEN 5271's
 * subordinates from the shipped April 2026 BMF extract; BTW Cheer Booster Club (82-4433738, which
 * no other browser test uses) has a June year end, its latest return for June 2024 and owes a Form
 * 990 or 990-EZ: its June 2025 return, due 17 November 2025, is missed unless extended (to 15 May
 * 2026, after the release). Staff add a user to it; the user records the extension on /account
 * through the form found by its labels, and the standing changes; the public profile shows the
 * standing but no record action; staff remove the extension after confirming.
 */

const EIN = '824433738';
const GROUP_USER = { email: 'btw.treasurer@example.com', password: 'Btw-Treasurer-2026' };

let group: Session;
let staff: Session;
beforeAll(async () => {
  [group, staff] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([group?.close(), staff?.close()]);
});

/** The requests a page sees refused from now on, as 'status path'. */
function refusedRequests(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  return refused;
}

describe('recording a Form 8868 extension', () => {
  it('a group user records one through the form and sees the standing change; staff remove it', async () => {
    const refused = { group: refusedRequests(group.page), staff: refusedRequests(staff.page) };
    await signIn(staff.page, 'admin');
    // The group's account (imported from the IRS data), and a user for it, added by staff.
    const accountId = await giveImportedAccountAUser(staff.page, {
      keyword: 'btw cheer booster',
      name: 'BTW CHEER BOOSTER CLUB INC',
      ein: EIN,
      email: GROUP_USER.email,
      firstName: 'Tess',
      lastName: 'Treasurer',
    });

    const { page } = group;
    await acceptInvitation(staff.page, page, GROUP_USER.email, GROUP_USER.password);

    await page.goto('/account');
    const standing = page.getByRole('region', { name: 'Standing with the IRS' });
    // The badge, and the alert that says why.
    await standing
      .locator('[data-standing="unless_extended"]')
      .getByText('Due date passed: missed unless extended')
      .waitFor();
    await standing
      .getByText(/if the extension was filed by the due date, the return is due then \(record it below\)/)
      .waitFor();
    const extensions = standing.getByRole('region', { name: 'Form 8868 extensions' });
    await extensions.getByText('No Form 8868 extension is recorded.', { exact: false }).waitFor();

    await standing.screenshot({ path: 'test-results/screens/extensions/standing-unless-extended.png' });
    await extensions.getByRole('button', { name: 'Record a Form 8868 extension' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record a Form 8868 extension' });
    const form = dialog.getByRole('form', { name: 'Record a Form 8868 extension' });
    await form.waitFor();
    // The period missed unless extended is chosen, and its extended due date filled in.
    expect(await form.getByLabel('Return period').inputValue()).toBe('2025-06');
    expect(await form.getByLabel('Extended due date').inputValue()).toBe('2026-05-15');
    await form.getByLabel('Return extended').selectOption('990-EZ');
    // Filed after the due date: refused at the field, with the date.
    await form.getByLabel('Date Form 8868 was filed').fill('2025-11-20');
    await form.getByRole('button', { name: 'Record extension' }).click();
    await form
      .getByText(
        "Form 8868 must be filed by the return's due date: November 17, 2025 for the period ending June 2025. One filed later does not extend it.",
      )
      .waitFor();
    await form.getByLabel('Date Form 8868 was filed').fill('2025-11-10');
    await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
    await screenshotBothWidths(page, 'extensions', 'record-form');
    await dialog.screenshot({ path: 'test-results/screens/extensions/record-dialog.png' });
    await page.setViewportSize({ width: 375, height: 800 });
    await dialog.screenshot({ path: 'test-results/screens/extensions/record-dialog-375.png' });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await axeFindings(page)).toEqual([]);
    await form.getByRole('button', { name: 'Record extension' }).click();
    await page
      .getByText(
        'The Form 8868 extension was recorded: the return for the period ending June 2025 is due May 15, 2026.',
      )
      .waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The standing now counts the extended due date: nothing is missed, the return is awaited.
    await standing.locator('[data-standing="good"]').getByText('In good standing').waitFor();
    await standing.getByText(/due May 15, 2026 with the extension recorded/).waitFor();
    const row = extensions.getByRole('table', { name: 'Form 8868 extensions' }).getByRole('row').nth(1);
    expect((await row.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'Period ending June 2025 Form 990-EZ November 10, 2025 May 15, 2026 Tess Treasurer',
    );
    expect(await extensions.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), null, { timeout: 15_000 });
    await screenshotBothWidths(page, 'extensions', 'account-recorded');
    await standing.screenshot({ path: 'test-results/screens/extensions/standing-recorded.png' });
    expect(await axeFindings(page)).toEqual([]);

    // The public profile shows the standing, never the record action or the list.
    await page.goto(`/app/account/show/${accountId}`);
    await page.locator('[data-standing="good"]').first().waitFor();
    expect(await page.getByRole('button', { name: 'Record a Form 8868 extension' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Form 8868 extensions' }).count()).toBe(0);

    // Staff see who recorded it and remove it after confirming: the standing is as before.
    const sp = staff.page;
    await sp.goto(`/admin/accounts/show/${accountId}`);
    const staffCard = sp.getByRole('region', { name: 'Standing with the IRS' });
    const staffList = staffCard.getByRole('region', { name: 'Form 8868 extensions' });
    await staffList.getByRole('table', { name: 'Form 8868 extensions' }).getByText('Tess Treasurer').waitFor();
    await screenshotBothWidths(sp, 'extensions', 'staff-account');
    await staffCard.screenshot({ path: 'test-results/screens/extensions/staff-standing.png' });
    await staffList.getByRole('button', { name: 'Remove the extension for the period ending June 2025' }).click();
    const confirm = sp.getByRole('dialog', { name: 'Remove this Form 8868 extension?' });
    await confirm
      .getByText(/count the original due date of the return for the period ending June 2025 again/)
      .waitFor();
    await confirm.getByRole('button', { name: 'Remove extension' }).click();
    await sp.getByText('The Form 8868 extension for the period ending June 2025 was removed.').waitFor();
    await staffList.getByText('No Form 8868 extension is recorded.', { exact: false }).waitFor();
    await staffCard.locator('[data-standing="unless_extended"]').first().waitFor();

    // The refused date never reached the server. The one refusal the pages met is the renewal
    // card's: an account imported from the IRS data has no level to renew.
    for (const [who, session] of [
      ['group', group],
      ['staff', staff],
    ] as const) {
      expect(new Set(refused[who]), who).toEqual(new Set(['404 /api/account/renewal']));
      expect(session.errors, who).toEqual(
        refused[who].map(() => 'Failed to load resource: the server responded with a status of 404 (Not Found)'),
      );
    }
  });
});
