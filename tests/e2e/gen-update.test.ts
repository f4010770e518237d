import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDate, longDate } from '../../src/shared/rules/compliance-calendar.ts';
import { currentGenPeriodEnd, genUpdateWindow } from '../../src/shared/rules/gen-update.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';

/**
 * Admin → Annual GEN update (docs/irs-gen-duties.md) on the demo seed's GEN 5271
 * (806 subordinates): staff fill in the GEN settings (a bad EIN first), see the current period's
 * window, checks and lines, and record the submission after confirming it. Fields are found by
 * their visible labels.
 */

let admin: Session;
beforeAll(async () => {
  admin = await openBrowser();
});
afterAll(async () => {
  await admin?.close();
});

describe('/admin/gen-update', () => {
  it('saves the GEN settings, builds the current update and records its submission once', async () => {
    const page = admin.page;
    const today = calendarDate(new Date());
    const periodEnd = currentGenPeriodEnd(12, today);
    const window = genUpdateWindow(periodEnd);

    await signIn(page, 'admin');
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Annual GEN update' }).click();
    await page.waitForURL('**/admin/gen-update');
    await page.getByRole('heading', { name: 'Annual GEN update' }).waitFor();
    await page.getByRole('heading', { name: 'Transition checklist: January 22, 2027' }).waitFor();
    await page.getByText('Choose the month the accounting period ends in the GEN settings').waitFor();

    const settings = page.getByRole('form', { name: 'GEN settings' });
    await settings.getByLabel('Central organization name').fill('Parent Booster USA Inc');
    await settings.getByLabel('Central organization EIN').fill('33-218');
    await settings.getByLabel('Accounting period ends in').selectOption('12');
    await settings.getByLabel('501(c) paragraph').selectOption('03');
    await settings
      .getByLabel('Uniform purpose statement')
      .fill('To support the students and activities of a school, exclusively for charitable and educational purposes.');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('The central organization EIN must be 9 digits, e.g. 12-3456789.').waitFor();
    await settings.getByLabel('Central organization EIN').fill('33-2182308');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The settings of GEN 5271 were saved.').waitFor();

    await page.getByRole('heading', { name: `Update for the period ending ${longDate(periodEnd)}` }).waitFor();
    await page.getByText(`Submit between ${longDate(window.opensOn)} and ${longDate(window.closesOn)}`).waitFor();
    const checks = page.getByRole('list', { name: 'Checks' });
    await checks.getByText('806 subordinates are on the roster of GEN 5271.').waitFor();
    await checks.getByText('Every subordinate is described in 501(c)(3).').waitFor();
    const lines = page.getByRole('table', { name: 'Lines of the update' });
    expect(await lines.getByRole('row').count()).toBe(26); // the header and 25 lines
    await page.getByText('Lines 1–25 of 806').waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Lines 26–50 of 806').waitFor();
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toMatch(
      new RegExp(`^/api/admin/gen-update/export\\.csv\\?group_id=\\d+&period_end=${periodEnd}$`),
    );
    const checklist = page.getByRole('list', { name: 'Transition checklist' });
    await checklist.getByText('All settings are filled in.').waitFor();
    await page.screenshot({ path: 'test-results/admin-gen-update.png', fullPage: true });
    await page
      .getByRole('region', { name: 'Transition checklist: January 22, 2027' })
      .screenshot({ path: 'test-results/admin-gen-update-checklist.png' });
    await page
      .getByRole('region', { name: `Update for the period ending ${longDate(periodEnd)}` })
      .screenshot({ path: 'test-results/admin-gen-update-period.png' });

    const record = page.getByRole('form', { name: 'Record the submission' });
    await record.getByLabel('Date submitted to the IRS').fill(today);
    await record.getByRole('button', { name: 'Record submission' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record the submission' });
    await dialog.getByText(`was submitted to the IRS on ${longDate(today)}?`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Record submission' }).click();
    await page
      .getByText(
        `The annual update for the period ending ${longDate(periodEnd)} was recorded as submitted on ${longDate(today)}, with 806 lines.`,
        { exact: false },
      )
      .first()
      .waitFor();
    await page.getByText('Submission recorded').waitFor();
    await checklist
      .getByText(`The update for the period ending ${longDate(periodEnd)} was submitted on ${longDate(today)}.`)
      .waitFor();
    expect(await page.getByRole('form', { name: 'Record the submission' }).count()).toBe(0);
    await page.screenshot({ path: 'test-results/admin-gen-update-submitted.png', fullPage: true });

    expect(admin.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});
