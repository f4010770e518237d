import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { accounts, groups, groupUsers, users } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { seedDemo } from '../../src/server/db/seed/seed.ts';
import { limitSettingsAt } from '../../src/server/modules/limits/limit-rules.ts';
import { GROUP_WORKSPACE_TEXT } from '../../src/shared/schemas/group-workspace.ts';
import { axeFindings } from './support/axe.ts';
import { openBrowser, screenshotBothWidths, type Session } from './support/browser.ts';
import { startProductServer, type ProductServer } from './support/product-server.ts';
import type { Page } from 'playwright-core';

/*
 * A central organization's workspace (docs/roles.md "Central organizations") in Chromium, on a
 * server of its own whose database this file seeds with the factories before it starts: the demo
 * data (GEN 5271 and its IRS extract, staff, the demo holder), a second group, its manager and a
 * viewer, neither of whom has an account. The manager signs in and lands on the workspace, checks a
 * CSV of real EINs and downloads the standings, invites a user (a refusal under its field first),
 * removes them after confirming, and is refused removing the last manager; sees its member groups'
 * supervision reports and sends this year's compliance education notice; the viewer reads the
 * users with no form and no buttons, and sees the notice sent; staff open the workspace from the annual GEN update.
 * Screenshots go to test-results/screens/group-workspace/.
 */

const STAFF = { email: 'workspace.staff@e2e.test', password: 'Staff#Workspace-2026' };
const HOLDER = { email: 'workspace.holder@e2e.test', password: 'H0lder#Workspace-2026' };
const MANAGER = { email: 'morgan.manager@e2e.test', password: 'Manager#Group-2026', first: 'Morgan', last: 'Manager' };
const VIEWER = { email: 'val.viewer@e2e.test', password: 'Viewer#Group-2026', first: 'Val', last: 'Viewer' };
const INVITED = { email: 'riley.invited@e2e.test', first: 'Riley', last: 'Invited' };
const GROUP = {
  label: 'Prairie State Parent Boosters group exemption',
  gen: '4482',
  centralName: 'Prairie State Parent Boosters Inc',
};
/** Chapters of GEN 5271 in the IRS extract the demo seed loads (src/server/db/seed/irs-eo-bmf-gen-5271.csv). */
const EINS = [
  ['87-3240715', 'POWERHOUSE ACADEMY CHEER BOOSTER'],
  ['39-3095719', 'SOLDOTNA TRACK AND RUNNING BOOSTER'],
  ['33-2182308', 'CHS LADY KNIGHTS FLAG FOOTBALL'],
] as const;
/** The group's member groups, and the e-mail of the one user of the first. */
const MEMBERS = [
  ['Springfield North Band Boosters', 'north.band@e2e.test'],
  ['Springfield South Choir Boosters', null],
] as const;
/** What the browser logs for the refusals these tests provoke on purpose (a 404 group, a 409, a 422). */
const EXPECTED_REFUSALS = /status of (404|409|422)/;

let server: ProductServer;
let groupId = 0;
/** The demo seed's group (GEN 5271): it exists, and neither the manager nor the viewer is one of its users. */
let otherGroupId = 0;
const sessions: Session[] = [];
const browse = async () => {
  const s = await openBrowser(server.baseUrl);
  sessions.push(s);
  return s;
};

/**
 * The test's data, written with the factories into the data directory before the server starts:
 * the demo seed as a first start writes it, then the group and its two users.
 */
async function seedWorkspace(dataDir: string) {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    await database.migrate();
    const { db } = database;
    await seedDemo(db, {
      adminEmail: STAFF.email,
      adminPassword: STAFF.password,
      demoEmail: HOLDER.email,
      demoPassword: HOLDER.password,
    });
    const [demoGroup] = await db.select({ id: groups.id }).from(groups).where(eq(groups.gen, '5271'));
    otherGroupId = demoGroup.id;
    const [group] = await db.insert(groups).values(GROUP).returning({ id: groups.id });
    groupId = group.id;
    for (const [person, role] of [
      [MANAGER, 'manager'],
      [VIEWER, 'viewer'],
    ] as const) {
      const user = await createUser(db, { email: person.email, password: person.password, firstName: person.first });
      await db.update(users).set({ lastName: person.last }).where(eq(users.id, user.id));
      await db.insert(groupUsers).values({ groupId, userId: user.id, role });
    }
    // Two member groups; one has a user, whom the compliance education notice reaches.
    for (const [name, officer] of MEMBERS) {
      const account = await createAccount(db, { name, city: 'Springfield', state: 'IL' });
      await db.update(accounts).set({ groupId }).where(eq(accounts.id, account.id));
      if (officer) await createUser(db, { email: officer, password: 'Officer#Group-2026', accountId: account.id });
    }
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  server = await startProductServer(
    {
      RATE_LIMIT_FORMS_PER_MINUTE: '1000',
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
      ...limitSettingsAt(100_000),
    },
    { prepare: seedWorkspace },
  );
});
afterAll(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await server?.stop();
});

