import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDateInDays, newAccountHolder } from './support/accounts.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/**
 * The renewal rules of docs/requirements/behaviour.md "Renewal" and docs/requirements/errors.md end to end (docs/requirements/product.md "Staff console"): an admin sets a holder's
 * account settings on /admin/accounts/show/{id} (suspended from the basic renewal, the demo group,
 * billed as a group); the holder's renewal form then locks the upgrade on and asks before billing
 * the organization on its own. The demo group's "Billed as a group" is put back off at the end.
 */

const GROUP = 'GoodStanding national booster club group exemption';
const NAME = 'Laramie Lacrosse Boosters';

let holder: Session;
let staff: Session;
let accountId = 0;
beforeAll(async () => {
  [holder, staff] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  // Whatever happened above, the demo group is not billed as a group for the other tests.
  if (staff && accountId) await saveSettings(staff.page, accountId, { billed: false }).catch(() => undefined);
  await Promise.all([holder?.close(), staff?.close()]);
});

const settings = (page: Page) => page.getByRole('region', { name: 'Account settings' });
const card = (page: Page) => page.getByRole('region', { name: 'Renewal' });

/** Through the API, as the admin's page would: the group's "Billed as a group" flag. */
async function saveSettings(page: Page, id: number, opts: { billed: boolean }) {
  const status = await page.evaluate(
    async ({ id, billed, label }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const headers = {
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': token,
      };
      const detail = (await (await fetch(`/api/admin/accounts/${id}`, { headers })).json()) as {
        groups: { id: number; label: string }[];
      };
      const group = detail.groups.find((g) => g.label === label)!;
      const res = await fetch(`/api/admin/accounts/${id}/settings`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({
          is_suspended_from_basic_renewal: false,
          group_id: group.id,
          is_billed_as_group: billed,
        }),
      });
      return res.status;
    },
    { id, billed: opts.billed, label: GROUP },
  );
  if (status !== 200) throw new Error(`saving the settings answered ${status}`);
}

/** The holder's renewal screen as the API gives it. */
const renewalScreen = (page: Page) =>
  page.evaluate(
    async () =>
      (await fetch('/api/account/renewal', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).json() as Promise<{
        open_invoice: unknown;
      }>,
  );

describe('renewal rules set by an admin (docs/requirements/behaviour.md, docs/requirements/errors.md)', () => {
  it('suspended from the basic renewal and billed as a group: the upgrade is locked and renewing asks first', async () => {
    ({ accountId } = await newAccountHolder(holder.page, { email: 'renewal.rules@example.com', name: NAME }));

    // The admin opens the holder's account and sets its renewal flags.
    const { page } = staff;
    await signIn(page, 'admin');
    await page.goto(`/admin/accounts/show/${accountId}`);
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    const form = settings(page);
    await form.getByRole('checkbox', { name: 'Suspended from basic renewal' }).check();
    await form.getByRole('combobox', { name: 'Group' }).selectOption({ label: GROUP });
    const billed = form.getByRole('checkbox', { name: 'Billed as a group' });
    await form.getByText(/applies to every account of/).waitFor();
    await billed.check();
    // Due in 30 days: renewal is open.
    await form.getByLabel('Renewal due date').fill(isoDateInDays(30));
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The account settings were saved.').waitFor();
    const summary = page.getByRole('region', { name: 'Summary' });
    await summary.getByText('Suspended', { exact: true }).waitFor();
    await summary.getByText('(billed as a group)').waitFor();
    expect(await settings(page).getByRole('checkbox', { name: 'Suspended from basic renewal' }).isChecked()).toBe(true);
    expect(await settings(page).getByRole('checkbox', { name: 'Billed as a group' }).isChecked()).toBe(true);
    await page.screenshot({ path: 'test-results/renewal-rules-admin-settings.png', fullPage: true });

    // The holder: the upgrade is checked and cannot be unchecked.
    const h = holder.page;
    await h.goto('/account');
    const renewal = card(h);
    const upgrade = renewal.getByRole('checkbox', { name: /^Upgrade to / });
    await upgrade.waitFor();
    expect(await upgrade.isChecked()).toBe(true);
    expect(await upgrade.isDisabled()).toBe(true);
    await renewal.getByText('Your account renews with the upgrade only').waitFor();

    // Renew now asks first, naming the group; Cancel stays on /account with no invoice.
    await renewal.getByRole('button', { name: 'Renew now' }).click();
    let dialog = h.getByRole('dialog');
    await dialog.getByText('Are you sure?').waitFor();
    await dialog.getByText(GROUP, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Renew individually' }).waitFor();
    await h.screenshot({ path: 'test-results/renewal-rules-group-confirmation.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(h.url()).pathname).toBe('/account');
    expect((await renewalScreen(h)).open_invoice).toBeNull();
    await renewal.getByRole('button', { name: 'Renew now' }).waitFor();

    // Again: Renew individually bills the renewal and lands on the payments page.
    await renewal.getByRole('button', { name: 'Renew now' }).click();
    dialog = h.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Renew individually' }).click();
    await h.waitForURL('**/app/payments');
    await h
      .getByRole('checkbox', {
        name: /^Pay invoice GS-\d+: Annual renewal — Start-up with tax exemption, .*Upgrade to /,
      })
      .waitFor();
    expect((await renewalScreen(h)).open_invoice).not.toBeNull();

    // The admin puts the demo group's "Billed as a group" back off on the page.
    await page.goto(`/admin/accounts/show/${accountId}`);
    const again = settings(page).getByRole('checkbox', { name: 'Billed as a group' });
    await again.waitFor();
    await again.uncheck();
    await settings(page).getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('region', { name: 'Summary' }).getByText('(billed as a group)').waitFor({ state: 'detached' });
    expect(await settings(page).getByRole('checkbox', { name: 'Billed as a group' }).isChecked()).toBe(false);

    expect(holder.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
  });
});
