import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1x1, WINDOWS_EXE } from '../helpers/files.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import type { Page } from 'playwright-core';

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s.close();
});

/** A real one-second WebM recorded by the browser itself from a canvas (no video fixture needed). */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 90;
    const ctx = canvas.getContext('2d')!;
    const stream = canvas.captureStream(25);
    const recorder = new MediaRecorder(stream, { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((resolve) => {
      recorder.onstop = resolve;
    });
    recorder.start();
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const draw = () => {
        const t = performance.now() - started;
        ctx.fillStyle = t < 500 ? '#1864ab' : '#e8590c';
        ctx.fillRect(0, 0, 160, 90);
        if (t < 1000) requestAnimationFrame(draw);
        else resolve();
      };
      draw();
    });
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}

interface Upload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Chooses a file as a person does: clicks the drop zone and picks the file in the dialog. */
async function choose(page: Page, zone: string, file: Upload) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: new RegExp(`^${zone}`) }).click(),
  ]);
  await chooser.setFiles(file);
}

/** Drops files on a drop zone, as dragging them from the desktop does. */
async function drop(page: Page, zone: string, files: Upload[]) {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const f of list)
        dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      return dt;
    },
    files.map((f) => ({ name: f.name, mimeType: f.mimeType, base64: f.buffer.toString('base64') })),
  );
  const target = page.getByRole('button', { name: new RegExp(`^${zone}`) });
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Sends an entry straight from the page (as a previous visit would have), to fill the count. */
async function postEntry(
  page: Page,
  contest: string,
  fields: Record<string, string>,
  file: { name: string; base64: string; type: string },
) {
  return page.evaluate(
    async ({ contest, fields, file }) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      body.append('file', new Blob([bytes], { type: file.type }), file.name);
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch(`/contests/${contest}`, {
        method: 'POST',
        body,
        headers: { 'X-CSRF-TOKEN': token, 'X-Requested-With': 'XMLHttpRequest' },
      });
      return res.status;
    },
    { contest, fields, file },
  );
}

