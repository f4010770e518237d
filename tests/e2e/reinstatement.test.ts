import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveImportedAccountAUser, acceptInvitation } from './support/accounts.ts';
import { axeFindings } from './support/axe.ts';
import { fillCard } from './support/billing.ts';
import { openBrowser, screenshotBothWidths, type Session } from './support/browser.ts';
import { startProductServer, type ProductServer } from './support/product-server.ts';

/**
 * Getting the exemption back (docs/irs-standing.md "Reinstatement"). A server of its own, started
 * with IRS_DATA_DIR naming a folder with an Automatic Revocation List this test writes (not the
 * IRS's): it lists Hooligans Baseball Booster Club (41-2325710, a GEN 5271 subordinate of the shipped
 * April 2026 extract that files Form 990-N and no other browser test uses) as revoked on 15 May 2026
 * and posted on 10 August 2026. Staff load it with the IRS data refresh job and add a user to the
 * account; the user reads the paths on /account, found by visible labels, ticks an item, and sees
 * the level that prepares it; staff see the tick on the account page; the public profile shows the
 * revocation, never the checklist. Then the group orders the application, confirms, and pays its
 * invoice by card on the billing screen (the gateway simulator), and the card reads it paid.
 */

const EIN = '412325710';
const NAME = 'HOOLIGANS BASEBALL BOOSTER CLUB INC';
const ADMIN = { email: 'reinstatement.admin@e2e.test', password: 'Adm1n-reinstate-Pass' };
const GROUP_USER = { email: 'hooligans.treasurer@example.com', password: 'Hooligans-Treasurer-2026' };

let server: ProductServer;
let irsDir: string;
let group: Session;
let staff: Session;

beforeAll(async () => {
  irsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-e2e-revocations-'));
  fs.mkdirSync(path.join(irsDir, 'revocations', '2026-11-10'), { recursive: true });
  fs.writeFileSync(
    path.join(irsDir, 'revocations', '2026-11-10', 'revocations.txt'),
    `${EIN}|PARENT BOOSTER USA INC|${NAME}|2521 E MOUNTAIN VILLAGE DR STE B|WASILLA|AK|99654|US|03|15-MAY-2026|10-AUG-2026|\r\n`,
  );
  server = await startProductServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_FORMS_PER_MINUTE: '1000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    IRS_DATA_DIR: irsDir,
  });
  [group, staff] = await Promise.all([openBrowser(server.baseUrl), openBrowser(server.baseUrl)]);
});
afterAll(async () => {
  await Promise.all([group?.close(), staff?.close()]);
  await server?.stop();
  if (irsDir) fs.rmSync(irsDir, { recursive: true, force: true });
});

