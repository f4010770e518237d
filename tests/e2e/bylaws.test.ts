import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s.close();
});

const SUCCESS = 'Your bylaws have been created! Please select an option.';
const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field by its visible label; the required star is not part of the words. */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^\\s*${escape(label)}\\s*\\*?\\s*$`));

async function fillStandard(page: Page, name: string) {
  await field(page, 'What is the name of your organization?').fill(name);
  await field(page, 'What is the purpose of your organization?').fill(
    'To buy equipment and pay travel costs for the track and field teams.',
  );
  await field(page, 'Which school or facility does your organization support?').fill('Soldotna High School');
  await field(page, 'Minimum number of members present for an official meeting').fill('15');
  await field(page, 'Minimum number of members needed to request additional meetings').fill('1/4');
  await field(page, 'Month officer nominations begin each year').selectOption({ label: 'March' });
  await field(page, 'Month of the annual meeting and officer elections').selectOption({ label: 'April' });
  await field(page, 'Last month of the fiscal year').selectOption({ label: 'June' });
}

/** Clicks Generate, waits for the server's answer (POST first, PUT later) and the success choice. */
async function generate(page: Page, method: 'POST' | 'PUT') {
  const [res] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === method && new URL(r.url()).pathname.startsWith('/bylaws-generator'),
    ),
    page.getByRole('button', { name: 'Generate' }).click(),
  ]);
  expect(res.status(), await res.text()).toBe(method === 'POST' ? 201 : 200);
  await page.getByText(SUCCESS).waitFor();
}

/** Clicks Download and returns the downloaded file's name and bytes; the notice shows, then goes after 2 s. */
async function download(page: Page): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download' }).click(),
  ]);
  const notice = page.getByText('Your download is starting…');
  await notice.waitFor();
  await notice.waitFor({ state: 'detached', timeout: 5000 });
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

describe('bylaws generator, as a parent fills it in (docs/requirements/product.md tool 3)', () => {
  it('standard: tooltips, a refused minimum, Generate, download, then update mode at the new address', async () => {
    const { page } = s;
    await page.goto('/bylaws-generator');
    await page.getByRole('heading', { name: 'Bylaws generator', level: 1 }).waitFor();
    expect(await field(page, 'What is the purpose of your organization?').getAttribute('placeholder')).toMatch(
      /^To support the students/,
    );
    await page.getByRole('button', { name: /^Hint: Fundraising is not a tax-exempt purpose/ }).hover();
    await page
      .getByRole('tooltip')
      .getByText(/Fundraising is not a tax-exempt purpose/)
      .waitFor();
    await page.screenshot({ path: 'test-results/bylaws-hint.png', clip: { x: 0, y: 350, width: 1280, height: 350 } });
    expect(await page.getByText(/responses are saved/).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'start over' }).getAttribute('href')).toBe('/bylaws-generator');
    expect(await page.getByText(/general guidance, not legal advice/).count()).toBe(1);
    expect(await field(page, 'Last month of the fiscal year').locator('option').count()).toBe(13);
    expect(await field(page, 'Last month of the fiscal year').locator('option[value="0"]').innerText()).toBe('January');

    await fillStandard(page, 'Soldotna Track Boosters');
    await field(page, 'Minimum number of members present for an official meeting').fill('1/20');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByText('The meeting attendee minimum must be a fraction of at least 1/10 of the members.').waitFor();
    await field(page, 'Minimum number of members present for an official meeting').fill('10%');
    await page.getByRole('checkbox', { name: 'Highlight my responses in the document' }).check();
    await page.screenshot({ path: 'test-results/bylaws-standard-form.png', fullPage: true });
    await generate(page, 'POST');
    await page.waitForURL(/\/bylaws-generator\/edit\/[0-9a-f]{32}$/);
    const editUrl = page.url();
    await page.screenshot({ path: 'test-results/bylaws-created.png', fullPage: true });

    const first = await download(page);
    expect(first.name).toBe('Soldotna Track Boosters Bylaws.docx');
    expect(first.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    // Update mode: the same address, a PUT, the new answers kept.
    await field(page, 'What is the name of your organization?').fill('Soldotna Track and Field Boosters');
    await generate(page, 'PUT');
    expect(page.url()).toBe(editUrl);
    const second = await download(page);
    expect(second.name).toBe('Soldotna Track and Field Boosters Bylaws.docx');

    await page.reload();
    await page.getByRole('heading', { name: 'Bylaws generator', level: 1 }).waitFor();
    await expect
      .poll(() => field(page, 'What is the name of your organization?').inputValue())
      .toBe('Soldotna Track and Field Boosters');
    expect(await field(page, 'Minimum number of members present for an official meeting').inputValue()).toBe('10%');

    // View online: this test site is not publicly reachable, so the built-in preview opens.
    await generate(page, 'PUT');
    const [preview] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'View online' }).click(),
    ]);
    await preview.getByRole('heading', { name: 'Bylaws of Soldotna Track and Field Boosters' }).waitFor();
    expect(await preview.locator('mark', { hasText: 'June' }).count()).toBeGreaterThan(0);
    await preview
      .getByText(/10% of the voting members/)
      .first()
      .waitFor();
    await preview.screenshot({ path: 'test-results/bylaws-preview.png', fullPage: false });
    await preview.close();
    expect(s.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('another browser opening the saved address is told to start over', async () => {
    const { page } = s;
    await page.goto('/bylaws-generator/short');
    await field(page, 'What is the name of your organization?').fill('Riverside PTO');
    await field(page, 'What is the purpose of your organization?').fill(
      'To provide classroom supplies for Riverside Elementary School.',
    );
    await field(page, 'Last month of the fiscal year').selectOption({ label: 'December' });
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.waitForURL(/\/edit\//);
    const other = await openBrowser();
    try {
      await other.page.goto(page.url());
      await other.page.getByText('We could not find these bylaws').waitFor();
      await other.page.getByRole('link', { name: 'start over' }).waitFor();
    } finally {
      await other.close();
    }
  });

  it('school: the official title is starred and required once a clause is ticked; each ticked clause is in the document', async () => {
    const { page } = s;
    await page.goto('/bylaws-generator/school');
    await page.getByRole('heading', { name: 'School booster bylaws generator' }).waitFor();
    await fillStandard(page, 'Kenai Central Hockey Boosters');
    const title = page.getByRole('textbox', { name: /^Title of the school official/ });
    expect(await title.getAttribute('aria-required')).toBeNull();
    expect(await page.getByRole('checkbox').count()).toBe(11);
    await page.getByRole('checkbox', { name: 'The organization must hold 501(c)(3) tax exemption' }).check();
    await page.getByRole('checkbox', { name: 'No payments to school employees' }).check();
    expect(await title.getAttribute('aria-required')).toBe('true');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByText('The school official title field is required.').waitFor();
    await title.fill('Activities Director');
    await page.screenshot({ path: 'test-results/bylaws-school-form.png', fullPage: true });
    await generate(page, 'POST');
    const file = await download(page);
    expect(file.name).toBe('Kenai Central Hockey Boosters Bylaws.docx');
    const [preview] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'View online' }).click(),
    ]);
    await preview.getByRole('heading', { name: /Article [IVX]+\. Federal Tax Exemption/ }).waitFor();
    await preview.getByRole('heading', { name: /Article [IVX]+\. No Compensation of School Employees/ }).waitFor();
    expect(await preview.getByRole('heading', { name: /Handling of Funds/ }).count()).toBe(0);
    expect(await preview.locator('mark').count()).toBe(0);
    await preview
      .getByText(/Activities Director/)
      .first()
      .waitFor();
    await preview.close();

    // Update mode: untick a clause and generate again; its article leaves the document.
    await page.waitForURL(/\/edit\//);
    await page.getByRole('checkbox', { name: 'No payments to school employees' }).uncheck();
    await generate(page, 'PUT');
    const [updated] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'View online' }).click(),
    ]);
    await updated.getByRole('heading', { name: /Article [IVX]+\. Federal Tax Exemption/ }).waitFor();
    expect(await updated.getByRole('heading', { name: /No Compensation of School Employees/ }).count()).toBe(0);
    await updated.close();
    expect((await download(page)).name).toBe('Kenai Central Hockey Boosters Bylaws.docx');
  });

  it('short: four questions and the highlight, Generate, update and download', async () => {
    const { page } = s;
    await page.goto('/bylaws-generator/short');
    await page.getByRole('heading', { name: 'Short bylaws generator' }).waitFor();
    expect(await page.getByLabel(/Which school or facility/).count()).toBe(0);
    expect(await page.getByLabel(/Minimum number of members/).count()).toBe(0);
    await field(page, 'What is the name of your organization?').fill('Maple Grove PTO');
    await field(page, 'What is the purpose of your organization?').fill(
      'To fund field trips and classroom supplies for the students of Maple Grove Elementary.',
    );
    await field(page, 'Last month of the fiscal year').selectOption({ label: 'August' });
    await page.getByRole('checkbox', { name: 'Highlight my responses in the document' }).check();
    await generate(page, 'POST');
    await page.waitForURL(/\/edit\//);
    await field(page, 'Last month of the fiscal year').selectOption({ label: 'May' });
    await generate(page, 'PUT');
    expect((await download(page)).name).toBe('Maple Grove PTO Bylaws.docx');
    const [preview] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'View online' }).click(),
    ]);
    await preview.getByRole('heading', { name: 'Bylaws of Maple Grove PTO' }).waitFor();
    await preview.locator('mark', { hasText: 'May' }).first().waitFor();
    await preview.getByText(/Prepared with BoosterBasics/).waitFor();
    await preview.close();
  });
});
