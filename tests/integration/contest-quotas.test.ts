import { readdir } from 'node:fs/promises';
import { count, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { contestEntries, dailyCounters } from '../../src/server/db/schema.ts';
import { UPLOAD_QUOTA_REACHED } from '../../src/server/modules/contests/upload-quotas.ts';
import { JPEG_1x1, WINDOWS_EXE } from '../helpers/files.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Daily quotas of the anonymous contest uploads (docs/security.md "Upload quotas"). */

const KB = 1024;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      uploadLimits: {
        contest_photo: 32 * KB,
        contest_video: 64 * KB,
        roster: KB,
        profile_image: KB,
        application_document: KB,
      },
      contestQuotas: { perAddress: { files: 3, bytes: 40 * KB }, perIp: { files: 5, bytes: 100 * KB } },
    },
  });
});
afterAll(async () => {
  await t.close();
});

let ip = 0;
/** A visitor from an address of its own (the per-IP quota and the form rate limit stay out of the way), or from `address`. */
const visitor = (address = `10.60.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`) => new Agent(t.app, address).start();
const storedFiles = async () =>
  (await readdir(t.config.storage.dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).length;
const entries = async () => (await t.database.db.select({ n: count() }).from(contestEntries))[0].n;

let n = 0;
const entry = (over: Record<string, string> = {}) => ({
  organization: `Quota Boosters ${++n}`,
  email: `quota${n}@example.com`,
  type: '',
  message: '',
  is_member: '0',
  ...over,
});
/** A JPEG of `size` bytes. */
const photo = (size: number, fileName = 'team.jpg') => [
  {
    field: 'file',
    fileName,
    content: Buffer.concat([JPEG_1x1, Buffer.alloc(size - JPEG_1x1.length)]),
    type: 'image/jpeg',
  },
];
/** A tiny MP4 of `size` bytes ('ftyp' box with the isom brand). */
const video = (size: number) => {
  const head = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'latin1'),
  ]);
  return [{ field: 'file', fileName: 'clip.mp4', content: Buffer.concat([head, Buffer.alloc(size - head.length)]) }];
};

/** Expects a 429 with the quota's message that kept nothing. */
async function expectRefused(send: () => Promise<{ statusCode: number; json(): { message: string } }>) {
  const [files, rows] = [await storedFiles(), await entries()];
  const res = await send();
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ message: UPLOAD_QUOTA_REACHED });
  expect(await storedFiles()).toBe(files);
  expect(await entries()).toBe(rows);
}

describe('per e-mail address', () => {
  it('takes 3 files a day, photos and videos together, then answers 429 and keeps nothing', async () => {
    const email = 'busy.parent@example.com';
    for (const [contest, file] of [
      ['photo', photo(2 * KB)],
      ['photo', photo(2 * KB)],
      ['video', video(2 * KB)],
    ] as const) {
      const res = await (await visitor()).upload(`/contests/${contest}`, entry({ email }), [...file]);
      expect(res.statusCode, res.body).toBe(201);
    }
    await expectRefused(async () =>
      (await visitor()).upload('/contests/video', entry({ email: email.toUpperCase() }), video(2 * KB)),
    );
    // An entry without a file uploads nothing and is still taken.
    expect((await (await visitor()).upload('/contests/video', entry({ email }), [])).statusCode).toBe(201);
    // Another address is not affected.
    expect((await (await visitor()).upload('/contests/photo', entry(), photo(2 * KB))).statusCode).toBe(201);
  });

  it('takes 40 KB a day: a file that runs past what is left is refused with 429 while it streams', async () => {
    const email = 'big.files@example.com';
    expect((await (await visitor()).upload('/contests/photo', entry({ email }), photo(30 * KB))).statusCode).toBe(201);
    await expectRefused(async () => (await visitor()).upload('/contests/video', entry({ email }), video(20 * KB)));
    // What is left still fits a small one.
    expect((await (await visitor()).upload('/contests/video', entry({ email }), video(5 * KB))).statusCode).toBe(201);
  });

  it('counts a file the checks refused (its bytes were taken in), and leaves the per-file limit a 422', async () => {
    const email = 'refused.files@example.com';
    const disguised = await (
      await visitor()
    ).upload('/contests/photo', entry({ email }), [
      { field: 'file', fileName: 'team.jpg', content: WINDOWS_EXE, type: 'image/jpeg' },
    ]);
    expect(disguised.statusCode).toBe(422);
    // The photo limit (32 KB) is below what the address has left (40 KB): that limit's own message.
    const tooBig = await (await visitor()).upload('/contests/photo', entry({ email }), photo(33 * KB));
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors.file).toEqual(['The file may not be larger than 32 KB.']);
    expect((await (await visitor()).upload('/contests/photo', entry({ email }), photo(KB))).statusCode).toBe(201);
    await expectRefused(async () => (await visitor()).upload('/contests/photo', entry({ email }), photo(KB)));
  });
});

