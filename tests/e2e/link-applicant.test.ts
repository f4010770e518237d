import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleAnswers } from '../../src/server/db/seed/wizard-schemas.ts';
import { forgetSession, openBrowser, screenshotBothWidths, signIn, type Session } from './support/browser.ts';

/**
 * An applicant whose EIN is a group imported from the IRS data (docs/wizard.md "An EIN that
 * already has an account", docs/work-queue.md "Applicants to link"). The e2e server holds GEN
 * 5271's subordinates from the shipped BMF extract, none with a user; this test's applicant gives
 * the EIN of one of them (Highland East Cheer Booster, 88-3979071, which no other test uses).
 * Submit shows the whole refusal; staff find the item under "Applicant to link", see whom to
 * contact, link the applicant after confirming; the applicant signs in and finds their group's
 * home with the first invoice.
 */

const APPLICANT = { email: 'link.applicant@example.com', password: 'Applicant#Link-2026' };
const EIN = '88-3979071';

let applicant: Session;
let staff: Session;
beforeAll(async () => {
  [applicant, staff] = await Promise.all([openBrowser(), openBrowser()]);
});
afterAll(async () => {
  await Promise.all([applicant?.close(), staff?.close()]);
});

describe('linking an applicant to a group imported from the IRS data', () => {
  it('Submit is refused and staff told; staff link the applicant; the applicant signs in to the group home with its invoice', async () => {
    const { page } = applicant;
    // Start a start-up application and save every page with valid answers, as Next (and the last page's save) would.
    await page.goto('/pricing');
    const answers = sampleAnswers('start-up', {
      account___has_ein: 1,
      account___ein: EIN,
      contact___president_first_name: 'Marisol',
      contact___president_last_name: 'Quintero',
    });
    const token = await page.evaluate(
      async ({ answers, email, password }) => {
        const headers = (csrf: string) => ({
          'Content-Type': 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
          'X-CSRF-TOKEN': csrf,
        });
        const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
        const { levels } = (await (await fetch('/api/pricing')).json()) as { levels: { id: number; slug: string }[] };
        const started = await fetch('/application/start', {
          method: 'POST',
          headers: headers(meta),
          body: JSON.stringify({ email, password, level_id: levels.find((l) => l.slug === 'start-up')!.id }),
        });
        const { token, csrfToken } = (await started.json()) as { token: string; csrfToken: string };
        const view = (await (await fetch(`/api/applications/${token}`, { headers: headers(csrfToken) })).json()) as {
          config: { schemas: unknown[] };
        };
        for (let p = 1; p <= view.config.schemas.length; p++) {
          const res = await fetch(`/application/create/${token}`, {
            method: 'PUT',
            headers: headers(csrfToken),
            body: JSON.stringify({ page: p, ...answers }),
          });
          if (res.status !== 200) throw new Error(`page ${p}: ${res.status} ${await res.text()}`);
        }
        return token;
      },
      { answers, ...APPLICANT },
    );

    // The wizard resumes at its last page; Submit shows the whole refusal.
    await page.goto(`/application/create/${token}`);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'An organization with this EIN already has an account. Please contact us so we can link you to it. Our staff have been told and will contact you.',
      })
      .waitFor();

    await signIn(staff.page, 'admin');
    await staff.page.goto('/admin/work-queue');
    // As on a live server after the IRS data refresh, the queue holds the roster items before the
    // link (the group's "On the roster, no membership" item stays open, as items do), so the
    // queue's other browser test counts the same items whichever test runs first.
    await staff.page.getByRole('button', { name: 'Find new items' }).click();
    await staff.page.getByText(/^(\d[\d,]* new items?: .+|Nothing new was found\.)$/).waitFor();
    await staff.page.getByRole('tab', { name: /Applicant to link/ }).click();
    await staff.page.waitForURL((u) => u.searchParams.get('kind') === 'link_request');
    const row = staff.page.getByRole('table', { name: 'Work items' }).getByRole('row').filter({ hasText: '883979071' });
    // The list names no person.
    expect(await row.innerText()).not.toContain('Marisol');
    expect(await row.innerText()).not.toContain(APPLICANT.email);
    await row.getByRole('button', { name: /^Open the item Applicant to link for / }).click();
    const drawer = staff.page.getByRole('dialog');
    const who = drawer.getByRole('region', { name: 'The applicant' });
    await who.getByRole('link', { name: APPLICANT.email }).waitFor();
    await who.getByText('President: Marisol Quintero').waitFor();
    // Linking replaces Resolve while the item is open.
    expect(await drawer.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    await screenshotBothWidths(staff.page, 'link', 'work-queue-link-request');

    await drawer.getByRole('button', { name: 'Link the applicant' }).click();
    const confirm = staff.page.getByRole('dialog', { name: 'Link the applicant' });
    await confirm.getByText(/becomes the primary user of/).waitFor();
    await confirm.getByRole('button', { name: 'Link the applicant' }).click();
    await staff.page
      .getByText(
        'The applicant is now the primary user of the account, with its first invoice; they were told by mail.',
      )
      .waitFor();
    await drawer.getByText(/^Resolved .+: Applicant linked as the primary user; invoice GS-\d{6}\.$/).waitFor();
    await drawer.getByText('Applicant linked as the primary user', { exact: true }).waitFor();
    await screenshotBothWidths(staff.page, 'link', 'work-queue-link-request-linked');

    await forgetSession(page);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(APPLICANT.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(APPLICANT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/app');
    await page.getByRole('heading', { level: 1, name: 'HIGHLAND EAST CHEER BOOSTER INC' }).waitFor();
    const invoices = page.getByRole('region', { name: 'Invoices to pay' });
    await invoices.getByRole('link', { name: /^Invoice GS-\d{6}$/ }).waitFor();
    await invoices.getByRole('link', { name: /^Pay \$/ }).waitFor();
    await screenshotBothWidths(page, 'link', 'home-after-link');

    // The refused Submit is the one failed request the browser reports.
    expect(applicant.errors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
    expect(staff.errors).toEqual([]);
  });
});
