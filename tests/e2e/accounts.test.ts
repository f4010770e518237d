import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetLinkFromOutbox } from './support/accounts.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import { E2E_USERS } from './support/global-setup.ts';

let visitor: Session;
let admin: Session;
beforeAll(async () => {
  visitor = await openBrowser();
  admin = await openBrowser();
  await signIn(admin.page, 'admin');
});
afterAll(async () => {
  await visitor.close();
  await admin.close();
});

describe('sign-in and password reset', () => {
  it('refuses a wrong password with a readable message', async () => {
    const { page } = visitor;
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(E2E_USERS.holder.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('These credentials do not match our records.').waitFor();
  });

  it('resets a forgotten password through the mailed link, with the strength meter, and signs in with it', async () => {
    const { page } = visitor;
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('E-mail').fill(E2E_USERS.holder.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(/we have e-mailed a link to reset its password/).waitFor();

    await page.goto(await resetLinkFromOutbox(admin.page, E2E_USERS.holder.email));
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(E2E_USERS.holder.email);
    const password = page.getByRole('textbox', { name: 'Password', exact: true });
    const label = page.getByTestId('password-strength-label');
    await password.fill('password');
    expect(await label.innerText()).toBe('Very weak');
    await password.fill('Password1');
    expect(await label.innerText()).toBe('Fair');
    await password.fill('Tr4ck#Boosters!x');
    expect(await label.innerText()).toBe('Very strong');
    expect(await page.locator('[data-lit="true"]').count()).toBe(5);
    await page.getByLabel('Confirm password').fill('Tr4ck#Boosters!y');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('The password field confirmation does not match.').waitFor();
    await page.getByLabel('Confirm password').fill('Tr4ck#Boosters!x');
    expect(await page.getByText('The password field confirmation does not match.').count()).toBe(0);
    await page.getByRole('button', { name: 'Reset password' }).click();
    // A password reset signs the holder in on their group's home.
    await page.waitForURL((u) => u.pathname === '/app');
    await page.getByRole('heading', { level: 1, name: 'Lincoln High School Athletic Boosters' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(E2E_USERS.holder.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Tr4ck#Boosters!x');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/app');
    expect(visitor.errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  });

  it('an account holder cannot open the admin screens', async () => {
    const res = await visitor.page.goto('/admin/inquiries');
    expect(res?.status()).toBe(403);
    await visitor.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
  });
});
