import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleAnswers, WIZARD_SCHEMAS } from '../../src/server/db/seed/wizard-schemas.ts';
import { isFieldShown, optionPairs, type FieldDefinition } from '../../src/shared/forms/field-definition.ts';
import { valueFields } from '../../src/shared/forms/rules.ts';
import { newAccountHolder } from './support/accounts.ts';
import { forgetSession, openBrowser, type Session } from './support/browser.ts';
import type { Locator, Page } from 'playwright-core';

/**
 * docs/accessibility.md: the contact form, the application wizard and a card payment completed with the
 * keyboard alone (Tab, Shift+Tab, typing, Space, Enter, arrow keys). Locators only find fields
 * by their visible labels to check which one has the focus, and read what the page shows.
 */

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field by its visible label; a required star after it is not part of the words. */
const byLabel = (scope: Page | Locator, label: string) =>
  scope.getByLabel(new RegExp(`^\\s*${escape(label)}\\s*\\*?\\s*$`));

const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** What has the focus, for a failure message: tag, role, name or label text. */
const describeFocus = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'the page itself (nothing focused)';
    const name =
      el.getAttribute('aria-label') ??
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      el.textContent?.slice(0, 60);
    return `<${el.tagName.toLowerCase()}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}> "${name?.trim()}"`;
  });

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, as a keyboard user moves through a
 * page. Fails when it does not arrive within `max` presses: the control is unreachable, or
 * focus is trapped elsewhere.
 * @returns how many presses it took
 */
async function tabTo(page: Page, target: Locator, { max = 60, back = false } = {}): Promise<number> {
  await target.waitFor();
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await hasFocus(target)) return i;
  }
  throw new Error(
    `${String(target)} did not get the focus after ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}; the focus is on ${await describeFocus(page)}`,
  );
}

/** One press of Tab must land on `target`: the next control in the focus order. */
async function tabOnceTo(page: Page, target: Locator, back = false) {
  await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  expect(
    await hasFocus(target),
    `after ${back ? 'Shift+Tab' : 'Tab'} the focus is on ${await describeFocus(page)}`,
  ).toBe(true);
}

/** Replaces the focused text field's value by typing. */
async function typeInto(page: Page, text: string) {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** In the focused native select, moves to the option with `value` with the arrow keys. */
async function arrowToOption(page: Page, select: Locator, value: string) {
  const values = await select.evaluate((el) => [...(el as HTMLSelectElement).options].map((o) => o.value));
  const target = values.indexOf(value);
  expect(target, `option ${value}`).toBeGreaterThanOrEqual(0);
  const current = values.indexOf(await select.inputValue());
  const key = target > current ? 'ArrowDown' : 'ArrowUp';
  for (let i = 0; i < Math.abs(target - current); i++) await page.keyboard.press(key);
  expect(await select.inputValue()).toBe(value);
}

/**
 * In a radio group whose first or checked radio has the focus, checks `radio` with the arrow
 * keys (Space when the focused one is the wanted one but nothing is checked yet).
 */
async function arrowToRadio(page: Page, radio: Locator) {
  for (let i = 0; i < 10 && !(await radio.isChecked()); i++) {
    await page.keyboard.press((await hasFocus(radio)) ? 'Space' : 'ArrowDown');
  }
  expect(await radio.isChecked()).toBe(true);
}

/** The focused control shows where the focus is (WCAG 2.4.7): an outline or a changed border. */
async function expectFocusVisible(page: Page) {
  const visible = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    const focused = getComputedStyle(el);
    const outline = focused.outlineStyle !== 'none' && parseFloat(focused.outlineWidth) > 0;
    return outline || focused.boxShadow !== 'none' || el.matches('input, textarea, select');
  });
  expect(visible, `no visible focus on ${await describeFocus(page)}`).toBe(true);
}

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s?.close();
});

