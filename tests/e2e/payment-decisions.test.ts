import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccountHolder } from './support/accounts.ts';
import { fillCard, openBilling } from './support/billing.ts';
import { forgetSession, openBrowser, signIn, type Session } from './support/browser.ts';

/**
 * docs/payments.md "One charge per invoice" and "Staff actions", in Chromium: a treasurer's card
 * payment is held for review (the simulator holds zip 46205); the billing screen then shows the
 * invoice as being processed and offers nothing to pay it again; staff find the payment under
 * "Needs a decision", approve it with a reason, and later void it from the payments list.
 */

let holder: Session;
let staff: Session;
beforeAll(async () => {
  holder = await openBrowser();
  staff = await openBrowser();
});
afterAll(async () => {
  await holder?.close();
  await staff?.close();
});

const NAME = 'Held Review Boosters';

describe('a held payment, decided by staff', () => {
  it('holds its invoice, is approved under "Needs a decision", then voided from the payments list', async () => {
    const { page } = holder;
    await forgetSession(page);
    await newAccountHolder(page, { email: 'held.review@example.com', name: NAME });
    await openBilling(page);

    const form = await fillCard(page, { number: '4111 1111 1111 1111', zip: '46205' });
    await form.getByRole('button', { name: /^Pay/ }).click();
    await page
      .getByRole('dialog')
      .getByText(/being reviewed/)
      .waitFor();

    // Back on the billing screen the invoice is being processed and cannot be chosen again.
    await page.goto('/app/payments');
    const invoice = page.getByRole('checkbox', { name: /^Pay invoice GS-\d{6}/ });
    await invoice.waitFor();
    expect(await invoice.isDisabled()).toBe(true);
    expect(await invoice.isChecked()).toBe(false);
    await page.getByText('A payment is being processed').waitFor();
    await page.getByText(/A payment of these invoices is being processed, so they cannot be paid again now/).waitFor();
    await page.screenshot({ path: 'test-results/billing-invoice-processing.png', fullPage: true });

    // Staff decide.
    const s = staff.page;
    await signIn(s, 'admin');
    await s.goto('/admin/payments');
    await s.getByRole('tab', { name: 'Needs a decision' }).click();
    await s.waitForURL((u) => u.searchParams.get('tab') === 'attention');
    const table = s.getByRole('table', { name: 'Payments that need a decision' });
    const row = table.locator('tbody tr').filter({ hasText: NAME });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Held for review/i);
    await s.screenshot({ path: 'test-results/admin-payments-attention.png', fullPage: true });

    await row.getByRole('button', { name: /^Approve the payment of \$645\.00/ }).click();
    const dialog = s.getByRole('dialog', { name: 'Approve the held payment' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Approve payment' }).click();
    await dialog.getByText('The reason field is required.').waitFor();
    await dialog.getByLabel('Reason').fill('Spoke with the treasurer; the payment is genuine.');
    await s.screenshot({ path: 'test-results/admin-payment-approve-dialog.png' });
    await dialog.getByRole('button', { name: 'Approve payment' }).click();
    await s.getByText('The payment was approved and applied to its invoices.').waitFor();
    await row.waitFor({ state: 'detached' });

    // The payments list shows it paid, with Void and Refund.
    await s.getByRole('tab', { name: 'Payments', exact: true }).click();
    const paid = s.getByRole('table', { name: 'Payments' }).locator('tbody tr').filter({ hasText: NAME }).first();
    await paid.getByText('Paid', { exact: true }).waitFor();
    await paid.getByRole('button', { name: /^Void the payment/ }).click();
    const voiding = s.getByRole('dialog', { name: 'Void the payment' });
    await voiding.getByLabel('Reason').fill('The group paid by check instead.');
    await voiding.getByRole('button', { name: 'Void payment' }).click();
    await s.getByText(/The payment was voided/).waitFor();
    await paid.getByText('Voided (nothing charged)').waitFor();
    await s.screenshot({ path: 'test-results/admin-payments-voided.png', fullPage: true });

    // The treasurer's invoice is open again and can be chosen.
    await page.goto('/app/payments');
    await invoice.waitFor();
    expect(await invoice.isDisabled()).toBe(false);
    expect(holder.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
  });
});
