import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, signIn, type Session } from './support/browser.ts';

let s: Session;
// At the site's public address, which canonical links are built from: PUBLIC_URL, by default
// http://localhost:PORT (the server runs with the default settings).
beforeAll(async () => {
  s = await openBrowser(baseUrl().replace('127.0.0.1', 'localhost'));
});
afterAll(async () => {
  await s?.close();
});

describe('SEO check (docs/requirements/product.md "Staff console": /admin/yoast/show?url={path})', () => {
  it('an admin opens it from a content page in a new tab and reads the findings of the rendered page', async () => {
    const { page, context } = s;
    await page.goto('/irs-form-990');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'SEO check' }).count()).toBe(0);

    await signIn(page, 'admin');
    await page.goto('/irs-form-990');
    const link = page.getByRole('link', { name: 'SEO check' });
    expect(await link.getAttribute('target')).toBe('_blank');
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForURL('**/admin/yoast/show?url=%2Firs-form-990');
    const findings = tab.getByRole('region', { name: 'Findings' });
    await findings.waitFor({ timeout: 20_000 });
    await findings.getByText('The canonical link points to this page.').waitFor();
    await findings.getByText(/^The page has one main heading: "/).waitFor();
    await findings.getByText(/^The main content has \d+ words/).waitFor();
    await tab.screenshot({ path: 'test-results/seo-check.png', fullPage: true });
    await tab.close();

    // Only pages of this site are checked.
    await page.goto('/admin/yoast/show?url=https%3A%2F%2Fexample.com%2F');
    await page.getByText('Choose a page', { exact: true }).waitFor();
    expect(s.errors).toEqual([]);
  });
});
