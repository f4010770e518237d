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

  it("staff enter a year's late-filing penalty figures, and the instant check states them for a return due that year", async () => {
    const page = admin.page;
    await signIn(page, 'admin');
    // 82-4433738 (GEN 5271, FILING_REQ_CD 01): a Form 990-EZ or 990 filer with a return past its due date.
    const check = async () => {
      await page.goto('/compliance-check');
      await page.getByLabel('EIN or organization name').fill('82-4433738');
      await page.getByRole('button', { name: 'Check', exact: true }).click();
      await page.getByRole('button', { name: /BTW CHEER BOOSTER CLUB/ }).click();
      return page.getByText(/penalised for each day it is late/).first();
    };
    const before = await (await check()).innerText();
    const year = /for a return due in (\d{4})/.exec(before)?.[1];
    expect(year, before).toBeDefined();
    expect(before).toContain(`see the IRS's Instructions for Form 990 for tax year ${Number(year) - 1}`);

    await page.goto('/admin/compliance');
    const card = page.getByRole('heading', { name: 'Late-filing penalty figures' });
    await card.waitFor();
    await page.getByRole('button', { name: "Add a year's figures" }).click();
    const form = page.getByRole('form', { name: 'Late-filing penalty figures' });
    // Sample figures, labelled so: the IRS's own are copied from its instructions.
    await form.getByLabel('Returns due in').fill(year!);
    await form.getByLabel('Penalty a day ($)').fill('30');
    await form.getByLabel('Maximum ($)').fill('20');
    await form.getByLabel('Gross receipts over ($)').fill('1,500,000');
    await form.getByLabel('Penalty a day above it ($)').fill('150');
    await form.getByLabel('Maximum above it ($)').fill('75,000');
    await form.getByLabel(/^Source/).fill('Sample figures for this test, not the IRS figures');
    await form.getByRole('button', { name: 'Save figures' }).click();
    await form.getByText('The maximum must be more than the daily penalty.').waitFor();
    const region = page.getByRole('region', { name: 'Late-filing penalty figures' });
    await region.screenshot({ path: 'test-results/admin-penalty-figures-form.png' });
    await form.getByLabel('Maximum ($)').fill('15,000');
    await form.getByRole('button', { name: 'Save figures' }).click();
    await page.getByText(`The penalty figures for returns due in ${year} were saved.`).waitFor();
    const table = page.getByRole('table', { name: 'Late-filing penalty figures by due year' });
    expect(await table.getByRole('row').nth(1).innerText()).toMatch(
      new RegExp(
        `^${year}\\s+\\$30\\.00 a day, up to \\$15,000\\.00\\s+Over \\$1,500,000\\.00: \\$150\\.00 a day, up to \\$75,000\\.00`,
      ),
    );
    await region.screenshot({ path: 'test-results/admin-penalty-figures.png' });

    expect(await (await check()).innerText()).toContain(
      `For a return due in ${year}: $30.00 a day, up to the lesser of $15,000.00 or 5% of the organization's gross receipts for the year`,
    );
    await page.screenshot({ path: 'test-results/instant-check-penalty-figures.png', fullPage: true });

    // Removing them asks first; the check then names the instructions again.
    await page.goto('/admin/compliance');
    await page.getByRole('button', { name: `Remove ${year}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove figures' }).click();
    await page.getByText(`The penalty figures for returns due in ${year} were removed.`).waitFor();
    await page.getByText('No figures yet: a late return names the IRS instructions to read.').waitFor();
    expect(admin.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});