describe('contest entries, as a visitor sends them (docs/requirements/product.md tool 4)', () => {
  it('photo: refuses a disguised file, previews the photo, sends it and resets the form', async () => {
    const { page } = s;
    await page.goto('/contests/photo');
    await page.getByRole('heading', { name: 'Submit an entry.' }).waitFor();
    await page.getByLabel(/^Organization/).fill('Eagle River Hockey Boosters');
    await page.getByLabel(/^E-mail/).fill('photo.parent@example.com');
    await page.getByLabel(/^Type/).selectOption('booster_club');
    // Message and file become required for a booster club.
    await page.getByRole('button', { name: 'Submit entry' }).click();
    await page.getByText('The message field is required.').waitFor();
    await page.getByLabel(/^Message/).fill('Our seniors after the state final.');
    await page.getByRole('button', { name: 'Submit entry' }).click();
    await page.getByText('The file field is required.').waitFor();
    await choose(page, 'Photo', { name: 'setup.exe', mimeType: 'image/png', buffer: WINDOWS_EXE });
    await page.getByText('setup.exe is not allowed.').waitFor();
    await choose(page, 'Photo', { name: 'Team.PNG', mimeType: 'image/png', buffer: PNG_1x1 });
    await page.getByRole('img', { name: 'Preview of Team.PNG' }).waitFor();
    // Once a file is chosen, clicking the zone opens nothing.
    let opened = false;
    page.once('filechooser', () => {
      opened = true;
    });
    await page.getByRole('button', { name: /^Photo/ }).click();
    await page.getByRole('button', { name: 'Remove file' }).waitFor();
    expect(opened).toBe(false);
    // Dropping several files at once is refused.
    await drop(page, 'Photo', [
      { name: 'a.png', mimeType: 'image/png', buffer: PNG_1x1 },
      { name: 'b.png', mimeType: 'image/png', buffer: PNG_1x1 },
    ]);
    await page.getByText('One at a time please!').first().waitFor();
    await page.getByRole('img', { name: 'Preview of Team.PNG' }).waitFor();
    await page.getByLabel('We are a current member').check();
    await page.screenshot({ path: 'test-results/contest-photo.png', fullPage: true });
    await page.getByRole('button', { name: 'Submit entry' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('We have received your entry.').waitFor();
    await dialog.getByText('We love your images. Keep it up!').waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByLabel(/^Organization/).inputValue()).toBe('');
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe('');
    expect(await page.getByRole('img', { name: /Preview of/ }).count()).toBe(0);
  });

  it('the drop zone the server drew reads as disabled until its code has arrived, then opens the file dialog', async () => {
    const { page } = s;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const zoneCode = /\/assets\/file-drop-zone-[^/]*\.js$/;
    await page.route(zoneCode, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto('/contests/photo');
      const zone = page.getByRole('button', { name: /^Photo/ });
      await zone.waitFor();
      expect(await zone.getAttribute('aria-disabled')).toBe('true');
      release();
      await choose(page, 'Photo', { name: 'early.png', mimeType: 'image/png', buffer: PNG_1x1 });
      await page.getByRole('img', { name: 'Preview of early.png' }).waitFor();
      expect(await zone.getAttribute('aria-disabled')).toBeNull();
    } finally {
      release();
      await page.unroute(zoneCode);
    }
  });

  it('photo: the fourth entry for the same e-mail shows Limit reached!', async () => {
    const { page } = s;
    await page.goto('/contests/photo');
    await page.getByRole('heading', { name: 'Submit an entry.' }).waitFor();
    const png = { name: 'team.png', base64: PNG_1x1.toString('base64'), type: 'image/png' };
    for (let i = 0; i < 3; i++)
      expect(
        await postEntry(
          page,
          'photo',
          { organization: `Kenai Swim ${i}`, email: 'limit.parent@example.com', type: '', message: '', is_member: '0' },
          png,
        ),
      ).toBe(201);
    await page.getByLabel(/^Organization/).fill('Kenai Swim Boosters');
    await page.getByLabel(/^E-mail/).fill('limit.parent@example.com');
    await choose(page, 'Photo', { name: 'pool.png', mimeType: 'image/png', buffer: PNG_1x1 });
    await page.getByRole('button', { name: 'Submit entry' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Limit reached!').waitFor();
    await dialog
      .getByText('It looks like we have already received three entries for this organization or email address.')
      .waitFor();
    await page.keyboard.press('Escape');
  });

  it('video: thumbnail at a quarter of the video, progress while uploading, keeps organization and e-mail, then Limit!', async () => {
    const { page } = s;
    await page.goto('/contests/video');
    await page.getByRole('heading', { name: 'Submit an entry.' }).waitFor();
    const webm = await recordWebm(page);
    await page.getByLabel(/^Organization/).fill('Soldotna Track Boosters');
    await page.getByLabel(/^E-mail/).fill('video.parent@example.com');
    await page.getByLabel('We are a current member').check();
    await choose(page, 'Video', { name: 'state-final.webm', mimeType: 'video/webm', buffer: webm });
    const still = page.getByRole('img', { name: 'Preview of state-final.webm' });
    await still.waitFor();
    expect(await still.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    // A second drop while a file is chosen is refused.
    await drop(page, 'Video', [{ name: 'other.webm', mimeType: 'video/webm', buffer: webm }]);
    await page.getByText('One at a time please!').first().waitFor();
    expect(await page.getByText('state-final.webm', { exact: true }).count()).toBe(1);
    await page.screenshot({ path: 'test-results/contest-video.png', fullPage: true });
    // A slow connection, so the upload's progress can be seen.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 4 * 1024,
    });
    await page.getByRole('button', { name: 'Submit entry' }).click();
    await page.getByText('Uploading... This may take a minute.').waitFor();
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const dialog = page.getByRole('dialog');
    await dialog.getByText('We love your videos. Keep it up!').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByLabel(/^Organization/).inputValue()).toBe('Soldotna Track Boosters');
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe('video.parent@example.com');
    expect(await page.getByLabel('We are a current member').isChecked()).toBe(true);

    const clip = { name: 'clip.webm', base64: webm.toString('base64'), type: 'video/webm' };
    for (let i = 0; i < 2; i++)
      expect(
        await postEntry(
          page,
          'video',
          {
            organization: 'Soldotna Track Boosters',
            email: 'video.parent@example.com',
            type: '',
            message: '',
            is_member: '1',
          },
          clip,
        ),
      ).toBe(201);
    await choose(page, 'Video', { name: 'fourth.webm', mimeType: 'video/webm', buffer: webm });
    await page.getByRole('img', { name: 'Preview of fourth.webm' }).waitFor();
    await page.getByRole('button', { name: 'Submit entry' }).click();
    await dialog.getByText('Limit!').waitFor();
    await dialog
      .getByText('We love your videos, but it looks like we have already received three entries from you.')
      .waitFor();
    await dialog.getByText("You can submit more, they just won't count.").waitFor();
    await page.keyboard.press('Escape');
    expect(s.errors.filter((e) => !/status of (401|422|429)/.test(e))).toEqual([]);
  });

  it("past the daily upload quota of an address, the form shows the server's 429 message", async () => {
    const { page } = s;
    await page.goto('/contests/photo');
    await page.getByRole('heading', { name: 'Submit an entry.' }).waitFor();
    const email = 'quota.parent@example.com';
    // Ten uploads today for this address (refused ones count: their bytes were taken in).
    const disguised = { name: 'team.png', base64: WINDOWS_EXE.toString('base64'), type: 'image/png' };
    for (let i = 0; i < 10; i++)
      expect(
        await postEntry(
          page,
          'photo',
          { organization: `Homer Quota ${i}`, email, type: '', message: '', is_member: '0' },
          disguised,
        ),
      ).toBe(422);
    await page.getByLabel(/^Organization/).fill('Homer Quota Boosters');
    await page.getByLabel(/^E-mail/).fill(email);
    await choose(page, 'Photo', { name: 'pool.png', mimeType: 'image/png', buffer: PNG_1x1 });
    await page.getByRole('button', { name: 'Submit entry' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Upload limit reached').waitFor();
    await dialog
      .getByText("You have reached today's upload limit for contest entries. Please try again tomorrow.")
      .waitFor();
    await dialog.getByText('Your entry was not sent.').waitFor();
    // The dialog's opening transition has ended: the picture shows what the person reads.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.screenshot({ path: 'test-results/contest-quota-429.png' });
    await page.keyboard.press('Escape');
    // What was typed stays, to send again another day.
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe(email);
    expect(s.errors.filter((e) => !/status of (401|422|429)/.test(e))).toEqual([]);
  });

  it('the admin browses the video entries, counted and not, with a player and a download', async () => {
    const admin = await openBrowser();
    try {
      const { page } = admin;
      await signIn(page, 'admin');
      await page.goto('/admin/contests?contest=video');
      const table = page.getByRole('table', { name: 'Contest entries' });
      await table.getByText('video.parent@example.com').first().waitFor();
      // The fourth video was past the counted three: nothing of it was kept.
      await page.getByLabel('Counted').selectOption('no');
      await page.getByText('No entries past the counted three: they are not kept.').waitFor();
      await page.getByLabel('Counted').selectOption('yes');
      await expect.poll(() => table.getByText('video.parent@example.com').count()).toBe(3);
      expect(await page.getByRole('link', { name: 'Download fourth.webm' }).count()).toBe(0);
      await page.getByLabel('Counted').selectOption('');
      await page.waitForURL((u) => !u.searchParams.has('counted'));
      await page.getByText('Photo contest', { exact: true }).click();
      await expect.poll(() => page.getByRole('radio', { name: 'Photo contest' }).isChecked()).toBe(true);
      await page.getByRole('img', { name: 'Photo from Eagle River Hockey Boosters' }).waitFor();
      await page.screenshot({ path: 'test-results/admin-contest-entries.png', fullPage: true });
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.close();
    }
  });
});
