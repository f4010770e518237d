import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF_MINIMAL, WINDOWS_EXE } from '../helpers/files.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

/** The admin's generic drag-and-drop uploader (docs/requirements/product.md tool 5, docs/requirements/errors.md "Uploader") and its roster import, in Chromium. */

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
  await signIn(s.page, 'admin');
});
afterAll(async () => {
  await s.close();
});

/** Keeps every 'file-uploaded' and 'clear-dragover' event the page broadcasts. */
async function recordUploadEvents(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { uploadEvents: { type: string; detail: unknown }[] };
    w.uploadEvents = [];
    for (const type of ['file-uploaded', 'clear-dragover']) {
      window.addEventListener(type, (e) => w.uploadEvents.push({ type, detail: (e as CustomEvent).detail ?? null }));
    }
  });
}
const uploadEvents = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { uploadEvents: { type: string; detail: { import?: { created: number } } | null }[] })
        .uploadEvents,
  );

/** Drops files on the drop zone the way a browser's drag and drop delivers them. */
async function dropFiles(page: Page, files: { name: string; type: string; content: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list)
      dt.items.add(new File([Uint8Array.from(atob(f.content), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    return dt;
  }, files);
  const zone = page.getByRole('button', { name: 'Drop files here or click to choose them' });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/** Chooses files through the drop zone's file dialog, as a click on it opens. */
async function chooseFiles(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Drop files here or click to choose them' }).click();
  await (await chooser).setFiles(files);
}

const suffix = Date.now().toString(36);
const ROSTER = [
  'Name,Email,City,State,EIN',
  `Cheyenne East Band Boosters ${suffix},band-${suffix}@example.com,Cheyenne,WY,`,
  `Laramie Robotics Parents ${suffix},robotics-${suffix}@example.com,Laramie,wy,`,
  `Cheyenne East Band Boosters again,BAND-${suffix}@example.com,Cheyenne,WY,`,
  // Already an account: a subordinate of GEN 5271 from the demo seed.
  'CHS Lady Knights Flag Football,,Palmer,AK,332182308',
  `Typo Club ${suffix},typo-${suffix}@example.com,Casper,WY,12-345`,
].join('\r\n');

describe('generic uploader', () => {
  it('an admin imports a roster into a group through the page and reads the report', async () => {
    const { page } = s;
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Uploads' }).click();
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    await recordUploadEvents(page);

    // A program is refused in the browser with the uploader's message (docs/requirements/errors.md).
    await dropFiles(page, [
      { name: 'setup.exe', type: 'application/octet-stream', content: WINDOWS_EXE.toString('base64') },
    ]);
    await page.getByText('setup.exe is not allowed.').waitFor();
    await page.getByText('Uh oh!').first().waitFor();
    // The toast can be closed by a screen-reader user, who hears what the button does.
    await page.getByRole('button', { name: 'Close message' }).first().click();

    // A plain file is kept without creating accounts.
    await dropFiles(page, [
      { name: 'board minutes.pdf', type: 'application/pdf', content: PDF_MINIMAL.toString('base64') },
    ]);
    await page.getByRole('region', { name: 'Results' }).getByText('board minutes.pdf').waitFor();

    await page.getByRole('checkbox', { name: 'Create new accounts from a roster' }).check();
    const group = page.getByRole('combobox', { name: 'Group' });
    await group.selectOption({ label: 'GoodStanding national booster club group exemption (GEN 5271)' });
    expect(await group.locator('option:checked').innerText()).toBe(
      'GoodStanding national booster club group exemption (GEN 5271)',
    );
    await expectLabelledDropZone(page);

    await chooseFiles(page, [{ name: 'wyoming roster.csv', mimeType: 'text/csv', buffer: Buffer.from(ROSTER) }]);
    const results = page.getByRole('region', { name: 'Results' });
    await results.getByText('Account import').waitFor();
    expect(await results.getByTestId('import-created').first().innerText()).toBe('2');
    expect(await results.getByTestId('import-skipped').first().innerText()).toBe('2');
    expect(await results.getByTestId('import-rejected').first().innerText()).toBe('1');
    await results.getByText('Group: GoodStanding national booster club group exemption').waitFor();
    await results.getByText('wyoming roster.csv: Roster, 5 rows').waitFor();
    const table = results.getByRole('table', { name: 'Skipped and rejected rows' });
    const rowText = async (i: number) =>
      (await table.getByRole('row').nth(i).getByRole('cell').allTextContents()).join(' ');
    expect(await rowText(1)).toBe('6 Rejected The EIN "12-345" must be 9 digits.');
    expect(await rowText(2)).toBe(`4 Skipped The e-mail band-${suffix}@example.com is on an earlier row (2).`);
    expect(await rowText(3)).toBe('5 Skipped An account with EIN 332182308 already exists.');
    await page.screenshot({ path: 'test-results/uploader-import.png', fullPage: true });

    const events = await uploadEvents(page);
    expect(events.map((e) => e.type)).toEqual([
      'clear-dragover',
      'file-uploaded',
      'clear-dragover',
      'file-uploaded',
      'clear-dragover',
    ]);
    expect(events[1].detail).toMatchObject({ import: null });
    expect(events[3].detail).toMatchObject({ import: { created: 2, skipped_count: 2, rejected_count: 1 } });

    // The same roster again: everything is known now.
    await chooseFiles(page, [{ name: 'wyoming roster.csv', mimeType: 'text/csv', buffer: Buffer.from(ROSTER) }]);
    await page.waitForFunction(() => (window as unknown as { uploadEvents: unknown[] }).uploadEvents.length === 7);
    expect(await results.getByTestId('import-created').first().innerText()).toBe('0');
    expect(await results.getByTestId('import-skipped').first().innerText()).toBe('4');

    // In roster mode only .csv and .txt are taken.
    await dropFiles(page, [
      { name: 'board minutes.pdf', type: 'application/pdf', content: PDF_MINIMAL.toString('base64') },
    ]);
    await page.getByText('board minutes.pdf is not allowed.').waitFor();

    // A roster the server refuses (no name column) is silently ignored (docs/requirements/errors.md): the drop ends, nothing is reported.
    const shownResults = await results.getByText('Files stored').count();
    await dropFiles(page, [
      { name: 'members.csv', type: 'text/csv', content: Buffer.from('title,address\r\nA,B\r\n').toString('base64') },
    ]);
    await page.waitForFunction(() => (window as unknown as { uploadEvents: unknown[] }).uploadEvents.length === 9);
    expect((await uploadEvents(page)).slice(7).map((e) => e.type)).toEqual(['clear-dragover', 'clear-dragover']);
    expect(await results.getByText('Files stored').count()).toBe(shownResults);
    expect(await page.getByText(/members\.csv/).count()).toBe(0);
    // The browser itself logs the refused request; nothing else may reach the console.
    expect(s.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});

const EO_WY = path.resolve('../shared/data/irs-eo-bmf/eo_wy.csv');
/** A subordinate the seeded GEN 5271 roster does not have: the file's one add. */
const NEW_EIN = '839990117';
const NEW_NAME = `TETON VALLEY BAND BOOSTERS ${suffix.toUpperCase()}`;

/**
 * The real Wyoming extract eo_wy.csv as a year later: one subordinate of GEN 5271 moved from
 * BUFFALO to SHERIDAN (a change), the other left the IRS data (a removal: the seeded roster lists
 * it), and a new one joined (an add). Every other row (other GENs, or none) is left as it is.
 */
function wyomingNextYear(): string {
  const lines = readFileSync(EO_WY, 'latin1').split('\r\n');
  const out: string[] = [];
  for (const line of lines) {
    const f = line.split(',');
    if (f[0] === '831266186') out.push(line.replace(',BUFFALO,WY,', ',SHERIDAN,WY,'));
    else if (f[0] === '833215903') continue;
    else out.push(line);
  }
  out.splice(
    2,
    0,
    `${NEW_EIN},PARENT BOOSTER USA INC,% JO SAMPLE,PO BOX 117,JACKSON,WY,83001-0117,5271,03,9,2100,200510,1,16,000000000,1,01,202506,0,0,02,0,06,0,0,0,B112,${NEW_NAME}`,
  );
  return out.join('\r\n');
}

/** Names the public subordinate search finds for a keyword (what a visitor sees). */
async function publicSearch(page: Page, keyword: string): Promise<string[]> {
  const res = await page.request.get(`/search?search=verify-501c3&keyword=${encodeURIComponent(keyword)}`, {
    headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
  });
  return ((await res.json()) as { data: { name: string }[] }).data.map((r) => r.name);
}

describe.skipIf(!existsSync(EO_WY))('roster import of an IRS file', () => {
  it("stages a preview of GEN 5271's rows, lists nothing until confirmed, and undoes it as one batch", async () => {
    const { page } = s;
    await page.goto('/admin/uploads');
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    await page.getByRole('checkbox', { name: 'Create new accounts from a roster' }).check();

    await page
      .getByRole('combobox', { name: 'Group' })
      .selectOption({ label: 'GoodStanding national booster club group exemption (GEN 5271)' });
    await chooseFiles(page, [
      { name: 'eo_wy.csv', mimeType: 'text/csv', buffer: Buffer.from(wyomingNextYear(), 'latin1') },
    ]);
    const results = page.getByRole('region', { name: 'Results' });
    await results.getByText('IRS roster preview for GEN 5271').waitFor();
    expect(await results.getByTestId('import-adds').innerText()).toBe('1');
    expect(await results.getByTestId('import-changes').innerText()).toBe('1');
    expect(await results.getByTestId('import-removals').innerText()).toBe('1');
    await results
      .getByText(
        /5,985 rows read: 2 of GEN 5271 taken, 5,983 of other GENs or without a GEN skipped\. Nothing is listed publicly until you confirm\./,
      )
      .waitFor();
    expect(await publicSearch(page, NEW_NAME)).toEqual([]);

    await results
      .getByRole('link', { name: /^Review import #\d+$/ })
      .first()
      .click();
    await page.getByRole('heading', { name: /^Roster import #\d+$/, level: 1 }).waitFor();
    await page.getByText('Preview: not applied').waitFor();
    await page
      .getByText('Removals are proposed only for listed subordinates in the state this file covers: WY.')
      .waitFor();
    const adds = page.getByRole('table', { name: 'Adds' });
    expect((await adds.getByRole('row').nth(1).getByRole('cell').allTextContents()).join(' | ')).toBe(
      `${NEW_NAME} | 83-9990117 | JACKSON, WY`,
    );
    await page.screenshot({ path: 'test-results/roster-import-preview.png', fullPage: true });
    await page.getByRole('tab', { name: 'Changes (1)' }).click();
    await page.getByRole('table', { name: 'Changes' }).getByText('City: BUFFALO → SHERIDAN').waitFor();
    await page.getByRole('tab', { name: 'Removals (1)' }).click();
    await page.getByRole('table', { name: 'Removals' }).getByText('LEBHART & FAIRVIEW PARENT TEACHER O').waitFor();
    expect(await publicSearch(page, 'lebhart')).toEqual(['LEBHART & FAIRVIEW PARENT TEACHER O']);

    // Confirm, after the dialog.
    await page.getByRole('button', { name: 'Confirm import' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/^1 new subordinate will be added and listed in the public search/).waitFor();
    await dialog.getByRole('button', { name: 'Confirm import' }).click();
    await page.getByText('Confirmed', { exact: true }).waitFor();
    await page.getByText(/was confirmed: 1 subordinate added, 1 changed, 1 taken off the public list\./).waitFor();
    expect(await publicSearch(page, NEW_NAME)).toEqual([NEW_NAME]);
    expect(await publicSearch(page, 'lebhart')).toEqual([]);

    // Undo, after the dialog: the roster is as before.
    await page.getByRole('button', { name: 'Undo import' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Undo import' }).click();
    await page.getByText('Undone', { exact: true }).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page
      .getByText(/was undone: 1 added subordinate removed, 1 change put back, 1 subordinate listed again\./)
      .waitFor();
    expect(await publicSearch(page, NEW_NAME)).toEqual([]);
    expect(await publicSearch(page, 'lebhart')).toEqual(['LEBHART & FAIRVIEW PARENT TEACHER O']);
    expect(await page.getByRole('button', { name: 'Undo import' }).count()).toBe(0);

    // The list of past imports shows it, undone.
    await page.getByRole('link', { name: 'All roster imports' }).click();
    const history = page.getByRole('table', { name: 'Roster imports' });
    await history.getByRole('row').nth(1).getByRole('cell').nth(3).getByText('Undone', { exact: true }).waitFor();
    await page.screenshot({ path: 'test-results/roster-import-history.png', fullPage: true });
    expect(await history.getByRole('row').nth(1).getByRole('cell').first().textContent()).toMatch(/^#\d+$/);
    expect(s.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});

/** The drop zone is a labelled, focusable control; its name is the words it shows, hint included. */
async function expectLabelledDropZone(page: Page) {
  const zone = page.getByRole('button', { name: 'Drop files here or click to choose them' });
  expect(await zone.getAttribute('tabindex')).toBe('0');
  expect(
    await page
      .getByRole('button', {
        name: /^Drop files here or click to choose them CSV or TXT rosters, up to .+ at a time\.$/,
      })
      .count(),
  ).toBe(1);
}
