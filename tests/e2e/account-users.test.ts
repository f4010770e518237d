import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import { newAccountHolder } from './support/accounts.ts';

let s: Session;
let staff: Session;
beforeAll(async () => { [s, staff] = await Promise.all([openBrowser(), openBrowser()]); });
afterAll(async () => { await Promise.all([s?.close(), staff?.close()]); });

const HOLDER = { email: 'users.e2e.holder@example.com', password: 'Holder#Users-2026' };
const PAT = { email: 'pat.second@example.com', password: 'Pat-Second-2026' };

const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });
const rowOf = (page: Page, email: string) => usersTable(page).getByRole('row').filter({ hasText: email });
const primaryIcons = (page: Page, email: string) => rowOf(page, email).getByRole('img', { name: 'Primary user' });

describe('account users (SPEC §2 "Admin account users", §4, §8)', () => {
  it('a holder adds a user, edits them, makes them primary, cannot delete the primary and deletes the other user', async () => {
    const { page } = s;
    const { accountId } = await newAccountHolder(page, { ...HOLDER, name: 'Teton Track Boosters' });

    await page.goto('/account');
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.waitForURL('**/app/account/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await rowOf(page, HOLDER.email).waitFor();
    expect(await primaryIcons(page, HOLDER.email).count()).toBe(1);

    // The create form: SPEC §3 defaults, then a new user found field by field by label.
    const form = page.getByRole('form', { name: 'New user' });
    expect(await form.getByRole('checkbox', { name: 'Bulk e-mails' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'Event e-mails' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'SMS messages' }).isChecked()).toBe(false);
    await form.getByRole('textbox', { name: 'E-mail' }).fill(PAT.email);
    await form.getByLabel('First name').fill('Pat');
    await form.getByLabel('Last name').fill('Second');
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PAT.password);
    await form.getByLabel('Confirm password').fill(PAT.password);
    await form.getByLabel('Phone', { exact: true }).fill('(307) 555-0142');
    await form.getByRole('button', { name: 'Create user' }).click();
    await rowOf(page, PAT.email).waitFor();
    expect(await primaryIcons(page, PAT.email).count()).toBe(0);
    expect(await form.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe('');

    // Edit: the row loads into the form; the password stays unless given.
    await rowOf(page, PAT.email).getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('form', { name: 'Edit user' });
    expect(await edit.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe(PAT.email);
    expect(await edit.getByLabel('Phone', { exact: true }).inputValue()).toBe('(307) 555-0142');
    await edit.getByLabel('First name').fill('Patricia');
    await edit.getByLabel('SMS phone').fill('307-555-0143');
    await edit.getByRole('checkbox', { name: 'SMS messages' }).check();
    await edit.getByRole('button', { name: 'Save user' }).click();
    await rowOf(page, PAT.email).getByText('Patricia Second').waitFor();
    expect(await edit.getByRole('checkbox', { name: 'SMS messages' }).isChecked()).toBe(true);

    // Make Patricia primary: the icon moves.
    await edit.getByRole('checkbox', { name: 'Make this the primary user' }).check();
    await edit.getByRole('button', { name: 'Save user' }).click();
    await primaryIcons(page, PAT.email).waitFor();
    await page.waitForFunction((email) => {
      const row = [...document.querySelectorAll('table[aria-label="Users"] tr')].find((r) => r.textContent?.includes(email));
      return row && !row.querySelector('[aria-label="Primary user"]');
    }, HOLDER.email);
    await edit.getByText('This is the primary user.').waitFor();
    // The page without the success toasts over it, for the record.
    await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), null, { timeout: 15_000 });
    await page.screenshot({ path: 'test-results/account-users.png', fullPage: true });

    // The primary user cannot be deleted (SPEC §8).
    await rowOf(page, PAT.email).getByRole('button', { name: /^Delete/ }).click();
    const warning = page.getByRole('dialog');
    await warning.getByText("Can't delete primary user.").waitFor();
    await warning.getByText('Please assign a new primary user to allow deletion.').waitFor();
    // The screenshot waits for the modal's opening transition to finish, not for a fixed time.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
    await page.screenshot({ path: 'test-results/account-users-primary-warning.png' });
    await warning.getByRole('button', { name: 'OK' }).click();
    await warning.waitFor({ state: 'detached' });

    // Deleting the other user (the holder, now not primary) asks first; cancelling keeps them.
    await rowOf(page, HOLDER.email).getByRole('button', { name: /^Delete/ }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Are you sure?').waitFor();
    await confirm.getByText("You won't be able to revert this!").waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await rowOf(page, HOLDER.email).count()).toBe(1);

    await rowOf(page, HOLDER.email).getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete it!' }).click();
    // Deleting yourself ends your sign-in.
    await page.waitForURL('**/login');

    // Patricia, the primary user now, signs in with her password and is the only user left.
    await page.getByLabel('E-mail').fill(PAT.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PAT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.goto('/app/account/users');
    await rowOf(page, PAT.email).waitFor();
    expect(await usersTable(page).getByRole('row').count()).toBe(2); // the header and Patricia
    expect(await primaryIcons(page, PAT.email).count()).toBe(1);

    // An admin opens the same page for this account with ?account_id=.
    await signIn(staff.page, 'admin');
    await staff.page.goto(`/app/account/users?account_id=${accountId}`);
    await staff.page.getByText('People who can sign in for Teton Track Boosters.').waitFor();
    await primaryIcons(staff.page, PAT.email).waitFor();

    expect(s.errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
    expect(staff.errors).toEqual([]);
  });
});
