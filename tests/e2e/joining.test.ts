import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleAnswers, WIZARD_SCHEMAS, type WizardLevelSlug } from '../../src/server/db/seed/wizard-schemas.ts';
import { isFieldShown, optionPairs, type FieldDefinition } from '../../src/shared/forms/field-definition.ts';
import { valueFields } from '../../src/shared/forms/rules.ts';
import { PDF_MINIMAL, WINDOWS_EXE } from '../helpers/files.ts';
import { forgetSession, openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field by its visible label; the required star after it is not part of the label's words. */
const byLabel = (page: Page, label: string) => page.getByLabel(new RegExp(`^\\s*${escape(label)}\\s*\\*?\\s*$`));

/** Fills one wizard page as a person would, from the sample answers, field by field by label. */
async function fillPage(page: Page, defs: FieldDefinition[], answers: Record<string, unknown>) {
  for (const def of valueFields(defs)) {
    if (def.field_type === 'hidden' || def.is_disabled || !(def.name in answers) || !isFieldShown(def, answers))
      continue;
    const value = answers[def.name];
    const label = def.label ?? def.name;
    switch (def.field_type) {
      case 'checkbox':
        await page.getByRole('checkbox', { name: label, exact: true }).setChecked(value === 1);
        break;
      case 'radio': {
        const option = optionPairs(def).find((o) => o.value === String(value))!;
        await page
          .getByRole('radiogroup', { name: label })
          .getByRole('radio', { name: option.label, exact: true })
          .check();
        break;
      }
      case 'state':
      case 'select':
        await byLabel(page, label).selectOption(String(value));
        break;
      default:
        await byLabel(page, label).fill(String(value));
    }
  }
}

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s.close();
});

async function startApplication(levelName: string, email: string) {
  const { page } = s;
  await forgetSession(s.page);
  await page.goto('/pricing');
  await page.getByRole('link', { name: `Choose ${levelName}` }).click();
  const form = page.getByRole('form', { name: /application/i });
  await form.waitFor();
  await form.getByLabel('E-mail').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('Booster#Club2026!');
  expect(await form.getByTestId('password-strength-label').innerText()).toBe('Very strong');
  await recordEvents(page);
  await form.getByRole('button', { name: "Let's go!" }).click();
  // No tag manager runs here: the fallback timer must still take the visitor on.
  await page.waitForURL('**/application/create/**');
  await page.getByRole('progressbar').first().waitFor();
  expect(await recordedEvents(page)).toContain('application_started');
}

/** Keeps the names of analytics events pushed on this page in sessionStorage, so they survive the navigation that follows. */
async function recordEvents(page: Page) {
  await page.evaluate(() => {
    const layer = (window.dataLayer = window.dataLayer ?? []);
    const push = layer.push.bind(layer);
    layer.push = (...events: Record<string, unknown>[]) => {
      const seen = JSON.parse(sessionStorage.getItem('events') ?? '[]') as string[];
      sessionStorage.setItem('events', JSON.stringify([...seen, ...events.map((e) => String(e.event))]));
      return push(...events);
    };
  });
}
const recordedEvents = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('events') ?? '[]') as string[]);

const step = (page: Page, label: string) => page.getByRole('heading', { name: label, exact: true }).first();

