import type { Page } from 'playwright-core';

/** The year test cards expire: next year, so they are never expired. */
const NEXT_YEAR = String(new Date().getFullYear() + 1);

/** Opens the billing screen (or `path`, e.g. with `?account_id=`) and waits for its invoices. */
export async function openBilling(page: Page, path = '/app/payments') {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
  await page.getByRole('heading', { level: 2, name: 'Unpaid invoices' }).waitFor();
}

/**
 * Fills the card form as a treasurer would, fields found by their labels: a billing address in
 * Indianapolis with `zip` (the simulator declines 46282 and holds 46205), card `number`, expiry
 * December next year, code 123. @returns the form
 */
export async function fillCard(page: Page, card: { number: string; zip: string }) {
  const form = page.getByRole('form', { name: 'Pay by credit card' });
  await form.getByLabel('Name on card').fill('Pat Q Treasurer');
  await form.getByLabel('Address').fill('1 Main St');
  await form.getByLabel('City').fill('Indianapolis');
  await form.getByLabel('State').selectOption('IN');
  await form.getByLabel('Zip').fill(card.zip);
  await form.getByLabel('Card number').fill(card.number);
  await form.getByLabel('Month').selectOption('12');
  await form.getByLabel('Year').selectOption(NEXT_YEAR);
  await form.getByLabel('Card code').fill('123');
  return form;
}
