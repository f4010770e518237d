import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF_MINIMAL } from '../helpers/files.ts';
import { newAccountHolder } from './support/accounts.ts';
import { collectAxe } from './support/axe.ts';
import { forgetSession, openBrowser, screenshotBothWidths, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * Staff review of an uploaded IRS determination letter (docs/work-queue.md "Determination
 * letters", docs/wizard.md "A group waiting for its IRS letter"): a group waiting for its letter
 * uploads it from its home; staff find it in the work queue under "IRS letter to review", open it
 * and send it back with a reason; the group's home shows the reason and the group uploads again;
 * staff accept the new letter with its date, and the home stops waiting.
 */

let holder: Session;
let staff: Session;
beforeAll(async () => {
  [holder, staff] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([holder?.close(), staff?.close()]);
});

const NAME = 'Sitka Rowing Boosters';
const HOLDER = { email: 'letter.review.holder@example.com', password: 'Holder#Letter-2026' };
const REASON = 'Only the first page came through; please send every page of the letter.';

/** The holder uploads a PDF as the letter from the home's card. */
async function uploadLetter(page: Page, fileName: string) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: /Your IRS determination letter/ }).click(),
  ]);
  await chooser.setFiles({ name: fileName, mimeType: 'application/pdf', buffer: PDF_MINIMAL });
  await page.getByRole('button', { name: 'Upload the letter' }).click();
  await page.getByText('Thank you: we received your IRS letter.').waitFor();
  await page.getByText('IRS letter received').waitFor();
}

/** Staff open the newest open letter item of the group from the queue's tab. */
async function openLetterItem(page: Page) {
  await page.goto('/admin/work-queue');
  await page.getByRole('tab', { name: /IRS letter to review/ }).click();
  await page.waitForURL((u) => u.searchParams.get('kind') === 'determination_letter');
  const table = page.getByRole('table', { name: 'Work items' });
  await table.getByRole('button', { name: `Open the item IRS letter to review for ${NAME}` }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('link', { name: /^Open the letter/ }).waitFor();
  return drawer;
}

describe('reviewing an uploaded IRS letter', () => {
  it('the group uploads, staff send it back, the group uploads again, staff accept it', async () => {
    await newAccountHolder(holder.page, {
      ...HOLDER,
      name: NAME,
      level: 'maintain',
      answers: {
        account___ein: '92-7761077',
        account___has_501c: '2',
        account___exemption_form: '1023-EZ',
        account___exemption_filed_on: '2026-09-14',
        account___ruling_year: '',
        account___gen: '',
      },
    });
    const { page } = holder;
    await forgetSession(page);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(HOLDER.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(HOLDER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/app');
    await page.getByText('Waiting for the IRS letter').waitFor();
    await uploadLetter(page, 'IRS letter page 1.pdf');
    await screenshotBothWidths(page, 'letter', 'home-letter-received');
    // The home as the group sees it right after the upload.
    await page.getByText('IRS letter received').waitFor();
    const findings: string[] = [];
    await collectAxe(page, '/app letter received', findings);

    await signIn(staff.page, 'admin');
    let drawer = await openLetterItem(staff.page);
    expect(await drawer.getByRole('link', { name: /^Open the letter/ }).getAttribute('href')).toMatch(
      /^\/api\/admin\/work-queue\/\d+\/letter$/,
    );
    await drawer.getByText('IRS letter page 1.pdf', { exact: false }).waitFor();
    await screenshotBothWidths(staff.page, 'letter', 'work-queue-letter');
    await collectAxe(staff.page, '/admin/work-queue letter drawer', findings);
    await drawer.getByRole('button', { name: 'Send it back' }).click();
    await drawer.getByText('The reason field is required.').waitFor();
    await drawer.getByLabel('Reason for the group').fill(REASON);
    await drawer.getByRole('button', { name: 'Send it back' }).click();
    await staff.page.getByText('The letter was sent back; the group was told why by mail.').waitFor();
    await drawer.getByText(`Reason given to the group: ${REASON}`).waitFor();
    await drawer.getByText(`Letter sent back: ${REASON}`, { exact: true }).first().waitFor();

    await page.reload();
    await page.getByText('Please upload your IRS letter again').waitFor();
    await page.getByText(REASON).waitFor();
    await screenshotBothWidths(page, 'letter', 'home-letter-returned');
    await collectAxe(page, '/app letter sent back', findings);
    await uploadLetter(page, 'IRS letter all pages.pdf');

    await staff.page.keyboard.press('Escape');
    drawer = await openLetterItem(staff.page);
    await drawer.getByText('IRS letter all pages.pdf', { exact: false }).waitFor();
    await drawer.getByLabel('Date on the letter').fill('2026-11-02');
    await drawer.getByRole('button', { name: 'Accept the letter' }).click();
    await staff.page.getByText('The letter was accepted: the exemption is recorded as recognized.').waitFor();
    await drawer.getByText('Accepted, dated 2026-11-02', { exact: true }).waitFor();
    await screenshotBothWidths(staff.page, 'letter', 'work-queue-letter-accepted');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    expect(await page.getByText('Waiting for the IRS letter').count()).toBe(0);
    expect(await page.getByText('IRS letter received').count()).toBe(0);

    expect(findings).toEqual([]);
    expect(holder.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
  });
});