describe('keyboard only', () => {
  it('the contact form: skip link, every field in order, a correction with Shift+Tab, send, close the dialog', async () => {
    const { page } = s;
    await page.goto('/contact');
    await page.getByRole('heading', { level: 1, name: "Let's talk" }).waitFor();
    const form = page.getByRole('form', { name: 'Contact us' });
    // The server's HTML shows the form greyed out until the page is interactive.
    await byLabel(form, 'Name').and(page.locator(':enabled')).waitFor();

    // The first Tab reaches the skip link, shown while it has the focus; Enter goes past the menu.
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await tabOnceTo(page, skip);
    expect(await skip.isVisible()).toBe(true);
    expect((await skip.boundingBox())!.x).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');

    await tabOnceTo(page, byLabel(form, 'Name'));
    await page.keyboard.type('Kim Keyboard');
    await tabOnceTo(page, byLabel(form, 'E-mail'));
    await page.keyboard.type('kim.keyboard@exmaple');
    // Back to the name to fix it, then forward again to correct the address.
    await tabOnceTo(page, byLabel(form, 'Name'), true);
    await typeInto(page, 'Kim Keys');
    await tabOnceTo(page, byLabel(form, 'E-mail'));
    await typeInto(page, 'kim.keys@example.com');
    await tabOnceTo(page, byLabel(form, 'Organization'));
    await page.keyboard.type('Casper Swim Boosters');
    const subject = byLabel(form, 'Subject');
    await tabOnceTo(page, subject);
    await arrowToOption(page, subject, 'State registration');
    await tabOnceTo(page, byLabel(form, 'Message'));
    await page.keyboard.type('Do we register in Wyoming before our first raffle?');
    const send = form.getByRole('button', { name: 'Send message' });
    await tabOnceTo(page, send);
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog');
    await dialog.getByText('Success!').waitFor();
    await dialog.getByText("Your message has been received. We'll get back with you shortly.").waitFor();
    // The dialog holds the focus while open, and Escape closes it.
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The focus comes back to the button, not to the top of the page.
    await expect.poll(() => hasFocus(send)).toBe(true);
    expect(await byLabel(form, 'Name').inputValue()).toBe('');
    expect(s.errors).toEqual([]);
  });

  it('the application wizard: from /pricing through every page to Submit', async () => {
    const { page } = s;
    await forgetSession(page);
    const pages = WIZARD_SCHEMAS['start-up'];
    const answers = sampleAnswers('start-up', {
      account___name: 'Gillette Keyboard Boosters',
      bylaw___name: 'Gillette Keyboard Boosters',
    });
    await page.goto('/pricing');
    const choose = page.getByRole('link', { name: 'Choose Start-up with tax exemption' });
    await tabTo(page, choose);
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');
    const start = page.getByRole('form', { name: 'Start your application' });
    await tabTo(page, byLabel(start, 'E-mail'));
    await page.keyboard.type('keyboard.applicant@example.com');
    await tabOnceTo(page, byLabel(start, 'Password'));
    await page.keyboard.type('Keyboard#Club2026!');
    expect(await start.getByTestId('password-strength-label').innerText()).toBe('Very strong');
    await tabTo(page, start.getByRole('button', { name: "Let's go!" }), { max: 5 });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/application/create/**');

    for (let i = 0; i < pages.length; i++) {
      await page.getByRole('heading', { name: pages[i].label, exact: true }).first().waitFor();
      await fillByKeyboard(page, pages[i].schema, answers);
      const last = i === pages.length - 1;
      if (last) await page.getByText(/By submitting, you confirm/).waitFor();
      await tabTo(page, page.getByRole('button', { name: last ? 'Submit' : 'Next', exact: true }), { max: 10 });
      await page.keyboard.press('Enter');
    }
    await page.waitForURL('**/app/payments');
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await page.getByText('Start-up with tax exemption (new account)').first().waitFor();
    expect(await page.getByTestId('billing-total').innerText()).toBe('$645.00');
    expect(s.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('a card payment at /app/payments: method chosen with the arrow keys, a decline corrected, then approved', async () => {
    const { page } = s;
    await forgetSession(page);
    await newAccountHolder(page, { email: 'keyboard.payer@example.com', name: 'Rawlins Keyboard Boosters' });
    await page.goto('/app/payments');
    await page.getByRole('heading', { level: 2, name: 'Unpaid invoices' }).waitFor();

    // The method radios: arrows move to Bank account and back to Credit card.
    const card = page.getByRole('radio', { name: 'Credit card' });
    await tabTo(page, card);
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: 'Bank account' }).isChecked()).toBe(true);
    await page.getByRole('form', { name: 'Pay by bank account' }).waitFor();
    await page.keyboard.press('ArrowUp');
    expect(await card.isChecked()).toBe(true);

    const form = page.getByRole('form', { name: 'Pay by credit card' });
    await tabTo(page, byLabel(form, 'Name on card'), { max: 5 });
    await page.keyboard.type('Kai Q Treasurer');
    await tabOnceTo(page, byLabel(form, 'Address'));
    await page.keyboard.type('1 Main St');
    await tabOnceTo(page, byLabel(form, 'City'));
    await page.keyboard.type('Indianapolis');
    await tabOnceTo(page, byLabel(form, 'State'));
    await arrowToOption(page, byLabel(form, 'State'), 'IN');
    await tabOnceTo(page, byLabel(form, 'Zip'));
    // The simulator declines this zip: the first attempt fails.
    await page.keyboard.type('46282');
    await tabOnceTo(page, byLabel(form, 'Phone'));
    await tabOnceTo(page, byLabel(form, 'Card number'));
    await page.keyboard.type('5424 0000 0000 0015');
    await tabOnceTo(page, byLabel(form, 'Month'));
    await arrowToOption(page, byLabel(form, 'Month'), '12');
    const nextYear = String(new Date().getFullYear() + 1);
    await tabOnceTo(page, byLabel(form, 'Year'));
    await arrowToOption(page, byLabel(form, 'Year'), nextYear);
    await tabOnceTo(page, byLabel(form, 'Card code'));
    await page.keyboard.type('123');
    const pay = form.getByRole('button', { name: 'Pay $645.00' });
    await tabTo(page, pay, { max: 5 });
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');

    // Declined: the dialog says so; closing it puts the focus back on Pay, the card data kept.
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Unable to complete payment.').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(pay)).toBe(true);
    // Back to the zip with Shift+Tab for another one, on to another card, and Pay again.
    await tabTo(page, byLabel(form, 'Zip'), { back: true, max: 10 });
    await typeInto(page, '46201');
    await tabTo(page, byLabel(form, 'Card number'), { max: 3 });
    await typeInto(page, '4111 1111 1111 1111');
    await tabTo(page, pay, { max: 10 });
    await page.keyboard.press('Space');

    await page.waitForURL('**/app/finances');
    await dialog.getByText('Success!').waitFor();
    await dialog.getByText('This transaction has been approved.').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The decline is the server's 422 answer, logged by the browser.
    expect(s.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});

/**
 * Fills one wizard page from `answers` with the keyboard: Tab to each field in order, then type,
 * arrow through a select or a radio group, or Space a checkbox.
 */
async function fillByKeyboard(page: Page, defs: FieldDefinition[], answers: Record<string, unknown>) {
  for (const def of valueFields(defs)) {
    if (def.field_type === 'hidden' || def.is_disabled || !(def.name in answers) || !isFieldShown(def, answers))
      continue;
    const value = answers[def.name];
    const label = def.label ?? def.name;
    switch (def.field_type) {
      case 'checkbox': {
        const box = page.getByRole('checkbox', { name: label, exact: true });
        await tabTo(page, box, { max: 10 });
        if ((await box.isChecked()) !== (value === 1)) await page.keyboard.press('Space');
        expect(await box.isChecked()).toBe(value === 1);
        break;
      }
      case 'radio': {
        const group = page.getByRole('radiogroup', { name: label });
        const wanted = optionPairs(def).find((o) => o.value === String(value))!;
        await tabTo(page, group.getByRole('radio').first(), { max: 10 });
        await arrowToRadio(page, group.getByRole('radio', { name: wanted.label, exact: true }));
        break;
      }
      case 'state':
      case 'select': {
        const select = byLabel(page, label);
        await tabTo(page, select, { max: 10 });
        await arrowToOption(page, select, String(value));
        break;
      }
      default:
        await tabTo(page, byLabel(page, label), { max: 60 });
        await typeInto(page, String(value));
    }
  }
}
