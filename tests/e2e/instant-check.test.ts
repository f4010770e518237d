import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type Session } from './support/browser.ts';

/**
 * The instant revocation-risk check (docs/irs-standing.md "Instant check") on the demo data: the
 * GEN 5271 extract of the IRS's April 2026 BMF, kept in the IRS facts table by the seed.
 */
let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s.close();
});

describe('Are your organizations at risk for revocation?', () => {
  it('a visitor types an EIN, reads the standing at once, and the review request comes prefilled', async () => {
    const { page } = s;
    await page.goto('/compliance-check');
    await page.getByLabel('EIN or organization name').fill('87-3240715');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByRole('button', { name: /POWERHOUSE ACADEMY CHEER BOOSTER/ }).click();
    const answer = page.getByRole('region', { name: 'Standing of POWERHOUSE ACADEMY CHEER BOOSTER' });
    await answer.getByRole('heading', { name: 'POWERHOUSE ACADEMY CHEER BOOSTER' }).waitFor();
    // eo_ok.csv: latest return December 2022; the third missed one was due 15 May 2026.
    await answer.getByText('Past its revocation date: revoked unless a return was filed').first().waitFor();
    await answer.getByText('Not assured: past its revocation date').waitFor();
    await answer
      .getByText(/apply for reinstatement under Rev\. Proc\. 2014-11/i)
      .first()
      .waitFor();
    await answer
      .getByText('Per IRS data: the EO Business Master File released April 2026.', { exact: false })
      .waitFor();
    // The review request beneath it names the organization already.
    const review = page.getByRole('form', { name: 'Free compliance check' });
    expect(await review.getByLabel('Organization').inputValue()).toBe('POWERHOUSE ACADEMY CHEER BOOSTER');
    expect(await review.getByLabel('EIN').inputValue()).toBe('87-3240715');
    expect(s.errors).toEqual([]);
  });

  it('finds by name, and says why an organization may not be found', async () => {
    const { page } = s;
    await page.goto('/compliance-check');
    await page.getByLabel('EIN or organization name').fill('zzqq nothing like it');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByText('No organization found for “zzqq nothing like it”').waitFor();
    await page.getByText('Churches need not apply for recognition', { exact: false }).waitFor();

    await page.getByLabel('EIN or organization name').fill('lady knights flag');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByRole('button', { name: /CHS LADY KNIGHTS FLAG FOOTBALL/ }).click();
    await page
      .getByRole('region', { name: 'Standing of CHS LADY KNIGHTS FLAG FOOTBALL' })
      .getByText('Form 990-N (e-Postcard) every year')
      .waitFor();
    expect(s.errors).toEqual([]);
  });
  it('pages through many organizations with More results and Previous', async () => {
    const { page } = s;
    await page.goto('/compliance-check');
    await page.getByLabel('EIN or organization name').fill('booster');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    const picks = page.getByRole('status').getByRole('button', { name: /EIN \d\d-\d{7}/ });
    await picks.first().waitFor();
    const first = await picks.allTextContents();
    expect(first).toHaveLength(10);
    expect(await page.getByRole('button', { name: 'Previous' }).count()).toBe(0);
    await page.getByRole('button', { name: 'More results' }).click();
    await page.getByRole('button', { name: 'Previous' }).waitFor();
    const second = await picks.allTextContents();
    expect(second).toHaveLength(10);
    expect(second.some((t) => first.includes(t))).toBe(false);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByRole('button', { name: 'Previous' }).waitFor({ state: 'detached' });
    expect(await picks.allTextContents()).toEqual(first);
    expect(s.errors).toEqual([]);
  });
});
