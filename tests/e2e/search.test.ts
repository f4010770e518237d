import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, type Session } from './support/browser.ts';

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s.close();
});

interface Page {
  total: number;
  last_page: number;
  data: { id: number; name: string }[];
}
const api = async (keyword: string, page = 1): Promise<Page> =>
  (
    await fetch(`${baseUrl()}/search?search=verify-501c3&keyword=${encodeURIComponent(keyword)}&page=${page}`)
  ).json() as Promise<Page>;

describe('subordinate search on the real GEN 5271 roster', () => {
  it('finds subordinates by keyword with the right total, pages through them and opens a profile', async () => {
    const { page } = s;
    await page.goto('/verify-501c3');
    await page.getByText(/Showing 1–15 of 806 organizations/).waitFor();

    const club = await api('club');
    expect(club.total).toBeGreaterThan(15);
    await page.getByLabel('Keyword').fill('club');
    await page
      .getByText(`Showing 1–15 of ${club.total.toLocaleString('en-US')} organizations matching “club”.`)
      .waitFor();
    expect(new URL(page.url()).searchParams.get('keyword')).toBe('club');

    const pages = page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('button', { name: 'Page 2', exact: true }).click();
    await page.getByText(`Showing 16–30 of ${club.total.toLocaleString('en-US')}`, { exact: false }).waitFor();
    const second = await api('club', 2);
    await page.getByRole('link', { name: second.data[0].name }).waitFor();
    await pages.getByRole('button', { name: `Page ${club.last_page}`, exact: true }).waitFor();

    await page.getByLabel('Keyword').fill('wrestling');
    const wrestling = await api('wrestling');
    await page.getByText(`of ${wrestling.total} organizations matching “wrestling”`, { exact: false }).waitFor();
    if (wrestling.total <= 15) expect(await pages.count()).toBe(0);
    const rows = page.getByRole('table', { name: 'Organizations' }).getByRole('row');
    expect(await rows.count()).toBe(Math.min(15, wrestling.total) + 1);

    await rows.nth(1).getByRole('cell').nth(1).click();
    await page.waitForURL(`**/app/account/show/${wrestling.data[0].id}`);
    await page.getByRole('heading', { name: wrestling.data[0].name }).waitFor();
    await page.getByText('5271', { exact: true }).waitFor();
    await page.getByText('501(c)(3)', { exact: true }).waitFor();
    expect(await page.locator('[data-standing]').count()).toBe(1);
    expect(s.errors).toEqual([]);
  });

  it("shows a group's revocation date and missed returns, citing the IRS release", async () => {
    const { page } = s;
    await page.goto('/verify-501c3');
    await page.getByLabel('Keyword').fill('powerhouse academy');
    await page.getByRole('link', { name: 'POWERHOUSE ACADEMY CHEER BOOSTER' }).click();
    await page.getByRole('heading', { name: 'POWERHOUSE ACADEMY CHEER BOOSTER' }).waitFor();
    // eo_ok.csv: latest return for December 2022; the third missed one was due 15 May 2026.
    await page.getByText('Past its revocation date: revoked unless a return was filed').waitFor();
    await page.getByText('Revocation date passed: May 15, 2026').waitFor();
    await page.getByText('year ending December 2023, year ending December 2024').waitFor();
    // The IRS gave the extract's month, not its day: cited by its month.
    await page.getByText('Per IRS data: the EO Business Master File released April 2026.', { exact: false }).waitFor();
    // Past its revocation date, gifts are not called deductible; the RULING is the group exemption's.
    await page.getByText('Not assured: past its revocation date').waitFor();
    await page.getByText("2005 (the group exemption's, not this organization's own)").waitFor();
    expect(await page.getByText('HOUSEMAN', { exact: false }).count()).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it('says so when nothing matches', async () => {
    await s.page.goto('/verify-501c3?keyword=zzqqxx');
    await s.page.getByText('No organizations match “zzqqxx”.').waitFor();
  });
});
