import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_DECLINED } from '../../src/shared/rules/payment-refusals.ts';
import { newAccountHolder, resetLinkFromOutbox } from './support/accounts.ts';
import { fillCard, openBilling } from './support/billing.ts';
import { forgetSession, openBrowser, signIn, type Session } from './support/browser.ts';
import { E2E_USERS } from './support/global-setup.ts';
import type { Page } from 'playwright-core';

/**
 * The billing screen end to end (docs/requirements/product.md tool 14, docs/requirements/screens.md "Billing/payment screen", docs/requirements/behaviour.md, docs/requirements/errors.md "Payments"):
 * the real Accept.js stand-in tokenizes in the page, the app charges through the real Authorize.Net
 * client against the gateway simulator it serves, and PayPal consent happens on the simulator's page.
 */

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s?.close();
});

/** Signs `page` out, then makes a new account holder with one unpaid $645.00 invoice. @returns the account's id */
async function freshHolder(page: Page, email: string, name: string): Promise<number> {
  await forgetSession(page);
  return (await newAccountHolder(page, { email, name })).accountId;
}

/**
 * Signs the seeded demo account holder in, whatever their password is by now (another test resets
 * it): a password reset through the mail the admin reads in the outbox.
 */
async function signInAsDemoHolder(page: Page) {
  await forgetSession(page);
  await page.goto('/password/forgot');
  await page.getByLabel('E-mail').fill(E2E_USERS.holder.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByText(/we have e-mailed a link to reset its password/).waitFor();
  const staff = await openBrowser();
  try {
    await signIn(staff.page, 'admin');
    await page.goto(await resetLinkFromOutbox(staff.page, E2E_USERS.holder.email));
  } finally {
    await staff.close();
  }
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Bank#Payer-2026x');
  await page.getByLabel('Confirm password').fill('Bank#Payer-2026x');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await page.waitForURL((u) => u.pathname === '/app');
}

/** The dialog docs/requirements/errors.md shows after a payment. */
const dialog = (page: Page) => page.getByRole('dialog');

describe('billing screen (docs/requirements/product.md tool 14)', () => {
  it('pays by card: required messages, a tokenizer error under its field, a decline that keeps the card data, then approval', async () => {
    const { page } = s;
    await freshHolder(page, 'card.payer@example.com', 'Anchorage Card Boosters');
    await openBilling(page);
    const invoice = page.getByRole('checkbox', { name: /^Pay invoice GS-\d{6}: Start-up/ });
    expect(await invoice.isChecked()).toBe(true);
    expect(await page.getByTestId('billing-total').innerText()).toBe('$645.00');
    await page.getByText('Discounts have no cash value and any excess is forfeited.').waitFor();

    // docs/requirements/screens.md empty state when nothing is selected.
    await invoice.uncheck();
    await page.getByText('No invoices selected.').waitFor();
    expect(await page.getByTestId('billing-total').innerText()).toBe('$0.00');
    await invoice.check();

    // Client-side required messages with the labels of docs/requirements/validation.md.
    const form = page.getByRole('form', { name: 'Pay by credit card' });
    await form.getByRole('button', { name: 'Pay $645.00' }).click();
    await form.getByText('The card number field is required.').waitFor();
    await form.getByText('The card code field is required.').waitFor();
    await form.getByText('The zip field is required.').waitFor();
    await page.screenshot({ path: 'test-results/payments-card-required.png', fullPage: true });

    // The tokenizer refuses the number (E_WC_05): its text shows under Card number.
    await fillCard(page, { number: '4111-1111-1111-1112', zip: '46282' });
    await form.getByRole('button', { name: 'Pay $645.00' }).click();
    await form.getByText('Please provide valid credit card number.').waitFor();

    // Zip 46282 declines: 'Uh oh!' / 'Unable to complete payment.', the next step (never the bank's reason or
    // its code) and the payment's reference for a call; the card data stays.
    await form.getByLabel('Card number').fill('5424-0000-0000-0015');
    await form.getByRole('button', { name: 'Pay $645.00' }).click();
    await dialog(page).getByText('Uh oh!').waitFor();
    await dialog(page).getByText('Unable to complete payment.').waitFor();
    await dialog(page).getByText(CARD_DECLINED).waitFor();
    await dialog(page)
      .getByText(/^Payment reference \d+$/)
      .waitFor();
    expect(await dialog(page).textContent()).not.toMatch(/Error code|zip/i);
    await page.screenshot({ path: 'test-results/payments-card-declined.png', fullPage: true });
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    expect(await form.getByLabel('Card number').inputValue()).toBe('5424-0000-0000-0015');
    expect(await form.getByLabel('Name on card').inputValue()).toBe('Pat Q Treasurer');

    // The same card again at once with the zip fixed: approved (not refused as a gateway duplicate), then /app/finances.
    await form.getByLabel('Zip').fill('46201');
    await form.getByRole('button', { name: 'Pay $645.00' }).click();
    await page.waitForURL('**/app/finances');
    await dialog(page).getByText('Success!').waitFor();
    await dialog(page).getByText('This transaction has been approved.').waitFor();
    await page.screenshot({ path: 'test-results/payments-card-approved.png', fullPage: true });
    await page.keyboard.press('Escape');

    await openBilling(page);
    await page.getByText('No unpaid invoices.').waitFor();
    expect(s.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it("pays the demo holder's $50 service fee by bank account, the routing number checked as it is typed", async () => {
    const { page } = s;
    s.errors.length = 0;
    await signInAsDemoHolder(page);
    await openBilling(page);
    // The demo seed's two invoices: keep only the service fee (an eCheck above $100 declines in the sandbox).
    const rows = page.getByRole('region', { name: 'Unpaid invoices' });
    await rows.getByText('State filing service fee').waitFor();
    expect(await page.getByRole('checkbox', { name: /^Pay invoice/ }).count()).toBe(2);
    await page.getByRole('checkbox', { name: /^Pay invoice GS-\d{6}: Annual renewal/ }).uncheck();
    expect(await page.getByTestId('billing-total').innerText()).toBe('$50.00');

    await page.getByRole('radio', { name: 'Bank account' }).check();
    const form = page.getByRole('form', { name: 'Pay by bank account' });
    await form.getByLabel('Name on account').fill('Lincoln HS Athletic Boosters');
    await form.getByLabel('Account type').selectOption({ label: 'Business checking' });
    await form.getByLabel(/^Account number/).fill('123456789012');
    await form.getByLabel('Confirm account number').fill('123456789013');
    await form.getByLabel('Routing number').fill('121042883');
    await form
      .getByText('The routing number is not a valid bank routing number. Please check it against a check or your bank.')
      .waitFor();
    await form.getByLabel('Routing number').fill('121042882');
    await form.getByText('WELLS FARGO BANK NA').waitFor();
    await form.getByRole('button', { name: 'Pay $50.00' }).click();
    await form.getByText('The account number fields must match.').waitFor();
    await form.getByLabel('Confirm account number').fill('123456789012');
    await page.screenshot({ path: 'test-results/payments-bank.png', fullPage: true });
    await form.getByRole('button', { name: 'Pay $50.00' }).click();
    await page.waitForURL('**/app/finances');
    await dialog(page).getByText('This transaction has been approved.').waitFor();
    await page.keyboard.press('Escape');

    // The renewal is still open; RENEW25 takes $25.00 off it, FEES50 would not apply to it.
    await openBilling(page);
    await page.getByLabel('Discount code').fill('fees50');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('FEES50').waitFor();
    const before = await page.getByTestId('billing-total').innerText();
    await page.getByRole('button', { name: 'Remove discount' }).click();
    await page.getByLabel('Discount code').fill('renew25');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('RENEW25').waitFor();
    const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, '')) * 100);
    expect(cents(await page.getByTestId('billing-total').innerText())).toBe(cents(before) - 2_500);
    expect(s.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('pays by PayPal: approve at PayPal, come back with the invoices locked, complete', async () => {
    const { page } = s;
    s.errors.length = 0;
    await freshHolder(page, 'paypal.payer@example.com', 'Cheyenne PayPal Boosters');
    await openBilling(page);
    await page.getByRole('radio', { name: 'PayPal' }).check();
    await page.getByRole('button', { name: 'Continue to PayPal' }).click();
    await page.getByRole('heading', { name: 'PayPal (simulator)' }).waitFor();
    await page.getByText('$645.00').waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/app\/payments\?paypal=return/);
    await page.getByText('PayPal approved', { exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: /^Pay invoice/ }).isDisabled()).toBe(true);
    await page.screenshot({ path: 'test-results/payments-paypal-return.png', fullPage: true });
    await page.getByRole('button', { name: 'Complete PayPal payment' }).click();
    await page.waitForURL('**/app/finances');
    await dialog(page).getByText('This transaction has been approved.').waitFor();
    await page.keyboard.press('Escape');
    expect(s.errors).toEqual([]);
  });

  it('cancels at PayPal: back on the screen, nothing charged, the invoices free again', async () => {
    const { page } = s;
    s.errors.length = 0;
    await freshHolder(page, 'paypal.canceller@example.com', 'Helena PayPal Boosters');
    await openBilling(page);
    await page.getByRole('radio', { name: 'PayPal' }).check();
    await page.getByRole('button', { name: 'Continue to PayPal' }).click();
    await page.getByRole('heading', { name: 'PayPal (simulator)' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('The PayPal payment was cancelled. Nothing was charged.').waitFor();
    await page.waitForURL((u) => u.pathname === '/app/payments' && !u.search.includes('paypal'));
    const invoice = page.getByRole('checkbox', { name: /^Pay invoice/ });
    await expect.poll(() => invoice.isDisabled()).toBe(false);
    expect(await page.getByTestId('billing-total').innerText()).toBe('$645.00');
    await page.getByRole('radio', { name: 'Credit card' }).waitFor();
    expect(s.errors).toEqual([]);
  });

  it('settles with a 100 % discount (zero payment); an unknown code is removed silently', async () => {
    const { page } = s;
    s.errors.length = 0;
    await freshHolder(page, 'zero.payer@example.com', 'Pierre Zero Boosters');
    await openBilling(page);
    await page.getByLabel('Discount code').fill('nope-nope');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Apply' }).isEnabled()).toBe(true);
    expect(await page.getByTestId('billing-total').innerText()).toBe('$645.00');

    await page.getByLabel('Discount code').fill('welcome100');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('WELCOME100').waitFor();
    expect(await page.getByTestId('billing-total').innerText()).toBe('$0.00');
    await page.screenshot({ path: 'test-results/payments-zero.png', fullPage: true });
    expect(await page.getByRole('radio', { name: 'Credit card' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Settle without payment' }).click();
    await page.waitForURL('**/app/finances');
    await dialog(page).getByText('Success!').waitFor();
    await page.keyboard.press('Escape');
    expect(s.errors).toEqual([]);
  });

  it("lets an admin pay an account's invoice by card and land on that account's latest payments", async () => {
    const { page } = s;
    s.errors.length = 0;
    const accountId = await freshHolder(page, 'admin.paid@example.com', 'Bismarck Admin Boosters');
    await forgetSession(page);
    await signIn(page, 'admin');
    // Staff have no invoices of their own: the screen asks which account to pay for.
    await page.goto('/app/payments');
    await page.getByText('Choose an account').waitFor();
    await openBilling(page, `/app/payments?account_id=${accountId}`);
    await page.getByText('Paying for Bismarck Admin Boosters.').waitFor();
    const form = await fillCard(page, { number: '4007000000027', zip: '46201' });
    await form.getByRole('button', { name: 'Pay $645.00' }).click();
    await page.waitForURL(`**/admin/payments/latest/${accountId}`);
    await dialog(page).getByText('This transaction has been approved.').waitFor();
    await page.keyboard.press('Escape');
    expect(
      s.errors.filter((e) => !/status of 404/.test(e)),
      s.errors.join('\n'),
    ).toEqual([]);
  });
});