describe('a revoked group works through its way back', () => {
  it('reads the path that fits with its deadline, ticks an item, orders the application and pays it; staff see the tick and the order', async () => {
    const sp = staff.page;
    await sp.goto('/login');
    await sp.getByLabel('E-mail').fill(ADMIN.email);
    await sp.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
    await sp.getByRole('button', { name: 'Sign in' }).click();
    await sp.waitForURL((u) => !u.pathname.startsWith('/login'));
    // Staff load the revocation list now (the job may have loaded it at start already: the same file
    // again changes nothing), then add a user to the revoked group's account.
    const ran = await sp.evaluate(async () => {
      const res = await fetch('/api/admin/jobs/irs-data-refresh/run', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
          'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
        },
        body: '{}',
      });
      return { status: res.status, text: await res.text() };
    });
    if (ran.status !== 200 && ran.status !== 409) throw new Error(`the refresh: ${ran.status} ${ran.text}`);
    const accountId = await giveImportedAccountAUser(sp, {
      keyword: 'hooligans baseball',
      name: NAME,
      ein: EIN,
      email: GROUP_USER.email,
      firstName: 'Hana',
      lastName: 'Treasurer',
    });

    const { page } = group;
    await acceptInvitation(sp, page, GROUP_USER.email, GROUP_USER.password);

    await page.goto('/account');
    const standing = page.getByRole('region', { name: 'Standing with the IRS' });
    await standing.locator('[data-standing="revoked"]').getByText('Revoked').waitFor();
    const back = standing.getByRole('region', { name: 'Getting the exemption back' });
    await back.getByText(/counted from August 10, 2026, the day the IRS posted the organization/).waitFor();
    const streamlined = back.getByRole('region', {
      name: 'Rev. Proc. 2014-11 §4: Streamlined retroactive reinstatement',
    });
    await streamlined.getByText('Apply by November 10, 2027').waitFor();
    await streamlined.getByText('Fits', { exact: true }).waitFor();
    // §7 is always open; §5 and §6 are listed as not fitting, with why.
    await back.getByRole('region', { name: /§7: Reinstatement from the application's postmark date/ }).waitFor();
    await back.getByText('§5 Retroactive reinstatement within 15 months: The streamlined process fits').waitFor();
    // Nothing on the card calls the revoked group exempt or gifts to it deductible.
    expect(await back.innerText()).not.toMatch(/\bis exempt\b|\bare deductible\b/);

    const heading = streamlined.getByRole('checkbox', { name: /^Write "Revenue Procedure 2014-11, Streamlined/ });
    expect(await heading.isChecked()).toBe(false);
    await heading.check();
    await streamlined.getByText(/^Ticked .* by Hana Treasurer$/).waitFor();
    expect(await heading.isChecked()).toBe(true);

    // The level that prepares it, ordered from here (further down).
    const offer = back.getByRole('button', { name: /^Let us prepare it: Reinstatement application, \$595\.00$/ });
    await offer.waitFor();
    await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
    await screenshotBothWidths(page, 'reinstatement', 'account-revoked');
    await standing.screenshot({ path: 'test-results/screens/reinstatement/standing-revoked.png' });
    await page.setViewportSize({ width: 375, height: 800 });
    await back.screenshot({ path: 'test-results/screens/reinstatement/way-back-375.png' });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await axeFindings(page)).toEqual([]);

    // Kept: after a reload it is still ticked.
    await page.reload();
    await back.getByRole('checkbox', { name: /^Write "Revenue Procedure 2014-11, Streamlined/ }).waitFor();
    expect(
      await back.getByRole('checkbox', { name: /^Write "Revenue Procedure 2014-11, Streamlined/ }).isChecked(),
    ).toBe(true);

    // The public profile shows the revocation, never the checklist.
    await page.goto(`/app/account/show/${accountId}`);
    await page.locator('[data-standing="revoked"]').first().waitFor();
    expect(await page.getByRole('region', { name: 'Getting the exemption back' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);

    // Staff see the same paths, who ticked the item, and what the group is offered.
    await sp.goto(`/admin/accounts/show/${accountId}`);
    const staffBack = sp
      .getByRole('region', { name: 'Standing with the IRS' })
      .getByRole('region', { name: 'Getting the exemption back' });
    await staffBack.getByText(/^Ticked .* by Hana Treasurer$/).waitFor();
    await staffBack
      .getByRole('button', { name: 'Order it for the group: Reinstatement application, $595.00' })
      .waitFor();
    await screenshotBothWidths(sp, 'reinstatement', 'staff-account');

    // The group orders it: a confirmation, then the invoice on the billing screen, paid by card.
    await page.goto('/account');
    await back.getByRole('button', { name: 'Let us prepare it: Reinstatement application, $595.00' }).click();
    const confirm = page.getByRole('dialog', { name: 'Order the Reinstatement application?' });
    await confirm.getByText(/An invoice of \$595\.00 is added to your account/).waitFor();
    await confirm.getByRole('button', { name: 'Order it' }).click();
    await page.waitForURL('**/app/payments');
    await page.getByText(/^Invoice GS-\d{6} for the Reinstatement application is ready to pay\.$/).waitFor();
    await page.getByRole('checkbox', { name: /^Pay invoice GS-\d{6}/ }).waitFor();
    expect(await page.getByTestId('billing-total').innerText()).toBe('$595.00');
    await page.screenshot({ path: 'test-results/screens/reinstatement/ordered-billing.png', fullPage: true });
    const form = await fillCard(page, { number: '4007000000027', zip: '46201' });
    await form.getByRole('button', { name: 'Pay $595.00' }).click();
    await page.waitForURL('**/app/finances');
    await page.getByRole('dialog').getByText('This transaction has been approved.').waitFor();
    await page.keyboard.press('Escape');

    // The card now reads the order, paid, and offers it no more; staff read the same.
    await page.goto('/account');
    await back
      .getByText(/^Reinstatement application ordered \d{2}\/\d{2}\/\d{4}: invoice GS-\d{6}, \$595\.00, paid\.$/)
      .waitFor();
    expect(await back.getByRole('button', { name: /^Let us prepare it/ }).count()).toBe(0);
    await back.screenshot({ path: 'test-results/screens/reinstatement/way-back-ordered.png' });
    await sp.reload();
    await staffBack.getByText(/invoice GS-\d{6}, \$595\.00, paid\.$/).waitFor();
    expect(await staffBack.getByRole('button', { name: /^Order it for the group/ }).count()).toBe(0);
  });
});
