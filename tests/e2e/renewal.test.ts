import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENEWAL_MESSAGES } from '../../src/shared/schemas/renewal.ts';
import { isoDateInDays, newAccountHolder, setRenewalDueDate } from './support/accounts.ts';
import { forgetSession, openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * The renewal form on the account page (docs/requirements/product.md tool 13, docs/requirements/behaviour.md "Renewal", docs/requirements/validation.md "Order total", docs/requirements/permissions.md, docs/requirements/calls.md,
 * docs/requirements/errors.md "Renewal"; docs/renewals.md), with the seeded prices (src/server/db/seed/reference-data.ts) at
 * early-bird rates. A new account is due in a year, so renewal is not offered yet; staff then move
 * its due date 30 days ahead on the account's admin page, which opens it.
 */

let s: Session;
let staff: Session;
beforeAll(async () => {
  [s, staff] = await Promise.all([openBrowser(), openBrowser()]);
  await signIn(staff.page, 'admin');
});
afterAll(async () => {
  await Promise.all([s?.close(), staff?.close()]);
});

const card = (page: Page) => page.getByRole('region', { name: 'Renewal' });
const orderTotal = (page: Page) => card(page).getByTestId('renewal-order-total').innerText();
/** The analytics events pushed on this page (the tag manager's window.dataLayer), without their callbacks. */
const events = (page: Page) =>
  page.evaluate(() =>
    ((window as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? []).map((e) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'eventCallback')),
    ),
  );
/** '12/26/2026' for '2026-12-26', as the page writes a date (docs/requirements/constants.md). */
const shownDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

