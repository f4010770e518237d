import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitationLinkFromOutbox, newAccountHolder } from './support/accounts.ts';
import { axeFindings } from './support/axe.ts';
import { openBrowser, screenshotBothWidths, signIn, type Session } from './support/browser.ts';

/**
 * "This was not me" (docs/roles.md "Invitations"): a primary user adds a stranger's address; the
 * stranger opens the link of the invitation mail, sees what pressing the button does, presses it,
 * and the invitation is over: the account's list no longer has the address. Opening the page
 * changed nothing; pressing the button again answers the same.
 */

let holder: Session;
let staff: Session;
let stranger: Session;
beforeAll(async () => {
  [holder, staff, stranger] = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([holder?.close(), staff?.close(), stranger?.close()]);
});

const HOLDER = { email: 'notme.e2e.holder@example.com', password: 'Holder#NotMe-2026' };
const STRANGER = 'notme.e2e.stranger@example.com';

describe('"This was not me" in an invitation mail', () => {
  it('the invited person ends the invitation with one button; the address leaves the account', async () => {
    const { page } = holder;
    await newAccountHolder(page, { ...HOLDER, name: 'Sheridan Swim Boosters' });
    await page.goto('/app/account/users');
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByRole('textbox', { name: 'E-mail' }).fill(STRANGER);
    await form.getByLabel('First name').fill('Sam');
    await form.getByLabel('Last name').fill('Stranger');
    await form.getByRole('button', { name: 'Add user and send invitation' }).click();
    await page.getByText('The user was added. We e-mailed them a link to choose their password.').waitFor();
    const users = page.getByRole('table', { name: 'Users' });
    await users.getByRole('row').filter({ hasText: STRANGER }).waitFor();

    await signIn(staff.page, 'admin');
    const link = await invitationLinkFromOutbox(staff.page, STRANGER, 'not-me');
    expect(link).toMatch(/^\/invitation\/not-me\/[A-Za-z0-9_-]{22}$/);

    // Opening the page ends nothing: the address is still on the account.
    const p = stranger.page;
    await p.goto(link);
    await p.getByRole('heading', { level: 1, name: 'This was not me' }).waitFor();
    await p.getByText('the link to choose a password stops working;').waitFor();
    const end = p.getByRole('button', { name: 'End this invitation' });
    await end.waitFor();
    await page.reload();
    await users.getByRole('row').filter({ hasText: STRANGER }).waitFor();
    expect(await axeFindings(p)).toEqual([]);
    await screenshotBothWidths(p, 'invitation-not-me', 'page');

    await end.click();
    const done = p.getByRole('status').filter({ hasText: 'Invitation ended' });
    await done.waitFor();
    await done.getByText('its link to choose a password no longer works, and our staff have been told.').waitFor();
    expect(await end.count()).toBe(0);
    await screenshotBothWidths(p, 'invitation-not-me', 'ended');

    await page.reload();
    await users.getByRole('row').filter({ hasText: HOLDER.email }).waitFor();
    expect(await users.getByRole('row').filter({ hasText: STRANGER }).count()).toBe(0);

    // The same link again: the same page, the same answer, nothing to tell apart.
    await p.goto(link);
    await p.getByRole('button', { name: 'End this invitation' }).click();
    await p.getByRole('status').filter({ hasText: 'Invitation ended' }).waitFor();
    expect([...holder.errors, ...stranger.errors]).toEqual([]);
  });
});
