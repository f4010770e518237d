import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings } from './support/axe.ts';
import { openBrowser, screenshotBothWidths, signIn, type Session } from './support/browser.ts';

/**
 * Admin → Standing check (CSV) in Chromium (docs/irs-standing.md "Checking a list of EINs"): staff
 * find it in the admin navigation, upload a small CSV by the labelled file input, watch it finish,
 * read the summary by standing, download the CSV of standings and read how long checks are kept.
 * Demo data: the GEN 5271 extract of the IRS's April 2026 BMF, kept by the seed. Screenshots go to test-results/screens/.
 */

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
  await signIn(s.page, 'admin');
});
afterAll(async () => {
  await s.close();
});

describe('standing check of a list of EINs', () => {
  it('staff upload a CSV of EINs, watch it finish and download the standings', async () => {
    const { page } = s;
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Standing check (CSV)' }).click();
    await page.getByRole('heading', { name: 'Standing check (CSV)', level: 1 }).waitFor();

    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: /CSV file of EINs/ }).click(),
    ]);
    await chooser.setFiles({
      name: 'chapters.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('EIN\n87-3240715\n873240715\n99-0009999\n'),
    });
    await page.getByRole('button', { name: 'Check the EINs' }).click();
    const download = page.getByRole('link', { name: 'Download the standings of 2 EINs (CSV)' });
    await download.waitFor();
    await page.getByRole('cell', { name: 'Not found in the IRS data' }).first().waitFor();
    await screenshotBothWidths(page, 'bulk-check', 'finished');
    expect(await axeFindings(page)).toEqual([]);

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const rows = parse(fs.readFileSync((await file.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.EIN, r.Name])).toEqual([
      ['87-3240715', 'POWERHOUSE ACADEMY CHEER BOOSTER'],
      ['99-0009999', ''],
    ]);
    // The organization's standing is the instant check's; the unknown EIN says it was not found.
    expect(rows[0].Standing).not.toMatch(/^$|Not found/);
    expect(rows[1].Standing).toBe('Not found in the IRS data');
    // The earlier checks list it, and the page says how long checks are kept.
    await page.getByRole('cell', { name: 'chapters.csv' }).first().waitFor();
    await page.getByText('A check and its CSV are deleted 30 days after it finished').waitFor();
    expect(s.errors).toEqual([]);
  });
});
