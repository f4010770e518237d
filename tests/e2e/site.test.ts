import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src/shared/routes.ts';
import { openBrowser, type Session } from './support/browser.ts';

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s.close();
});

describe('the public site', () => {
  it('renders every public page with one heading and no console errors', async () => {
    const publicPaths = PAGES.filter((p) => p.access === 'visitor' && !p.path.includes(':')).map((p) => p.path);
    for (const path of publicPaths) {
      await s.page.goto(path);
      await s.page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await s.page.getByRole('heading', { level: 1 }).count(), path).toBe(1);
      await s.page.getByRole('navigation', { name: 'Main' }).waitFor();
    }
    expect(s.errors).toEqual([]);
  });

  it('shows the company name and phone, and links to every public tool', async () => {
    await s.page.goto('/');
    await s.page.getByRole('link', { name: 'GoodStanding' }).first().waitFor();
    expect(await s.page.getByText('(888) 555-0142').first().isVisible()).toBe(true);
    const nav = s.page.getByRole('navigation', { name: 'Main' });
    for (const label of [
      'Pricing',
      'Form 990',
      'State registration',
      'Incorporation & EIN',
      'Verify 501(c)(3)',
      'Compliance check',
      'Multi-chapter',
      'Contact',
    ]) {
      expect(await nav.getByRole('link', { name: label }).count(), label).toBe(1);
    }
  });

  it('the Form 990 page states the IRS rules and links their sources', async () => {
    await s.page.goto('/irs-form-990');
    await s.page.getByRole('heading', { name: 'Missing three years means automatic revocation' }).waitFor();
    for (const rule of [
      'There is no penalty for a late 990-N, and a late e-Postcard still counts',
      'the IRS must first send a notice to a group that has missed two years in a row',
      'on the due date of the third return',
    ]) {
      expect(await s.page.getByText(rule, { exact: false }).count(), rule).toBe(1);
    }
    const sources = s.page.getByRole('region', { name: 'Sources' });
    expect(
      await sources.getByRole('link', { name: 'IRS: Automatic revocation of exemption' }).getAttribute('href'),
    ).toBe('https://www.irs.gov/charities-non-profits/automatic-revocation-of-exemption');
    expect(await sources.getByRole('link', { name: 'IRS: Form 990-N (e-Postcard) filing requirement' }).count()).toBe(
      1,
    );
    expect(await sources.getByRole('link', { name: /Internal Revenue Code §6033/ }).count()).toBe(1);
  });

  it('a dismissed banner stays hidden after a reload, for one day', async () => {
    await s.page.goto('/pricing');
    const banner = s.page.getByText('Our office is closed Thursday and Friday for Thanksgiving', { exact: false });
    await banner.waitFor();
    // The button works once React has taken over the page, as the rating form shows.
    await s.page.getByRole('textbox', { name: 'Comments' }).and(s.page.locator(':enabled')).waitFor();
    await s.page.getByRole('button', { name: 'Dismiss this notice' }).click();
    await banner.waitFor({ state: 'hidden' });
    await s.page.reload();
    await s.page.getByRole('heading', { level: 1 }).waitFor();
    expect(await banner.count()).toBe(0);
    const cookie = (await s.context.cookies()).find((c) => c.name.startsWith('banner_dismissed_'));
    expect(cookie).toBeDefined();
    const hoursLeft = (cookie!.expires * 1000 - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(23);
    expect(hoursLeft).toBeLessThanOrEqual(24);
  });

  it('the rating widget takes stars and comments, thanks the visitor, and remembers it', async () => {
    await s.page.goto('/irs-form-990');
    const form = s.page.getByRole('form', { name: 'Rate this page' });
    // The form arrives rendered by the server and is usable once hydrated.
    await form.locator('fieldset:not([disabled])').waitFor();
    // The stars are labels for visually hidden radio inputs: click the fourth star itself.
    const starId = await form.getByLabel('4 stars').getAttribute('id');
    await form.locator(`label[for="${starId}"]`).click();
    expect(await form.getByLabel('4 stars').isChecked()).toBe(true);
    await form.getByLabel('Comments').fill('Clear explanation of the 990-N.');
    await form.getByRole('button', { name: 'Send review' }).click();
    await s.page.getByText('Thank you, we have received your review!').waitFor();
    await s.page.reload();
    await s.page.getByText('Thank you, we have received your review!').waitFor();
    expect(await s.page.getByRole('form', { name: 'Rate this page' }).count()).toBe(0);
  });

  it('the state registration page lists every state and jumps to one from the state list', async () => {
    await s.page.goto('/state-registration');
    const rows = s.page.getByRole('table').first().getByRole('row');
    await rows.nth(51).waitFor();
    expect(await rows.count()).toBe(52);
    await s.page.locator('#us_map').getByRole('button', { name: 'Wyoming' }).click();
    await s.page.getByText('Annual report $25.').first().waitFor();
  });

  it("logs 'CSRF token not found' when the page has no CSRF meta tag", async () => {
    await s.page.goto('/campus-report');
    await s.page.getByRole('textbox', { name: 'Campus', exact: true }).waitFor();
    await s.page.evaluate(() => document.querySelector('meta[name="csrf-token"]')?.remove());
    const before = s.errors.length;
    await s.page.getByLabel('E-mail').fill('someone@example.com');
    await s.page.getByRole('textbox', { name: 'Campus', exact: true }).fill('Casper College');
    await s.page.getByRole('button', { name: 'Send me the report' }).click();
    await expect.poll(() => s.errors.slice(before).some((e) => e.includes('CSRF token not found'))).toBe(true);
    s.errors.length = 0;
  });

  it('an unknown address shows a readable not-found page', async () => {
    const res = await s.page.goto('/no-such-page');
    expect(res?.status()).toBe(404);
    await s.page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});
