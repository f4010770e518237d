import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_DECLINED } from '../../src/shared/rules/payment-refusals.ts';
import { freePort, serverEnv, startServer, type ServerProcess } from '../durability/support/server.ts';
import { newAccountHolder } from './support/accounts.ts';
import { axeFindings } from './support/axe.ts';
import { fillCard, openBilling } from './support/billing.ts';
import { openBrowser, screenshotBothWidths, signIn, type Session } from './support/browser.ts';
import { E2E_USERS } from './support/global-setup.ts';

/**
 * docs/payments.md "Card testing", in Chromium, against a server of this file's own that allows one
 * payment attempt per account an hour (the shared browser-test server keeps every limit out of
 * reach; here every other limit is too): a treasurer's card is declined, and the next attempt is
 * refused with when to try again, which raises a 'possible card testing' alert. Staff see the red
 * notice on Admin → Payments, follow it to the alert under "Needs a decision", and mark it
 * reviewed with a note; the notice and the alert are gone.
 */

const NAME = 'Quick Fingers Boosters';

let server: ServerProcess | undefined;
let dataDir = '';
let holder: Session;
let staff: Session;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-card-testing-'));
  const port = await freePort();
  server = await startServer(
    port,
    serverEnv(port, {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: E2E_USERS.admin.email,
      ADMIN_PASSWORD: E2E_USERS.admin.password,
      LIMIT_PAYMENT_ATTEMPTS_PER_ACCOUNT_PER_HOUR: '1',
    }),
  );
  holder = await openBrowser(server.baseUrl);
  staff = await openBrowser(server.baseUrl);
});
afterAll(async () => {
  await holder?.close();
  await staff?.close();
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('possible card testing, seen and reviewed by staff', () => {
  it('refuses the attempt past the limit; staff see the notice and the alert, and mark it reviewed', async () => {
    const { page } = holder;
    await newAccountHolder(page, { email: 'quick.fingers@example.com', name: NAME });
    await openBilling(page);
    const form = await fillCard(page, { number: '5424 0000 0000 0015', zip: '46282' });
    const dialog = page.getByRole('dialog');
    await form.getByRole('button', { name: /^Pay/ }).click();
    await dialog.getByText(CARD_DECLINED).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The second attempt within the hour: refused before the gateway, saying when to try again.
    await form.getByRole('button', { name: /^Pay/ }).click();
    await dialog.getByText('Unable to complete payment.').waitFor();
    await dialog
      .getByText(
        /^For your security, payments are paused after too many attempts\. Please try again after .+ UTC \(in \d+ minutes\)\.$/,
      )
      .waitFor();
    await page.screenshot({ path: 'test-results/card-testing-payer-refused.png', fullPage: true });
    expect(holder.errors.filter((e) => !/status of (422|429)/.test(e))).toEqual([]);

    // Staff: the red notice above the tabs, on whichever tab the page opens.
    const s = staff.page;
    await signIn(s, 'admin');
    await s.goto('/admin/payments');
    const notice = s.getByRole('alert').filter({ hasText: 'Possible card testing: 1 alert to review' });
    await notice.waitFor();
    await screenshotBothWidths(s, 'card-testing', 'admin-payments-notice');
    expect(await axeFindings(s)).toEqual([]);
    await notice.getByRole('button', { name: 'Review the alerts' }).click();
    await s.waitForURL((u) => u.searchParams.get('tab') === 'attention');

    const section = s.getByRole('region', { name: 'Possible card testing' });
    const row = section.getByRole('list', { name: 'Possible card testing' }).getByRole('listitem');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    await row.getByRole('link', { name: NAME }).waitFor();
    expect(await row.getByRole('link', { name: NAME }).getAttribute('href')).toMatch(/^\/admin\/accounts\/show\/\d+$/);
    await row.getByText('2 payment attempts in an hour from this account (limit 1)').waitFor();
    await row.getByText(/client address 127\.0\.0\.1/).waitFor();
    await screenshotBothWidths(s, 'card-testing', 'admin-payments-alert');
    // The notice and the alert pass the accessibility rules of every page (docs/accessibility.md).
    expect(await axeFindings(s)).toEqual([]);

    // The declined payment keeps the gateway's own words for staff, under its status.
    await s.getByRole('tab', { name: 'Payments', exact: true }).click();
    const declined = s.getByRole('table', { name: 'Payments' }).locator('tbody tr').filter({ hasText: NAME }).first();
    await declined.getByText('Declined by the gateway: This transaction has been declined. (code 2)').waitFor();
    await s.getByRole('tab', { name: 'Needs a decision' }).click();

    // Mark it reviewed: the note is required, then the alert and the notice are gone.
    await row.getByRole('button', { name: /^Mark reviewed/ }).click();
    const review = s.getByRole('dialog', { name: 'Mark the alert reviewed' });
    await review.waitFor();
    await review.getByRole('button', { name: 'Mark reviewed' }).click();
    await review.getByText('The note field is required.').waitFor();
    await review.getByLabel('Note').fill('Called the treasurer: she tried her card twice. Nothing to do.');
    await s.screenshot({ path: 'test-results/card-testing-review-dialog.png' });
    await review.getByRole('button', { name: 'Mark reviewed' }).click();
    await s.getByText('The alert was marked reviewed.').waitFor();
    await review.waitFor({ state: 'detached' });
    await section.getByText('No possible card testing.').waitFor();
    await notice.waitFor({ state: 'detached' });

    // The review is in the audit log, with the note.
    await s.goto('/admin/audit');
    await s.getByText('Marked a possible card testing alert reviewed').first().waitFor();
    await s
      .getByText(/Called the treasurer: she tried her card twice/)
      .first()
      .waitFor();
    expect(staff.errors).toEqual([]);
  });
});