describe('renewal form (docs/requirements/product.md tool 13, docs/renewals.md)', () => {
  it('is not offered a year ahead; 30 days before the due date a start-up holder renews with the add-ons they tick', async () => {
    const { page } = s;
    const { accountId } = await newAccountHolder(page, {
      email: 'renewal.startup@example.com',
      name: 'Casper Band Boosters',
    });
    await page.goto('/account');
    const notOpen = card(page).getByTestId('renewal-not-open');
    await notOpen.waitFor();
    expect(await notOpen.innerText()).toContain(
      `Renewal opens on ${shownDate(isoDateInDays(365 - 60))}, 60 days before that date.`,
    );
    expect(await card(page).getByRole('button', { name: 'Renew now' }).count()).toBe(0);
    await page.screenshot({ path: 'test-results/renewal-not-open.png', fullPage: true });

    await setRenewalDueDate(staff.page, accountId, isoDateInDays(30));
    await page.goto('/account');
    const form = card(page);
    const upgrade = form.getByRole('checkbox', { name: 'Upgrade to Full service with incorporation' });
    const incorporation = form.getByRole('checkbox', { name: 'Incorporation package' });
    await upgrade.waitFor();
    await form.getByText('Early-bird prices apply until').waitFor();
    await form.getByRole('listitem').filter({ hasText: 'Listing under our IRS group exemption' }).waitFor();
    for (const href of ['/irs-form-990', '/state-registration#us_map', '/incorporation-and-ein']) {
      expect(await form.locator(`a[href="${href}"]`).count(), href).toBe(1);
    }

    // The paid add-ons start unticked: the renewal alone, its early-bird discount named.
    expect(await upgrade.isChecked()).toBe(false);
    expect(await incorporation.isChecked()).toBe(false);
    expect(await orderTotal(page)).toBe('$645.00');
    expect(await form.getByRole('row', { name: /Subtotal/ }).innerText()).toContain('$695.00');
    expect(await form.getByRole('row', { name: /Early-bird discount/ }).innerText()).toContain('-$50.00');
    await page.screenshot({ path: 'test-results/renewal-startup-initial.png', fullPage: true });
    await form.screenshot({ path: 'test-results/renewal-card.png' });

    await upgrade.check();
    expect(await orderTotal(page)).toBe('$895.00'); // 645 + 250
    // Incorporation forces the upgrade on; unticking the upgrade clears it.
    await upgrade.uncheck();
    await incorporation.check();
    expect(await upgrade.isChecked()).toBe(true);
    expect(await orderTotal(page)).toBe('$1,095.00'); // 645 + 250 + 200
    expect(await form.getByRole('row', { name: /Subtotal/ }).innerText()).toContain('$1,245.00');

    await form.getByRole('button', { name: 'Renew now' }).click();
    await page.waitForURL('**/app/payments');
    const invoice = page.getByRole('checkbox', {
      name: /^Pay invoice GS-\d+: Annual renewal — Start-up with tax exemption, Early-bird discount \(Annual renewal — Start-up with tax exemption\), Upgrade to Full service with incorporation, .*Incorporation package/,
    });
    await invoice.waitFor();
    await page.getByText('$1,095.00').first().waitFor();
    const pushed = (await events(page)).filter((e) => e.event === 'renewal-submitted');
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({
      account_id: accountId,
      is_upgrade_selected: true,
      is_incorporation_selected: true,
      order_total: '1095.00',
    });
    await page.screenshot({ path: 'test-results/renewal-startup-payments.png', fullPage: true });
    expect(s.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
  });

  it('a maintain holder confirms the 990 copy, renews without the upgrade, and then sees the waiting invoice', async () => {
    const { page } = s;
    await forgetSession(s.page);
    const { accountId } = await newAccountHolder(page, {
      email: 'renewal.maintain@example.com',
      name: 'Sheridan Soccer Boosters',
      level: 'maintain',
      answers: { account___ein: '31-4455667' },
    });
    await setRenewalDueDate(staff.page, accountId, isoDateInDays(10));
    await page.goto('/account');
    const form = card(page);
    const upgrade = form.getByRole('checkbox', { name: 'Upgrade to Full service with incorporation' });
    const incorporation = form.getByRole('checkbox', { name: 'Incorporation package' });
    await upgrade.waitFor();
    expect(await upgrade.isChecked()).toBe(false);
    expect(await incorporation.isChecked()).toBe(false);
    expect(await orderTotal(page)).toBe('$295.00');

    // The 990-copy confirmation: Cancel stays on the form.
    await form.getByRole('button', { name: 'Renew now' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/latest 990-series return/).waitFor();
    await dialog.getByText(/cancelled and refunded/).waitFor();
    await page.screenshot({ path: 'test-results/renewal-990-confirmation.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/account');

    await form.getByRole('button', { name: 'Renew now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'I understand' }).click();
    await page.waitForURL('**/app/payments');
    await page
      .getByRole('checkbox', {
        name: /^Pay invoice GS-\d+: Annual renewal — Maintain an existing exemption, Early-bird discount/,
      })
      .waitFor();
    expect((await events(page)).filter((e) => e.event === 'renewal-submitted')).toMatchObject([
      { is_upgrade_selected: false, order_total: '295.00' },
    ]);

    await page.goto('/account');
    await card(page)
      .getByText(/^Your renewal invoice GS-\d+ is waiting for payment\./)
      .waitFor();
    expect(
      await card(page)
        .getByRole('link', { name: /payments page/ })
        .getAttribute('href'),
    ).toBe('/app/payments');
    expect(await card(page).getByRole('button', { name: 'Renew now' }).count()).toBe(0);
    await page.screenshot({ path: 'test-results/renewal-waiting-invoice.png', fullPage: true });
    expect(s.errors).toEqual([]);
  });

  it('a renewal submitted meanwhile in another tab: Renew now shows Oops... with the reason and stays on the page', async () => {
    const { page } = s;
    await forgetSession(s.page);
    const { accountId } = await newAccountHolder(page, {
      email: 'renewal.twice@example.com',
      name: 'Gillette Wrestling Boosters',
    });
    await setRenewalDueDate(staff.page, accountId, isoDateInDays(20));
    await page.goto('/account');
    const form = card(page);
    await form.getByRole('button', { name: 'Renew now' }).waitFor();
    const status = await page.evaluate(async () => {
      const screen = (await (
        await fetch('/api/account/renewal', { headers: { Accept: 'application/json' } })
      ).json()) as { account: { id: number }; level: { id: number } };
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch('/app/account/renewal', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-TOKEN': token },
        body: JSON.stringify({
          account_id: screen.account.id,
          current_level_id: screen.level.id,
          new_level_id: screen.level.id,
          is_upgrade_selected: 0,
          is_incorporation_selected: 0,
          totals: { subtotal: '695.00', discount_total: '50.00', bonus_total: '0.00', order_total: '645.00' },
          bonus_balance: '0.00',
        }),
      });
      return res.status;
    });
    expect(status).toBe(200);
    await form.getByRole('button', { name: 'Renew now' }).click();
    const alert = form.getByRole('alert').filter({ hasText: 'Oops...' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(RENEWAL_MESSAGES.alreadyOpen);
    expect(new URL(page.url()).pathname).toBe('/account');
    expect((await events(page)).filter((e) => e.event === 'renewal-submitted')).toEqual([]);
    await form.screenshot({ path: 'test-results/renewal-oops.png' });
  });
});
