import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, type Session } from './support/browser.ts';

const RECEIVED = "Your message has been received. We'll get back with you shortly.";
let s: Session;

beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s.close();
});

async function expectSuccessDialog() {
  const dialog = s.page.getByRole('dialog');
  await dialog.getByText('Success!').waitFor();
  expect(await dialog.getByText(RECEIVED).isVisible()).toBe(true);
  await s.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

const events = () => s.page.evaluate(() => (window.dataLayer ?? []).map((e) => `${e.event}:${e.form}`));

describe('public forms, as a visitor fills them in', () => {
  it('contact: a missing subject is shown under the field, then the message is sent', async () => {
    const { page } = s;
    await page.goto('/contact');
    await page.getByRole('heading', { name: "Let's talk" }).waitFor();
    await page.getByLabel('Name').fill('Pat Parent');
    await page.getByLabel('E-mail').fill('pat.parent@example.com');
    await page.getByLabel('Organization').fill('Eagle River Hockey Boosters');
    await page.getByLabel('Message').fill('How do we register in Alaska?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('The subject field is required.').waitFor();
    expect(await page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);
    await page.getByLabel('Subject').selectOption('State registration');
    expect(await page.getByText('The subject field is required.').count()).toBe(0);
    await page.getByRole('button', { name: 'Send message' }).click();
    await expectSuccessDialog();
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    expect(await events()).toContain('form_submitted:contact');
  });

  it('compliance check: an EIN in the wrong shape is refused, the right one accepted', async () => {
    const { page } = s;
    await page.goto('/compliance-check');
    await page.getByRole('heading', { name: /at risk for revocation/ }).waitFor();
    // The review request, beneath the instant check (which has a box of its own).
    const review = page.getByRole('form', { name: 'Free compliance check' });
    await review.getByLabel('Name').fill('Chris Treasurer');
    await review.getByLabel('E-mail').fill('chris@example.com');
    await review.getByLabel('Phone').fill('(907) 555-0100');
    await review.getByLabel('Organization').fill('Soldotna Track Boosters');
    await review.getByLabel('EIN').fill('12345');
    await review.getByLabel('IRS group exemption number (optional)').fill('5271');
    await review.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('The EIN must be 9 digits, like 12-3456789.').waitFor();
    await review.getByLabel('EIN').fill('39-3095719');
    await review.getByRole('button', { name: 'Submit' }).click();
    await expectSuccessDialog();
    expect(await events()).toContain('form_submitted:compliance_check');
  });

  it('multi-chapter inquiry', async () => {
    const { page } = s;
    await page.goto('/multi-chapter');
    await page.getByLabel('Name').fill('Morgan National');
    await page.getByLabel('E-mail').fill('morgan@national.example');
    await page.getByLabel('Phone').fill('555-010-2000');
    await page.getByLabel('Organization').fill('National Booster Federation');
    await page.getByLabel('Number of affiliates').fill('120');
    await page.getByLabel('Nationwide or regional').selectOption('nationwide');
    await page.getByLabel('Biggest concerns').fill('Chapters missing their 990-N.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectSuccessDialog();
  });

  it('campus report', async () => {
    const { page } = s;
    await page.goto('/campus-report');
    await page.getByLabel('E-mail').fill('advisor@uwyo.example');
    await page.getByRole('textbox', { name: 'Campus', exact: true }).fill('University of Wyoming');
    await page.getByRole('button', { name: 'Send me the report' }).click();
    await expectSuccessDialog();
    expect(s.errors).toEqual([]);
  });

  it('the admin sees every submission in the inbox, marks one handled, and reads the mails in the outbox', async () => {
    const admin = await openBrowser();
    try {
      const { page } = admin;
      await signIn(page, 'admin');
      await page.goto('/admin/inquiries');
      const table = page.getByRole('table', { name: 'Inquiries' });
      await table.waitFor();
      for (const who of ['Pat Parent', 'Chris Treasurer', 'Morgan National', 'advisor@uwyo.example']) {
        await table.getByText(who, { exact: false }).first().waitFor();
      }
      await page.getByLabel('Kind').selectOption('campus_report');
      await expect.poll(() => table.getByText('Pat Parent').count()).toBe(0);
      await table.getByText('advisor@uwyo.example').waitFor();

      await page.getByLabel('Kind').selectOption('contact');
      // The campus reports stay on screen until the contact messages arrive: wait for them to go.
      await expect.poll(() => table.getByText('advisor@uwyo.example').count()).toBe(0);
      await table
        .getByRole('row', { name: /Pat Parent/ })
        .getByRole('link')
        .first()
        .click();
      await page.getByRole('heading', { name: /Contact #\d+/ }).waitFor();
      await page.getByText('How do we register in Alaska?').waitFor();
      await page.getByRole('button', { name: 'Mark as handled' }).click();
      await page.getByRole('button', { name: 'Mark as new' }).waitFor();

      await page.goto('/admin/outbox');
      const mails = page.getByRole('table', { name: 'Mails' });
      await mails.waitFor();
      await mails.getByText('pat.parent@example.com').first().waitFor();
      await mails
        .getByRole('link', { name: /We received your message/ })
        .first()
        .click();
      await page.getByText(/Thank you for contacting GoodStanding/).waitFor();
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.close();
    }
  });
});
