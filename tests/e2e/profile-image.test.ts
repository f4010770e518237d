import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccountHolder } from './support/accounts.ts';
import { openBrowser, type Session } from './support/browser.ts';

let s: Session;
beforeAll(async () => {
  s = await openBrowser();
});
afterAll(async () => {
  await s.close();
});

/** A 300×100 PNG in one colour, built byte by byte (signature, IHDR, IDAT, IEND). */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('profile header image (docs/requirements/product.md tool 12)', () => {
  it('the account holder sets a header image, sees it on the public profile, and clears it', async () => {
    const { page } = s;
    // Not the shared demo holder: the password reset test changes that one's password.
    await newAccountHolder(page, {
      email: 'header.image@example.com',
      name: 'Laramie Swim Boosters',
      level: 'maintain',
      answers: { account___ein: '27-1122334' },
    });
    await page.goto('/account');
    const card = page.getByRole('region', { name: 'Profile header image' });
    await card.getByRole('img', { name: 'Sample header image' }).waitFor();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      card.getByRole('button', { name: /^New header image/ }).click(),
    ]);
    await chooser.setFiles({
      name: 'team-header.png',
      mimeType: 'image/png',
      buffer: solidPng(300, 100, [25, 113, 194]),
    });
    await card.getByRole('img', { name: 'Preview of team-header.png' }).waitFor();
    await card.getByRole('button', { name: 'Save header image' }).click();
    const saved = card.getByRole('img', { name: 'Your profile header image' });
    await saved.waitFor();
    expect(await saved.getAttribute('src')).toMatch(/^\/app\/account\/image\/\d+\/\d+$/);
    await expect.poll(() => saved.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(300);
    await page.screenshot({ path: 'test-results/profile-image-set.png', fullPage: true });

    await card.getByRole('link', { name: 'View your public profile' }).click();
    const header = page.getByRole('img', { name: /header$/ });
    await header.waitFor();
    await expect.poll(() => header.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(300);

    await page.goBack();
    await card.getByRole('button', { name: 'Clear image' }).click();
    await card.getByRole('img', { name: 'Sample header image' }).waitFor();
    expect(await card.getByRole('img', { name: 'Your profile header image' }).count()).toBe(0);
    expect(s.errors).toEqual([]);
  });
});
