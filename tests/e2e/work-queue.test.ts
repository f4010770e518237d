import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, type Session } from './support/browser.ts';

/**
 * Admin → Work queue (docs/work-queue.md). The e2e server holds the demo seed:
 * GEN 5271's 806 subordinates from the April 2026 BMF, none with a membership but those another
 * browser test gave a user (the e2e files share one server). Staff open the page
 * from the admin navigation, ask it to find new items, open the "On the roster, no membership"
 * tab, open an item, assign it to themselves, add a note, resolve it (a missing resolution is
 * refused first), and find it under the resolved items.
 */

/** GEN 5271 subordinates that another browser test gives a user: tests/e2e/filing-extensions.test.ts. */
const GIVEN_A_USER_ELSEWHERE = ['824433738'];

let staff: Session;
beforeAll(async () => {
  staff = await openBrowser();
});
afterAll(async () => {
  await staff?.close();
});

describe('/admin/work-queue', () => {
  it('finds the roster entries with no membership, and an item is assigned, noted and resolved', async () => {
    const { page } = staff;
    await signIn(page, 'admin');
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Work queue' }).click();
    await page.waitForURL('**/admin/work-queue');
    await page.getByRole('heading', { level: 1, name: 'Work queue' }).waitFor();

    await page.getByRole('button', { name: 'Find new items' }).click();
    await page.getByText(/^(\d[\d,]* new items?: .+|Nothing new was found\.)$/).waitFor();
    const tab = page.getByRole('tab', { name: /On the roster, no membership/ });
    await tab.click();
    await page.waitForURL((u) => u.searchParams.get('kind') === 'roster_no_membership');
    // The tab's badge counts the open items of its kind: the 806 subordinates of GEN 5271, less
    // those that have a user by now.
    const withUsers = await page.evaluate(async (eins) => {
      let count = 0;
      for (const ein of eins) {
        const found = (await (
          await fetch(`/api/admin/accounts?search=${ein}`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } })
        ).json()) as { data: { users_count: number }[] };
        // Admin → Accounts lists an account imported from the IRS data once it has a user.
        if (found.data.some((a) => a.users_count > 0)) count += 1;
      }
      return count;
    }, GIVEN_A_USER_ELSEWHERE);
    await page.getByRole('tab', { name: new RegExp(`On the roster, no membership\\s*${806 - withUsers}$`) }).waitFor();
    const table = page.getByRole('table', { name: 'Work items' });
    await table.waitFor();
    await page.screenshot({ path: 'test-results/admin-work-queue.png', fullPage: true });

    const firstRow = table.getByRole('row').nth(1);
    const name = (await firstRow.getByRole('link').first().innerText()).trim();
    expect(await firstRow.getByRole('link').first().getAttribute('href')).toMatch(/^\/admin\/accounts\/show\/\d+$/);
    expect(await firstRow.innerText()).toContain('On the roster of GEN 5271; no user has joined for it.');
    await firstRow.getByRole('button', { name: `Open the item On the roster, no membership for ${name}` }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('link', { name }).waitFor();

    await drawer.getByRole('button', { name: 'Assign to me' }).click();
    await page.getByText(/^The item was assigned to .+\.$/).waitFor();

    await drawer.getByLabel('Note', { exact: true }).fill('Asked the booster club whether it still meets.');
    await drawer.getByRole('button', { name: 'Add note' }).click();
    await drawer.getByText('Asked the booster club whether it still meets.', { exact: true }).waitFor();

    await drawer.getByRole('button', { name: 'Resolve' }).click();
    await drawer.getByText('The resolution field is required.').waitFor();
    await drawer.getByLabel('Resolution', { exact: true }).fill('Invited to join; stays on the roster.');
    await drawer.getByRole('button', { name: 'Resolve' }).click();
    await drawer.getByRole('button', { name: 'Reopen' }).waitFor();
    await drawer.getByText(/^Resolved .+: Invited to join; stays on the roster\.$/).waitFor();
    await drawer.getByText('Resolved: Invited to join; stays on the roster.').waitFor();
    await page.screenshot({ path: 'test-results/admin-work-queue-item.png', fullPage: true });

    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await page.getByLabel('Status').selectOption('resolved');
    await page.waitForURL((u) => u.searchParams.get('status') === 'resolved');
    await table.getByRole('link', { name }).waitFor();
    await page.getByRole('tab', { name: /On the roster, no membership\s*1/ }).waitFor();

    expect(staff.errors).toEqual([]);
  });
});
