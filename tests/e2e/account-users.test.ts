import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitationLinkFromOutbox, newAccountHolder } from './support/accounts.ts';
import { axeFindings } from './support/axe.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

let s: Session;
let pat: Session;
let staff: Session;
beforeAll(async () => {
  [s, pat, staff] = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([s?.close(), pat?.close(), staff?.close()]);
});

const HOLDER = { email: 'users.e2e.holder@example.com', password: 'Holder#Users-2026' };
const PAT = { email: 'pat.second@example.com', password: 'Pat-Second-2026' };
const PAT_NEW_EMAIL = 'patricia.second@example.com';
const QUINN = { email: 'quinn.third@example.com', password: 'Quinn-Third-2026' };
let accountId = 0;

const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });
const rowOf = (page: Page, email: string) => usersTable(page).getByRole('row').filter({ hasText: email });
const primaryIcons = (page: Page, email: string) => rowOf(page, email).getByRole('img', { name: 'Primary user' });

/** Waits until no toast covers the page and every transition has ended, then saves a screenshot. */
async function screenshot(page: Page, file: string, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), null, { timeout: 15_000 });
  await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
  await page.screenshot({ path: `test-results/${file}`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Adds a user through the "New user" form, as the primary user does: no password is typed, the
 * new user is invited by mail to choose their own (docs/roles.md "Invitations").
 */
async function addUser(page: Page, user: { email: string }, first: string, last: string) {
  const form = page.getByRole('form', { name: 'New user' });
  expect(await form.getByRole('textbox', { name: 'Password', exact: true }).count()).toBe(0);
  await form.getByText('We will e-mail the new user a link to choose their own password.', { exact: false }).waitFor();
  await form.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
  await form.getByLabel('First name').fill(first);
  await form.getByLabel('Last name').fill(last);
  await form.getByRole('button', { name: 'Add user and send invitation' }).click();
  await page.getByText('The user was added. We e-mailed them a link to choose their password.').waitFor();
  await rowOf(page, user.email).getByText('Invited', { exact: true }).waitFor();
}

describe('account users and their roles (docs/roles.md; docs/requirements/screens.md "Admin account users", docs/requirements/behaviour.md, docs/requirements/errors.md)', () => {
  it('the primary user adds and edits users, cannot delete the primary user and deletes another after confirming', async () => {
    const { page } = s;
    ({ accountId } = await newAccountHolder(page, { ...HOLDER, name: 'Teton Track Boosters' }));

    await page.goto('/account');
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.waitForURL('**/app/account/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await rowOf(page, HOLDER.email).waitFor();
    expect(await primaryIcons(page, HOLDER.email).count()).toBe(1);

    // The create form: docs/requirements/entities.md defaults, then a new user found field by field by label.
    const form = page.getByRole('form', { name: 'New user' });
    expect(await form.getByRole('checkbox', { name: 'Bulk e-mails' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'Event e-mails' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'SMS messages' }).isChecked()).toBe(false);
    // Adding an ordinary user asks for no current password.
    expect(await form.getByLabel('Current password').count()).toBe(0);
    await form.getByLabel('Phone', { exact: true }).fill('(307) 555-0142');
    await addUser(page, PAT, 'Pat', 'Second');
    expect(await primaryIcons(page, PAT.email).count()).toBe(0);
    expect(await form.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe('');
    await rowOf(page, PAT.email)
      .getByRole('button', { name: `Resend invitation to ${PAT.email}` })
      .click();
    await page.getByText('We e-mailed a new invitation link. Earlier links no longer work.').waitFor();
    // The "Invited" mark and its button, as everyone must be able to read them (once the toasts left).
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), null, { timeout: 15_000 });
    expect(await axeFindings(page)).toEqual([]);

    // Edit: the row loads into the form; nobody types another user's password.
    await rowOf(page, PAT.email).getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('form', { name: 'Edit user' });
    expect(await edit.getByLabel('New password').count()).toBe(0);
    await edit.getByText('Pat has not chosen a password yet.', { exact: false }).waitFor();
    expect(await edit.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe(PAT.email);
    expect(await edit.getByLabel('Phone', { exact: true }).inputValue()).toBe('(307) 555-0142');
    await edit.getByLabel('First name').fill('Patricia');
    await edit.getByLabel('SMS phone').fill('307-555-0143');
    await edit.getByRole('checkbox', { name: 'SMS messages' }).check();
    expect(await edit.getByLabel('Current password').count()).toBe(0);
    await edit.getByRole('button', { name: 'Save user' }).click();
    await rowOf(page, PAT.email).getByText('Patricia Second').waitFor();
    expect(await edit.getByRole('checkbox', { name: 'SMS messages' }).isChecked()).toBe(true);

    // The primary user cannot be deleted (docs/requirements/errors.md).
    await rowOf(page, HOLDER.email)
      .getByRole('button', { name: /^Delete/ })
      .click();
    const warning = page.getByRole('dialog');
    await warning.getByText("Can't delete primary user.").waitFor();
    await warning.getByText('Please assign a new primary user to allow deletion.').waitFor();
    await warning.getByRole('button', { name: 'OK' }).click();
    await warning.waitFor({ state: 'detached' });

    // Deleting another user asks first; cancelling keeps them.
    await page.getByRole('button', { name: 'New user' }).first().click();
    await addUser(page, QUINN, 'Quinn', 'Third');
    await rowOf(page, QUINN.email)
      .getByRole('button', { name: /^Delete/ })
      .click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Are you sure?').waitFor();
    await confirm.getByText("You won't be able to revert this!").waitFor();
    await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
    await page.screenshot({ path: 'test-results/account-users-confirm-delete.png' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await rowOf(page, QUINN.email).count()).toBe(1);
    await rowOf(page, QUINN.email)
      .getByRole('button', { name: /^Delete/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete it!' }).click();
    await rowOf(page, QUINN.email).waitFor({ state: 'detached' });

    await rowOf(page, PAT.email).getByRole('button', { name: /^Edit/ }).click();
    await screenshot(page, 'account-users-primary-1280.png', 1280);
    await screenshot(page, 'account-users-primary-375.png', 375);
    expect(s.errors).toEqual([]);
  });

  it("the invited user sets their own password with the mailed link, then sees only their own row's edit and changes their e-mail with the current password", async () => {
    const { page } = pat;
    await signIn(staff.page, 'admin');
    const link = await invitationLinkFromOutbox(staff.page, PAT.email);
    expect(link).toContain('invitation=1');
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Set your password' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(PAT.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PAT.password);
    await page.getByLabel('Confirm password').fill(PAT.password);
    await screenshot(page, 'set-password-1280.png', 1280);
    await screenshot(page, 'set-password-375.png', 375);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/password'));
    await page.goto('/app/account/users');
    await rowOf(page, HOLDER.email).waitFor();
    await page.getByText('Only the primary user, ', { exact: false }).waitFor();

    // No controls they may not use: no New user, no Delete, no Edit on another row, no primary checkbox.
    expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);
    expect(
      await usersTable(page)
        .getByRole('button', { name: /^Delete/ })
        .count(),
    ).toBe(0);
    expect(await rowOf(page, HOLDER.email).getByRole('button').count()).toBe(0);
    expect(await rowOf(page, PAT.email).getByRole('button', { name: /^Edit/ }).count()).toBe(1);
    const form = page.getByRole('form', { name: 'Edit user' });
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    expect(await form.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe(PAT.email);
    expect(await form.getByRole('checkbox', { name: 'Make this the primary user' }).count()).toBe(0);
    expect(await form.getByLabel('Current password').count()).toBe(0);
    await screenshot(page, 'account-users-member-1280.png', 1280);
    await screenshot(page, 'account-users-member-375.png', 375);
    expect(await axeFindings(page)).toEqual([]);

    // A new e-mail address asks for the current password, and the form will not send without it.
    await form.getByRole('textbox', { name: 'E-mail' }).fill(PAT_NEW_EMAIL);
    const current = form.getByLabel('Current password');
    await current.waitFor();
    await form.getByRole('button', { name: 'Save user' }).click();
    await form.getByText('Enter your current password to confirm this change.').waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await current.fill('Not-my-password-1');
    await form.getByRole('button', { name: 'Save user' }).click();
    await form.getByText('The current password is incorrect.').waitFor();
    await current.fill(PAT.password);
    await page.screenshot({ path: 'test-results/account-users-member-email.png', fullPage: true });
    await form.getByRole('button', { name: 'Save user' }).click();
    await rowOf(page, PAT_NEW_EMAIL).waitFor();
    // Still signed in: this session was kept.
    await page.reload();
    await rowOf(page, PAT_NEW_EMAIL).waitFor();
    expect(page.url()).toContain('/app/account/users');
    expect(pat.errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  });

  it('the primary user transfers primary with their password, and then sees what any other user sees', async () => {
    const { page } = s;
    await page.goto('/app/account/users');
    await rowOf(page, PAT_NEW_EMAIL).getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('form', { name: 'Edit user' });
    await edit.getByRole('checkbox', { name: 'Make this the primary user' }).check();
    await edit.getByText('You will no longer be the primary user.').waitFor();
    const current = edit.getByLabel('Current password');
    await current.waitFor();
    await edit.getByText('Your own password, to confirm this change.').waitFor();
    await current.fill(HOLDER.password);
    await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
    await page.screenshot({ path: 'test-results/account-users-transfer.png', fullPage: true });
    await edit.getByRole('button', { name: 'Save user' }).click();

    // The star moves; the former primary user keeps their session but no longer manages users.
    await primaryIcons(page, PAT_NEW_EMAIL).waitFor();
    expect(await primaryIcons(page, HOLDER.email).count()).toBe(0);
    await page.getByText('Only the primary user, Patricia Second,', { exact: false }).waitFor();
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);
    expect(
      await usersTable(page)
        .getByRole('button', { name: /^Delete/ })
        .count(),
    ).toBe(0);
    expect(await rowOf(page, PAT_NEW_EMAIL).getByRole('button').count()).toBe(0);

    // The new primary user was signed out elsewhere: their next page asks them to sign in.
    await pat.page.goto('/app/account/users');
    await pat.page.waitForURL('**/login**');
    expect(s.errors).toEqual([]);
  });

  it('staff open the same page for the account with every control and no current password', async () => {
    const { page } = staff;
    // Signed in since the invitation was read from the outbox.
    await page.goto(`/app/account/users?account_id=${accountId}`);
    await page.getByText('People who can sign in for Teton Track Boosters.').waitFor();
    await primaryIcons(page, PAT_NEW_EMAIL).waitFor();
    await page.getByRole('button', { name: 'New user' }).waitFor();
    expect(
      await usersTable(page)
        .getByRole('button', { name: /^Delete/ })
        .count(),
    ).toBe(2);
    await rowOf(page, HOLDER.email).getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('form', { name: 'Edit user' });
    await edit.getByRole('textbox', { name: 'E-mail' }).fill('teton.holder@example.com');
    await edit.getByRole('checkbox', { name: 'Make this the primary user' }).waitFor();
    expect(await edit.getByLabel('Current password').count()).toBe(0);
    await edit.getByRole('button', { name: 'Save user' }).click();
    await rowOf(page, 'teton.holder@example.com').waitFor();
    expect(staff.errors).toEqual([]);
  });
});