describe('joining: pricing → start → wizard → invoice', () => {
  it('a visitor applies for the start-up level page by page, fixes a mistake, and lands on the new invoice', async () => {
    const slug: WizardLevelSlug = 'start-up';
    const pages = WIZARD_SCHEMAS[slug];
    const answers = sampleAnswers(slug);
    const { page } = s;
    await startApplication('Start-up with tax exemption', 'joining.parent@example.com');

    // Page 1, with a required field left empty first: the error shows and the page stays.
    await fillPage(page, pages[0].schema, { ...answers, account___name: '' });
    await page.getByRole('button', { name: 'Next' }).click();
    await page
      .getByText(/field is required\./)
      .first()
      .waitFor();
    await fillPage(page, pages[0].schema, answers);
    await page.getByRole('button', { name: 'Next' }).click();
    await step(page, pages[1].label).waitFor();

    // Previous goes back without checking the page; Next again moves on.
    await page.getByRole('button', { name: 'Previous' }).click();
    await step(page, pages[0].label).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await step(page, pages[1].label).waitFor();

    for (let i = 1; i < pages.length; i++) {
      await step(page, pages[i].label).waitFor();
      await fillPage(page, pages[i].schema, answers);
      if (i < pages.length - 1) await page.getByRole('button', { name: 'Next' }).click();
    }
    await page.getByText(/By submitting, you confirm/).waitFor();
    // The bylaws step: its Word document before submitting, and the disclaimer stays.
    await page.getByText('The bylaws we generate are general guidance: review them before you adopt them.').waitFor();
    await page.getByRole('button', { name: 'Make my bylaws document' }).click();
    const bylawsLink = page.getByRole('link', { name: /^Download .*\.docx$/ });
    expect(await bylawsLink.getAttribute('href')).toMatch(/^\/application\/bylaws\//);
    await recordEvents(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/app/payments');
    await page.getByText('Start-up with tax exemption (new account)').waitFor();
    await page.getByText('$645.00').first().waitFor();
    expect(await recordedEvents(page)).toContain('application_completed');
    // The bylaws step's document is among the group's documents on its home.
    await page.goto('/app');
    expect(await page.getByRole('link', { name: 'Download (.docx)' }).getAttribute('href')).toMatch(
      /^\/bylaws-generator\/download\//,
    );
  });

  it('a draft can be left and resumed from the account area at the page where it stopped', async () => {
    const { page } = s;
    const pages = WIZARD_SCHEMAS['start-up'];
    const answers = sampleAnswers('start-up');
    await startApplication('Start-up with tax exemption', 'resume.parent@example.com');
    await fillPage(page, pages[0].schema, answers);
    await page.getByRole('button', { name: 'Next' }).click();
    await step(page, pages[1].label).waitFor();
    await page.goto('/account');
    await page
      .getByRole('link', { name: /Continue/ })
      .first()
      .click();
    await step(page, pages[1].label).waitFor();
    // Typed without Next: saved as a draft while typing, still there after a reload.
    const typed = valueFields(pages[1].schema).find((f) => f.field_type === 'text')!;
    await byLabel(page, typed.label!).fill('Half typ');
    await page.getByText('Saved', { exact: true }).waitFor();
    await page.reload();
    await step(page, pages[1].label).waitFor();
    expect(await byLabel(page, typed.label!).inputValue()).toBe('Half typ');
    await page.getByRole('button', { name: 'Previous' }).click();
    expect(await byLabel(page, pages[0].schema.find((f) => f.name === 'account___name')!.label!).inputValue()).toBe(
      String(answers.account___name),
    );
  });

  it('an answer that belongs to the maintain application offers the switch, which keeps the shared answers', async () => {
    const { page } = s;
    const pages = WIZARD_SCHEMAS['start-up'];
    const answers = sampleAnswers('start-up');
    await startApplication('Start-up with tax exemption', 'switch.parent@example.com');
    const taxPage = pages.findIndex((p) => p.schema.some((f) => f.name === 'account___has_501c'));
    for (let i = 0; i < taxPage; i++) {
      await fillPage(page, pages[i].schema, answers);
      await page.getByRole('button', { name: 'Next' }).click();
      await step(page, pages[i + 1].label).waitFor();
    }
    await fillPage(page, pages[taxPage].schema, { ...answers, account___has_501c: '1' });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Did you start the wrong application?').waitFor();
    await page.getByRole('button', { name: /Switch to the maintain application/i }).click();
    await step(page, WIZARD_SCHEMAS.maintain[0].label).waitFor();
    expect(await byLabel(page, 'Organization name').inputValue()).toBe(String(answers.account___name));
  });

  it('the maintain wizard takes the determination letter in its file dropbox and lists it by name', async () => {
    const { page } = s;
    const pages = WIZARD_SCHEMAS.maintain;
    const answers = sampleAnswers('maintain');
    await startApplication('Maintain an existing exemption', 'letter.parent@example.com');
    const exemptionPage = pages.findIndex((p) => p.schema.some((f) => f.field_type === 'dropbox'));
    for (let i = 0; i < exemptionPage; i++) {
      await fillPage(page, pages[i].schema, answers);
      await page.getByRole('button', { name: 'Next' }).click();
      await step(page, pages[i + 1].label).waitFor();
    }
    // A group waiting for its IRS letter gives the form and the date it filed, and no letter.
    const letterQuestion = page.getByRole('radiogroup', {
      name: 'Does your group already have a 501(c) determination letter?',
    });
    await letterQuestion.getByRole('radio', { name: 'Applied, waiting for the IRS letter', exact: true }).check();
    await byLabel(page, 'Date you filed it').waitFor();
    await page.getByText('You can finish this application without the letter').waitFor();
    expect(await byLabel(page, 'Your IRS determination letter (optional)').count()).toBe(0);
    await page.screenshot({ path: 'test-results/wizard-letter-awaited.png', fullPage: true });
    await letterQuestion.getByRole('radio', { name: 'Yes', exact: true }).check();
    const dropbox = byLabel(page, 'Your IRS determination letter (optional)');
    await dropbox.setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: WINDOWS_EXE });
    await page.getByText('setup.exe is not allowed.').waitFor();
    await dropbox.setInputFiles({ name: 'IRS letter.pdf', mimeType: 'application/pdf', buffer: PDF_MINIMAL });
    await page.getByRole('link', { name: 'IRS letter.pdf' }).waitFor();
    expect(await page.getByText('setup.exe is not allowed.').count()).toBe(0);
    await page.screenshot({ path: 'test-results/wizard-dropbox.png', fullPage: true });
    // The list survives a reload: it comes from the server, not the page.
    await page.reload();
    await step(page, pages[exemptionPage].label).waitFor();
    await letterQuestion.getByRole('radio', { name: 'Yes', exact: true }).check();
    await page.getByRole('link', { name: 'IRS letter.pdf' }).waitFor();
  });

  it('Cancel offers to delete the application and goes back to the pricing page', async () => {
    const { page } = s;
    await startApplication('Maintain an existing exemption', 'cancel.parent@example.com');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /delete/i })
      .click();
    await page.waitForURL('**/pricing');
    expect(s.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('the admin sees the applications by status and opens one with its answers', async () => {
    const admin = await openBrowser();
    try {
      const { page } = admin;
      await signIn(page, 'admin');
      await page.goto('/admin/applications');
      const table = page.getByRole('table', { name: 'Applications' });
      await table.getByText('joining.parent@example.com').waitFor();
      await page.getByLabel('Status').selectOption('deleted');
      await table.getByText('cancel.parent@example.com').waitFor();
      await expect.poll(() => table.getByText('joining.parent@example.com').count()).toBe(0);
      await page.getByLabel('Status').selectOption('completed');
      await table.getByRole('row').filter({ hasText: 'joining.parent@example.com' }).getByRole('link').click();
      await page.getByRole('heading', { name: /Application #\d+/ }).waitFor();
      await page
        .getByRole('table', { name: 'Answers' })
        .getByText(String(sampleAnswers('start-up').account___name), { exact: true })
        .first()
        .waitFor();
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.close();
    }
  });
});
