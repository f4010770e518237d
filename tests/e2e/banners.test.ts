import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSession, openBrowser, signIn, type Session } from './support/browser.ts';

/**
 * Admin → Banners (docs/requirements/behaviour.md "Banner"; docs/requirements/product.md "Staff
 * console"): staff write an urgent alert, visitors see it on the site, staff change and then delete
 * it after confirming, and it is gone for visitors. The screen calls its routes through their
 * contracts (docs/ARCHITECTURE.md "Route contracts").
 */

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s?.close();
});

const TEXT = 'Our office is closed on Friday; payments still go through.';
const CHANGED = 'Our office is closed on Friday and Monday; payments still go through.';

describe('banners', () => {
  it('staff write, change and delete an urgent alert, and visitors see each state', async () => {
    const { page } = s;
    await signIn(page, 'admin');
    await page.goto('/admin/banners');
    const form = page.getByRole('form', { name: 'Banner' });
    await form.getByLabel('Kind').selectOption({ label: 'Urgent alert' });
    await form.getByLabel('Text').fill(TEXT);
    await form.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('table', { name: 'Banners' }).getByRole('row').filter({ hasText: TEXT });
    await expect.poll(() => row.count()).toBe(1);

    await row.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel('Text').fill(CHANGED);
    await form.getByRole('button', { name: 'Save' }).click();
    const changed = page.getByRole('table', { name: 'Banners' }).getByRole('row').filter({ hasText: CHANGED });
    await expect.poll(() => changed.count()).toBe(1);

    const visitor = await openBrowser();
    try {
      await visitor.page.goto('/');
      await expect.poll(() => visitor.page.getByText(CHANGED).count()).toBe(1);

      await changed.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Yes, delete it!' }).click();
      await expect.poll(() => page.getByText('The banner was deleted.').count()).toBeGreaterThan(0);
      await expect.poll(() => changed.count()).toBe(0);

      await visitor.page.reload();
      await visitor.page.getByRole('main').waitFor();
      expect(await visitor.page.getByText(CHANGED).count()).toBe(0);
    } finally {
      await visitor.close();
    }
    await forgetSession(page);
  });
});
