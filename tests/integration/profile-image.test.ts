import { readdir } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { accountSettingsContracts } from '../../src/shared/contracts/account-settings.ts';
import { JPEG_1x1, PNG_1x1, WINDOWS_EXE } from '../helpers/files.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let mine: number;
let theirs: number;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      uploadLimits: {
        contest_photo: 1024,
        contest_video: 1024,
        roster: 1024,
        profile_image: 8 * 1024,
        application_document: 1024,
      },
    },
  });
  mine = (
    await createAccount(t.database.db, {
      name: 'Soldotna Track Boosters',
      isListed: true,
      ein: '123456789',
      city: 'Soldotna',
      state: 'AK',
    })
  ).id;
  theirs = (
    await createAccount(t.database.db, {
      name: 'Kenai Hockey Boosters',
      isListed: true,
      ein: '987654321',
      city: 'Kenai',
      state: 'AK',
    })
  ).id;
  await createUser(t.database.db, { email: 'holder@example.com', password: 'H0lder-image-Pass', accountId: mine });
  await createUser(t.database.db, { email: 'other@example.com', password: 'Other-image-Pass1', accountId: theirs });
  await createUser(t.database.db, { email: 'staff@example.com', password: 'Staff-image-Pass1', isAdmin: true });
});
afterAll(async () => {
  await t.close();
});

const image = (fileName: string, content: Buffer) => [{ field: 'file', fileName, content }];
const stored = async () =>
  (await readdir(t.config.storage.dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).length;

describe('profile header image (docs/requirements/product.md tool 12)', () => {
  it('sets the image, shows it on the public profile, replaces it and clears it', async () => {
    const a = await signedIn(t.app, { email: 'holder@example.com', password: 'H0lder-image-Pass' });
    const set = await a.upload(`/app/account/image/${mine}`, {}, image('header.png', PNG_1x1));
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({
      id: mine,
      public_profile_image: expect.stringMatching(new RegExp(`^/app/account/image/${mine}/\\d+$`)),
    });
    const url = set.json().public_profile_image;
    expect((await a.call(accountOverviewContracts.account)).json().account.public_profile_image).toBe(url);
    const profile = (await new Agent(t.app).get(`/api/accounts/${mine}/public`)).json();
    expect(profile.public_profile_image).toBe(url);
    const served = await new Agent(t.app).get(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toMatch(/^inline/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');

    const before = await stored();
    const replaced = (await a.upload(`/app/account/image/${mine}`, {}, image('HEADER.JPG', JPEG_1x1))).json();
    expect(replaced.public_profile_image).not.toBe(url);
    expect(await stored()).toBe(before);
    expect((await new Agent(t.app).get(url)).statusCode).toBe(404);

    const cleared = await a.call(accountSettingsContracts.clearImage, { params: { id: mine } });
    expect(cleared.json()).toEqual({ id: mine, public_profile_image: '' });
    expect(await stored()).toBe(before - 1);
    const [row] = await t.database.db
      .select({ image: accounts.publicProfileImage })
      .from(accounts)
      .where(eq(accounts.id, mine));
    expect(row.image).toBe('');
  });

  it('takes only jpeg, png and gif, checked by their bytes, within the size limit', async () => {
    const a = await signedIn(t.app, { email: 'holder@example.com', password: 'H0lder-image-Pass' });
    const before = await stored();
    for (const [name, content] of [
      ['header.webp', PNG_1x1],
      ['header.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
      ['header.jpg', WINDOWS_EXE],
      ['header.png.exe', PNG_1x1],
    ] as const) {
      const res = await a.upload(`/app/account/image/${mine}`, {}, image(name, content));
      expect(res.statusCode, name).toBe(422);
      expect(res.json().errors.file).toEqual([`${name} is not allowed.`]);
    }
    const big = await a.upload(
      `/app/account/image/${mine}`,
      {},
      image('big.png', Buffer.concat([PNG_1x1, Buffer.alloc(9 * 1024)])),
    );
    expect(big.json().errors.file).toEqual(['The file may not be larger than 8 KB.']);
    expect(await stored()).toBe(before);
  });

  it("another account's image routes answer 404; visitors 401; an admin may act and is audited", async () => {
    const other = await signedIn(t.app, { email: 'other@example.com', password: 'Other-image-Pass1' });
    expect((await other.upload(`/app/account/image/${mine}`, {}, image('x.png', PNG_1x1))).statusCode).toBe(404);
    expect((await other.call(accountSettingsContracts.clearImage, { params: { id: mine } })).statusCode).toBe(404);
    expect((await other.call(accountSettingsContracts.clearImage, { params: { id: 999999 } })).statusCode).toBe(404);
    const own = (
      await other.upload(
        `/app/account/image/${theirs}`,
        {},
        image('kenai.gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')),
      )
    ).json();
    const fileId = own.public_profile_image.split('/').pop();
    expect((await new Agent(t.app).get(`/app/account/image/${mine}/${fileId}`)).statusCode).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(accountSettingsContracts.clearImage, { params: { id: theirs } })).statusCode).toBe(401);

    const admin = await signedIn(t.app, { email: 'staff@example.com', password: 'Staff-image-Pass1' });
    expect((await admin.call(accountSettingsContracts.clearImage, { params: { id: theirs } })).json()).toEqual({
      id: theirs,
      public_profile_image: '',
    });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'account.profile_image.cleared'));
    expect(audit.map((r) => r.accountId)).toContain(theirs);
  });
});
