import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDate, nextForm990Deadline } from '../../src/shared/rules/compliance-calendar.ts';
import { newAccountHolder } from './support/accounts.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';

/**
 * Admin → Revocation risk (docs/irs-standing.md). The demo seed's GEN 5271
 * subordinates are listed by their standing in the April 2026 BMF (many missed returns); the
 * filing is recorded
 * through the page's "Record a filing for any account" form for a new holder, whose calendar then
 * shows it. The per-row form posts to the same API (tests/integration/compliance-risk.test.ts).
 */

let admin: Session;
let holder: Session;
beforeAll(async () => {
  [admin, holder] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([admin?.close(), holder?.close()]);
});

describe('/admin/compliance', () => {
  it('shows the risk list, records a filing for an account, and the holder sees it filed on the calendar', async () => {
    const today = calendarDate(new Date());
    // A fiscal year that is over but whose return is not due yet: its tax year can be filed today.
    const fye = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].find(
      (m) => nextForm990Deadline(m, today).fiscalYearEnd < today,
    )!;
    const next = nextForm990Deadline(fye, today);
    const { accountId } = await newAccountHolder(holder.page, {
      email: 'compliance.holder@example.com',
      name: 'Laramie Choir Boosters',
      answers: { account___fiscal_year_end: String(fye) },
    });

    const page = admin.page;
    await signIn(page, 'admin');
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Revocation risk' }).click();
    await page.waitForURL('**/admin/compliance');
    await page.getByRole('heading', { name: 'Revocation risk' }).waitFor();
    // The demo seed's GEN 5271 subordinates carry their IRS standing: many have missed returns.
    const risk = page.getByRole('table', { name: 'Accounts at revocation risk' });
    await risk.waitFor();
    expect(await risk.getByRole('row').nth(1).innerText()).toMatch(
      /GEN 5271[\s\S]*(Revoked|Past its revocation date|Two years missed|One year missed)/i,
    );
    await page.screenshot({ path: 'test-results/admin-compliance.png', fullPage: true });

    const form = page.getByRole('form', { name: 'Record a filing' });
    // A tax year whose fiscal year has not ended yet is refused with the server's message.
    await form.getByLabel('Account number').fill(String(accountId));
    await form.getByLabel('Form').selectOption('990-EZ');
    await form.getByLabel('Tax year').fill(String(next.taxYear + 1));
    await form.getByLabel('Filed on').fill(today);
    await form.getByRole('button', { name: 'Record filing' }).click();
    await form
      .getByText(
        /The (filed on date must be after the fiscal year ended|tax year must not be after the year it was filed in)/,
      )
      .waitFor();

    await form.getByLabel('Tax year').fill(String(next.taxYear));
    await form.getByRole('button', { name: 'Record filing' }).click();
    await page.getByText(`The filing for tax year ${next.taxYear} was recorded.`).waitFor();
    await page.screenshot({ path: 'test-results/admin-compliance-recorded.png', fullPage: true });

    // The same year again: refused.
    await form.getByLabel('Account number').fill(String(accountId));
    await form.getByLabel('Tax year').fill(String(next.taxYear));
    await form.getByRole('button', { name: 'Record filing' }).click();
    await form.getByText(`A filing for tax year ${next.taxYear} is already recorded.`).waitFor();

    await holder.page.goto('/account');
    const calendar = holder.page.getByRole('region', { name: 'Compliance calendar' });
    await calendar.getByTestId('recorded-filings').waitFor();
    expect(await calendar.getByTestId('recorded-filings').innerText()).toMatch(
      new RegExp(`^Filed for ${next.taxYear} on .+ \\(Form 990-EZ\\)$`),
    );
    const form990 = calendar.getByRole('listitem').filter({ hasText: 'Form 990-N, 990-EZ or 990' });
    expect(await form990.getByText('Filed', { exact: true }).count()).toBe(1);
    await calendar.screenshot({ path: 'test-results/compliance-calendar-filed.png' });

    expect(admin.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    expect(holder.errors).toEqual([]);
  });
});