describe('per client IP', () => {
  it('takes 5 files a day from one address whatever the e-mail, then refuses before reading the body', async () => {
    const from = '198.51.100.7';
    for (let i = 0; i < 5; i++)
      expect((await (await visitor(from)).upload('/contests/photo', entry(), photo(KB))).statusCode).toBe(201);
    await expectRefused(async () => (await visitor(from)).upload('/contests/photo', entry(), photo(KB)));
    // Refused before any part is read: even a body the parser could not read gets the 429.
    const garbled = await (
      await visitor(from)
    ).request('POST', '/contests/photo', 'not multipart at all', { 'content-type': 'multipart/form-data; boundary=x' });
    expect(garbled.statusCode).toBe(429);
    expect((await (await visitor('198.51.100.8')).upload('/contests/photo', entry(), photo(KB))).statusCode).toBe(201);
  });

  it('takes 100 KB a day from one address', async () => {
    const from = '198.51.100.9';
    for (let i = 0; i < 3; i++)
      expect((await (await visitor(from)).upload('/contests/photo', entry(), photo(30 * KB))).statusCode).toBe(201);
    await expectRefused(async () => (await visitor(from)).upload('/contests/photo', entry(), photo(20 * KB)));
  });

  it('holds when uploads arrive at once: 9 from one address keep exactly 5 files', async () => {
    const from = '198.51.100.10';
    const agents = await Promise.all(Array.from({ length: 9 }, () => visitor(from)));
    const [files, rows] = [await storedFiles(), await entries()];
    const answers = await Promise.all(agents.map((a) => a.upload('/contests/photo', entry(), photo(KB))));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(5).fill(201), ...Array(4).fill(429)]);
    expect(await storedFiles()).toBe(files + 5);
    expect(await entries()).toBe(rows + 5);
  });

  it('starts again the next UTC day', async () => {
    const from = '198.51.100.11';
    for (let i = 0; i < 5; i++) await (await visitor(from)).upload('/contests/photo', entry(), photo(KB));
    await expectRefused(async () => (await visitor(from)).upload('/contests/photo', entry(), photo(KB)));
    await t.database.db
      .update(dailyCounters)
      .set({ day: sql`${dailyCounters.day} - 1` })
      .where(like(dailyCounters.key, `%:${from}`));
    expect((await (await visitor(from)).upload('/contests/photo', entry(), photo(KB))).statusCode).toBe(201);
  });
});

describe('settings', () => {
  it('defaults to 10 files and 1 GB per address, 30 files and 3 GB per IP a day, and reads the four variables', () => {
    const GB = 1024 ** 3;
    expect(loadConfig({}).contestQuotas).toEqual({
      perAddress: { files: 10, bytes: GB },
      perIp: { files: 30, bytes: 3 * GB },
    });
    expect(
      loadConfig({
        CONTEST_UPLOADS_PER_ADDRESS_PER_DAY: '4',
        CONTEST_UPLOAD_MB_PER_ADDRESS_PER_DAY: '200',
        CONTEST_UPLOADS_PER_IP_PER_DAY: '12',
        CONTEST_UPLOAD_MB_PER_IP_PER_DAY: '600',
      }).contestQuotas,
    ).toEqual({ perAddress: { files: 4, bytes: 200 * 1024 * 1024 }, perIp: { files: 12, bytes: 600 * 1024 * 1024 } });
    expect(() => loadConfig({ CONTEST_UPLOADS_PER_IP_PER_DAY: '-1' })).toThrow(/CONTEST_UPLOADS_PER_IP_PER_DAY/);
  });
});
