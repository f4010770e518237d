import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDate, fiscalYearEnd } from '../../src/shared/rules/compliance-calendar.ts';
import { newAccountHolder } from './support/accounts.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';

/**
 * The yearly supervision report and Form 990-N preparation (docs/supervision.md), filled by its
 * labels as an officer would: the gross receipts test refuses an average above $50,000 with the
 * message pointing to Form 990-EZ or 990, then the corrected report is saved and its e-Postcard
 * summary copied with the Copy button. Staff then open Admin → Supervision.
 */

let holder: Session;
let admin: Session;
beforeAll(async () => {
  [holder, admin] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([holder?.close(), admin?.close()]);
});

describe('/app/supervision', () => {
  it('fills the form by its labels, fails and then passes the gross receipts test, and copies the summary', async () => {
    const today = calendarDate(new Date());
    const year = Number(today.slice(0, 4));
    const taxYear = fiscalYearEnd(12, year) < today ? year : year - 1;
    await newAccountHolder(holder.page, {
      email: 'supervision.holder@example.com',
      name: 'Tulsa Robotics Boosters',
      answers: { account___fiscal_year_end: '12' },
    });
    const page = holder.page;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/account');
    await page.getByRole('link', { name: 'Yearly supervision report and Form 990-N' }).click();
    await page.waitForURL('**/app/supervision');
    await page.getByRole('heading', { name: 'Yearly supervision report and Form 990-N' }).waitFor();
    await page.getByText('Not yet seen in the IRS 990-N data').waitFor();

    const form = page.getByRole('form', { name: `Supervision report for tax year ${taxYear}` });
    await form.getByRole('textbox', { name: 'EIN' }).fill('73-1234567');
    expect(await form.getByLabel('Fiscal year ends in').inputValue()).toBe('12');
    await form.getByLabel('Mailing address line 1').fill('500 Main St');
    await form.getByLabel('Mailing city').fill('Tulsa');
    await form.getByLabel('Mailing state').selectOption('OK');
    await form.getByLabel('Mailing ZIP code').fill('74103');
    await form.getByLabel('Other name 1').fill('Tulsa Robotics');
    await form.getByLabel('Principal officer name').fill('Maria Lopez');
    await form.getByLabel('Principal officer address line 1').fill('22 Elm St');
    await form.getByLabel('Principal officer city').fill('Tulsa');
    await form.getByLabel('Principal officer state').selectOption('OK');
    await form.getByLabel('Principal officer ZIP code').fill('74104');
    await form.getByLabel('Website').fill('www.tulsarobotics.org');
    await form.getByLabel('First tax year of the organization').fill(String(taxYear - 5));
    await form.getByLabel(`Gross receipts for tax year ${taxYear} (dollars)`).fill('90,000');
    await form.getByLabel(`Gross receipts for tax year ${taxYear - 1} (dollars)`).fill('60000');
    await form.getByLabel(`Gross receipts for tax year ${taxYear - 2} (dollars)`).fill('45000');
    await form
      .getByRole('alert')
      .or(form.getByRole('status'))
      .filter({ hasText: 'Not eligible for the e-Postcard (Form 990-N)' })
      .waitFor();
    await form.getByLabel('Officers and directors').fill('Maria Lopez, President\nSam Lee, Treasurer');
    await form.getByLabel(`Total expenses for tax year ${taxYear} (dollars)`).fill('38250.75');
    await form.getByLabel('Activities during the year').fill('Robot competitions and a summer camp.');
    await form
      .getByLabel(
        'We confirm the organization operated during the year for the purposes of the uniform purpose statement.',
      )
      .check();
    await form.getByRole('button', { name: 'Save report' }).click();
    await form
      .getByText(
        `The average of tax years ${taxYear - 2} to ${taxYear} ($65,000) is more than $50,000, so gross receipts are not normally $50,000 or less. It may not file the e-Postcard (Form 990-N): it files Form 990-EZ or Form 990 for this year instead.`,
        { exact: true },
      )
      .first()
      .waitFor();
    await page.screenshot({ path: 'test-results/supervision-receipts-refused.png', fullPage: true });

    await form.getByLabel(`Gross receipts for tax year ${taxYear} (dollars)`).fill('42000');
    await form.getByText('Gross receipts are normally $50,000 or less', { exact: true }).waitFor();
    await form.getByRole('button', { name: 'Save report' }).click();
    await page.getByText(`The supervision report for tax year ${taxYear} was saved.`).waitFor();
    const summary = page.getByLabel('e-Postcard summary', { exact: true });
    await summary.waitFor();
    const text = await summary.innerText();
    expect(text).toContain('1. EIN: 73-1234567');
    expect(text).toContain('   Mailing address: 500 Main St, Tulsa, OK 74103');
    expect(text).toContain('5. Principal officer: Maria Lopez');
    expect(text).toContain('7. Gross receipts normally $50,000 or less: Yes');
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    await page.screenshot({ path: 'test-results/supervision-saved.png', fullPage: true });
    expect(holder.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});

describe('/admin/supervision', () => {
  it("shows each member group's status for a GEN and the compliance education notice", async () => {
    const page = admin.page;
    await signIn(page, 'admin');
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Supervision' }).click();
    await page.waitForURL('**/admin/supervision');
    await page.getByRole('heading', { name: 'Supervision', exact: true }).waitFor();
    await page.getByRole('heading', { name: /^Compliance education \d{4}$/ }).waitFor();
    await page.getByRole('table', { name: /^Supervision status for tax year \d{4}$/ }).waitFor();
    await page.screenshot({ path: 'test-results/admin-supervision.png', fullPage: true });
    await page.getByLabel('Status', { exact: true }).selectOption('submitted');
    await page
      .getByText('No member groups match.')
      .or(page.getByRole('table', { name: /^Supervision status/ }))
      .first()
      .waitFor();
    await page.screenshot({ path: 'test-results/admin-supervision-submitted.png', fullPage: true });
    expect(admin.errors).toEqual([]);
  });
});