/**
 * Signs in through the sign-in page as a person would. @returns the path of the first page the
 * browser then loads (where the server sent them), once it has left the sign-in page
 */
async function signInAs(page: Page, who: { email: string; password: string }): Promise<string> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(who.password);
  const landed = page.waitForRequest(
    (r) => r.isNavigationRequest() && r.method() === 'GET' && !new URL(r.url()).pathname.startsWith('/login'),
  );
  await page.getByRole('button', { name: 'Sign in' }).click();
  const first = new URL((await landed).url()).pathname;
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return first;
}

const usersTable = (page: Page) => page.getByRole('table', { name: 'Users of the group' });
const rowOf = (page: Page, email: string) => usersTable(page).getByRole('row').filter({ hasText: email });

/** Waits until no toast covers the page and every transition has ended. */
async function settle(page: Page) {
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), null, { timeout: 15_000 });
  await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
}

describe('the central organization’s workspace (docs/roles.md "Central organizations")', () => {
  it('a manager lands on it, checks a CSV of EINs, invites a user and removes them after confirming', async () => {
    const { page, errors } = await browse();
    expect(await signInAs(page, MANAGER)).toBe('/app/group');
    // One group: /app/group goes straight on to it.
    await page.waitForURL(`**/app/group/${groupId}`);
    await page.getByRole('heading', { level: 1, name: GROUP.label }).waitFor();
    await page.getByText(`GEN ${GROUP.gen} · ${GROUP.centralName}`).waitFor();
    await page.getByText('Your role: Manager').waitFor();

    // Checking the chapters' EINs: upload, wait for the download, read the CSV.
    const checks = page.getByRole('region', { name: 'Check a list of EINs' });
    await checks.getByText('download each one’s standing with the IRS', { exact: false }).waitFor();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      checks.getByRole('button', { name: /CSV file of EINs/ }).click(),
    ]);
    await chooser.setFiles({
      name: 'our-chapters.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`EIN\n${EINS.map(([ein]) => ein).join('\n')}\n`),
    });
    await checks.getByRole('button', { name: 'Check the EINs' }).click();
    const download = checks.getByRole('link', { name: `Download the standings of ${EINS.length} EINs (CSV)` });
    await download.waitFor();
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const rows = parse(fs.readFileSync((await file.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.EIN, r.Name]).sort()).toEqual(EINS.map(([ein, name]) => [ein, name]).sort());
    for (const row of rows) expect(row.Standing, row.EIN).not.toMatch(/^$|Not found/);
    await checks.getByRole('cell', { name: 'our-chapters.csv' }).waitFor();

    // Supervision: the member groups' reports, and this year's notice sent once after confirming.
    const supervision = page.getByRole('region', { name: 'Supervision of your member groups' });
    const statusTable = supervision.getByRole('table', { name: /^Supervision status for tax year \d{4}$/ });
    for (const [name] of MEMBERS)
      await statusTable.getByRole('row').filter({ hasText: name }).getByText('Missing').waitFor();
    await supervision.getByLabel('Search').fill('north');
    await supervision.getByRole('button', { name: 'Search' }).click();
    await statusTable.getByRole('row').filter({ hasText: MEMBERS[1][0] }).waitFor({ state: 'detached' });
    await statusTable.getByRole('row').filter({ hasText: MEMBERS[0][0] }).waitFor();
    const year = new Date().getFullYear();
    await supervision.getByRole('button', { name: `Send the ${year} compliance education notice` }).click();
    const confirm = page.getByRole('dialog', { name: `Send the ${year} compliance education notice?` });
    await confirm.getByText('This e-mails 1 users of 2 member groups', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Send the notice' }).click();
    await supervision.getByText(`by ${MANAGER.email} to 1 users.`, { exact: false }).waitFor();

    // The users: both seeded users are active.
    await rowOf(page, MANAGER.email).getByText('Active').waitFor();
    await rowOf(page, VIEWER.email).getByText('Active').waitFor();

    // Inviting: a person already of the group is refused under the field, then a new person is invited.
    const form = page.getByRole('form', { name: 'Invite a user' });
    await form.getByLabel('E-mail').fill(VIEWER.email);
    await form.getByLabel('First name').fill(VIEWER.first);
    await form.getByLabel('Last name').fill(VIEWER.last);
    await form.getByRole('button', { name: 'Send the invitation' }).click();
    await form.getByText(GROUP_WORKSPACE_TEXT.alreadyUser).waitFor();
    await form.getByLabel('E-mail').fill(INVITED.email);
    await form.getByLabel('First name').fill(INVITED.first);
    await form.getByLabel('Last name').fill(INVITED.last);
    await form.getByLabel('Role').selectOption({ label: 'Viewer' });
    await form.getByRole('button', { name: 'Send the invitation' }).click();
    await form.getByText(GROUP_WORKSPACE_TEXT.invited(INVITED.email)).waitFor();
    await rowOf(page, INVITED.email)
      .getByText(/^Invitation sent /)
      .waitFor();
    expect(await form.getByLabel('E-mail').inputValue()).toBe('');
    await settle(page);
    await screenshotBothWidths(page, 'group-workspace', 'manager');
    expect(await axeFindings(page)).toEqual([]);

    // Removing asks first; cancelling keeps the user.
    await rowOf(page, INVITED.email)
      .getByRole('button', { name: `Remove ${INVITED.email}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Remove this user?' });
    await dialog.getByText(`${INVITED.first} ${INVITED.last} (${INVITED.email}) will no longer be able`).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await rowOf(page, INVITED.email).waitFor();
    await rowOf(page, INVITED.email)
      .getByRole('button', { name: `Remove ${INVITED.email}` })
      .click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.getByText(GROUP_WORKSPACE_TEXT.removed(INVITED.email)).waitFor();
    await rowOf(page, INVITED.email).waitFor({ state: 'detached' });

    // The last manager cannot go: the refusal says what to do.
    await rowOf(page, MANAGER.email)
      .getByRole('button', { name: `Remove ${MANAGER.email}` })
      .click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('alert').filter({ hasText: GROUP_WORKSPACE_TEXT.lastManager }).waitFor();
    await rowOf(page, MANAGER.email).waitFor();

    // The way back in from the group's home.
    await page.goto('/app');
    const card = page.getByRole('region', { name: 'Your central organization’s workspace' });
    await card.getByRole('link', { name: 'Open the workspace' }).click();
    await page.waitForURL(`**/app/group/${groupId}`);
    await page.getByRole('heading', { level: 1, name: GROUP.label }).waitFor();
    expect(errors.filter((e) => !EXPECTED_REFUSALS.test(e))).toEqual([]);
  });

  it('a viewer reads the users, with no invitation form and no buttons; another group is not found', async () => {
    const { page, errors } = await browse();
    expect(await signInAs(page, VIEWER)).toBe('/app/group');
    await page.waitForURL(`**/app/group/${groupId}`);
    await page.getByText('Your role: Viewer').waitFor();
    await rowOf(page, MANAGER.email).waitFor();
    await rowOf(page, VIEWER.email).waitFor();
    await page.getByText('Only a manager of the group can invite or remove users.').waitFor();
    expect(await page.getByRole('form', { name: 'Invite a user' }).count()).toBe(0);
    expect(await usersTable(page).getByRole('button').count()).toBe(0);
    // A viewer sees that the notice went out, and cannot send it.
    const supervision = page.getByRole('region', { name: 'Supervision of your member groups' });
    await supervision.getByText(`by ${MANAGER.email} to 1 users.`, { exact: false }).waitFor();
    expect(await supervision.getByRole('button', { name: /compliance education notice/ }).count()).toBe(0);
    // A viewer checks EINs too.
    await page
      .getByRole('region', { name: 'Check a list of EINs' })
      .getByRole('cell', { name: 'our-chapters.csv' })
      .waitFor();
    await settle(page);
    await screenshotBothWidths(page, 'group-workspace', 'viewer');
    expect(await axeFindings(page)).toEqual([]);

    // A group of which the viewer is no user reads as one that does not exist.
    await page.goto(`/app/group/${otherGroupId}`);
    await page.getByRole('heading', { name: 'This group could not be found.' }).waitFor();
    await screenshotBothWidths(page, 'group-workspace', 'not-found');
    expect(errors.filter((e) => !EXPECTED_REFUSALS.test(e))).toEqual([]);
  });

  it('staff open the workspace from the annual GEN update; the demo holder has no workspace', async () => {
    const { page, errors } = await browse();
    expect(await signInAs(page, STAFF)).toBe('/admin');
    await page.goto('/admin/gen-update');
    await page.getByLabel('Group exemption').selectOption({ label: `GEN ${GROUP.gen}: ${GROUP.label}` });
    await page.waitForURL(`**/admin/gen-update?group_id=${groupId}`);
    await page.getByRole('link', { name: 'Open the central organization’s workspace' }).click();
    await page.waitForURL(`**/app/group/${groupId}`);
    await page.getByRole('heading', { level: 1, name: GROUP.label }).waitFor();
    await page.getByText('Your role: Staff').waitFor();
    await page.getByRole('form', { name: 'Invite a user' }).waitFor();
    await rowOf(page, MANAGER.email)
      .getByRole('button', { name: `Remove ${MANAGER.email}` })
      .waitFor();

    const holder = await browse();
    expect(await signInAs(holder.page, HOLDER)).toBe('/app');
    await holder.page.getByRole('heading', { level: 1 }).first().waitFor();
    await holder.page.waitForLoadState('networkidle');
    expect(await holder.page.getByRole('region', { name: 'Your central organization’s workspace' }).count()).toBe(0);
    await holder.page.goto('/app/group');
    await holder.page.getByText('You are not a user of any central organization’s workspace.').waitFor();
    await holder.page.getByText('Ask GoodStanding’s staff, or a manager', { exact: false }).waitFor();
    expect(errors).toEqual([]);
    expect(holder.errors).toEqual([]);
  });
});
