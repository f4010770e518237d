import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, type Session } from './support/browser.ts';

/**
 * Admin → Jobs in Chromium (docs/jobs.md "Staff page"): staff find the jobs in the admin
 * navigation, see each with its schedule and last run, run one now after confirming, and read its
 * recorded run in the job's history. Screenshots go to test-results/.
 */

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
  await signIn(s.page, 'admin');
});
afterAll(async () => {
  await s.close();
});

describe('jobs page', () => {
  it('lists the jobs and runs one now, recording the run', async () => {
    const { page } = s;
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Jobs' });
    // The level wizards were refreshed when the server started.
    const wizards = table.getByRole('row').filter({ hasText: 'Level wizard refresh' });
    await wizards.getByText('at start').waitFor();
    expect(await wizards.innerText()).toContain('At server start');

    const row = table.getByRole('row').filter({ hasText: 'Upload housekeeping' });
    expect(await row.innerText()).toContain('Every 15 minutes');
    await page.screenshot({ path: 'test-results/admin-jobs.png', fullPage: true });

    await row.getByRole('button', { name: 'Run now' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Run Upload housekeeping now?').waitFor();
    await dialog.getByRole('button', { name: 'Run now' }).click();
    await page.getByText(/^Upload housekeeping ran: \d+ done\.$/).waitFor();
    await row.getByText('by staff').waitFor();
    expect(await row.innerText()).toContain('OK');

    await row.getByRole('button', { name: 'Runs' }).click();
    const history = page.getByRole('table', { name: 'Runs of Upload housekeeping' });
    await history.getByRole('row').filter({ hasText: 'Staff' }).first().waitFor();
    await page.screenshot({ path: 'test-results/admin-jobs-run.png', fullPage: true });
  });
});
