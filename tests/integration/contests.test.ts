import { readdir } from 'node:fs/promises';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contestEntries } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { adminContestsContracts } from '../../src/shared/contracts/admin-contests.ts';
import { FORBIDDEN_EXTENSIONS } from '../../src/shared/rules/uploads.ts';
import { JPEG_1x1, PNG_1x1, WINDOWS_EXE } from '../helpers/files.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      uploadLimits: {
        contest_photo: 32 * 1024,
        contest_video: 64 * 1024,
        roster: 1024,
        profile_image: 1024,
        application_document: 1024,
      },
    },
  });
});
afterAll(async () => {
  await t.close();
});

let ip = 0;
/** Each visitor comes from its own address so the form rate limit stays out of the way. */
const visitor = () => new Agent(t.app, `10.9.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`).start();
const stored = async () =>
  (await readdir(t.config.storage.dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).length;

/** A tiny MP4: an 'ftyp' box with the isom brand is what file-type reads. */
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2', 'latin1'),
  Buffer.alloc(64),
]);

let n = 0;
const fields = (over: Record<string, string> = {}) => ({
  organization: `Eagle River Boosters ${++n}`,
  email: `entrant${n}@example.com`,
  type: 'booster_club',
  message: 'Our team at state.',
  is_member: '1',
  ...over,
});
const photo = (fileName = 'team.jpg', content = JPEG_1x1) => [{ field: 'file', fileName, content, type: 'image/jpeg' }];

describe('contest entries (docs/requirements/product.md tool 4)', () => {
  it('takes a photo entry with its file and keeps the self-declaration as 1/0', async () => {
    const a = await visitor();
    const f = fields();
    const res = await a.upload('/contests/photo', f, photo('Team.PNG', PNG_1x1));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ counts: true, has_max_submissions: false });
    const [row] = await t.database.db.select().from(contestEntries).where(eq(contestEntries.id, res.json().id));
    expect(row).toMatchObject({
      contest: 'photo',
      organization: f.organization,
      email: f.email,
      type: 'booster_club',
      isMember: true,
      counts: true,
    });
    expect(row.fileId).toBeTruthy();
  });

  it('requires message and file for booster clubs and school staff, not for others', async () => {
    const a = await visitor();
    const missing = await a.upload('/contests/photo', fields({ type: 'school_staff', message: '' }), []);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toMatchObject({ message: ['The message field is required.'] });
    const noFile = await a.upload('/contests/photo', fields({ type: 'booster_club' }), []);
    expect(noFile.json().errors).toEqual({ file: ['The file field is required.'] });
    const fan = await a.upload('/contests/photo', fields({ type: '', message: '' }), []);
    expect(fan.statusCode, fan.body).toBe(201);
    const bad = await a.upload(
      '/contests/photo',
      fields({ organization: '', email: 'not-an-email', type: 'coach' }),
      photo(),
    );
    expect(bad.json().errors).toMatchObject({
      organization: ['The organization field is required.'],
      email: ['The email field must be a valid email address.'],
      type: ['The selected type is invalid.'],
    });
  });

  it('refuses forbidden, disguised and off-list files with "{file} is not allowed.", keeping nothing', async () => {
    const a = await visitor();
    const before = await stored();
    for (const fileName of [
      ...FORBIDDEN_EXTENSIONS.slice(0, 10).map((e) => `entry.${e}`),
      'x.jpg.exe',
      'PHOTO.EXE',
      'clip.mp4',
      'letter.pdf',
    ]) {
      const res = await a.upload('/contests/photo', fields(), photo(fileName));
      expect(res.statusCode, fileName).toBe(422);
      expect(res.json().errors.file, fileName).toEqual([`${fileName} is not allowed.`]);
    }
    const renamed = await a.upload('/contests/photo', fields(), photo('team.jpg', WINDOWS_EXE));
    expect(renamed.json().errors.file).toEqual(['team.jpg is not allowed.']);
    const videoAsPhoto = await a.upload('/contests/video', fields(), photo('clip.mp4', JPEG_1x1));
    expect(videoAsPhoto.json().errors.file).toEqual(['clip.mp4 is not allowed.']);
    expect(await stored()).toBe(before);
  });

  it('takes uppercase extensions, refuses two files and files over the limit', async () => {
    const a = await visitor();
    expect((await a.upload('/contests/photo', fields(), photo('TEAM.JPG'))).statusCode).toBe(201);
    expect(
      (await a.upload('/contests/video', fields(), [{ field: 'file', fileName: 'STATE.MP4', content: MP4 }]))
        .statusCode,
    ).toBe(201);
    const before = await stored();
    const two = await a.upload('/contests/photo', fields(), [...photo('a.jpg'), ...photo('b.jpg')]);
    expect(two.statusCode).toBe(422);
    expect(two.json().errors.file).toEqual(['One at a time please!']);
    const big = await a.upload(
      '/contests/photo',
      fields(),
      photo('big.jpg', Buffer.concat([JPEG_1x1, Buffer.alloc(40 * 1024)])),
    );
    expect(big.statusCode).toBe(422);
    expect(big.json().errors.file).toEqual(['The file may not be larger than 32 KB.']);
    expect(await stored()).toBe(before);
  });

  it('photo: the 4th entry by the same e-mail, or by the same organization, answers 401 Limit reached and keeps nothing', async () => {
    const a = await visitor();
    const base = fields();
    for (let i = 0; i < 3; i++) {
      const res = await a.upload('/contests/photo', { ...base, organization: `${base.organization} ${i}` }, photo());
      expect(res.json().counts).toBe(true);
    }
    const before = await stored();
    const fourth = await a.upload('/contests/photo', { ...base, organization: 'A brand new name' }, photo());
    expect(fourth.statusCode).toBe(401);
    expect(fourth.json().message).toBe(
      'It looks like we have already received three entries for this organization or email address.',
    );
    expect(await stored()).toBe(before);

    const org = fields();
    for (let i = 0; i < 3; i++)
      await a.upload('/contests/photo', { ...org, email: `member${i}.${org.email}` }, photo());
    const sameOrg = await a.upload(
      '/contests/photo',
      { ...org, organization: org.organization.toUpperCase(), email: 'someone.else@example.com' },
      photo(),
    );
    expect(sameOrg.statusCode).toBe(401);
  });

  it('video: the 4th entry says has_max_submissions and keeps nothing: no file, no row', async () => {
    const a = await visitor();
    const base = fields();
    const video = [{ field: 'file', fileName: 'state-final.mp4', content: MP4 }];
    for (let i = 0; i < 3; i++) {
      const res = await a.upload('/contests/video', base, video);
      expect(res.json()).toMatchObject({ counts: true, has_max_submissions: false });
    }
    const files = await stored();
    const [{ n: rows }] = await t.database.db.select({ n: count() }).from(contestEntries);
    const fourth = await a.upload('/contests/video', base, video);
    expect(fourth.statusCode).toBe(201);
    expect(fourth.json()).toEqual({ id: null, counts: false, has_max_submissions: true });
    // By organization too, and when the file comes before the fields (read, then dropped).
    const sameOrg = await a.upload('/contests/video', { ...base, email: `other.${base.email}` }, video);
    expect(sameOrg.json()).toEqual({ id: null, counts: false, has_max_submissions: true });
    const boundary = 'file-before-fields';
    const part = (headers: string, body: Buffer | string) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
    const fileFirst = Buffer.concat([
      part('Content-Disposition: form-data; name="file"; filename="late.mp4"\r\nContent-Type: video/mp4', MP4),
      ...Object.entries(base).map(([k, v]) => part(`Content-Disposition: form-data; name="${k}"`, v)),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const contentType = `multipart/form-data; boundary=${boundary}`;
    const late = await a.request('POST', '/contests/video', fileFirst, { 'content-type': contentType });
    expect(late.statusCode, late.body).toBe(201);
    expect(late.json()).toEqual({ id: null, counts: false, has_max_submissions: true });
    expect(await stored()).toBe(files);
    expect((await t.database.db.select({ n: count() }).from(contestEntries))[0].n).toBe(rows);
    // The photo count is separate from the video count.
    expect((await a.upload('/contests/photo', base, photo())).json().counts).toBe(true);
  });

  it('admins browse entries per contest, counted or not, and download the files; others cannot', async () => {
    const a = await visitor();
    const base = fields();
    const video = [{ field: 'file', fileName: 'final.mp4', content: MP4 }];
    for (let i = 0; i < 4; i++) await a.upload('/contests/video', base, video);
    const admin = await new Agent(t.app).start();
    await createUser(t.database.db, {
      email: 'contest.admin@example.com',
      password: 'Adm1n-contest-Pass',
      isAdmin: true,
    });
    expect((await admin.login('contest.admin@example.com', 'Adm1n-contest-Pass')).statusCode).toBe(200);
    const counted = (
      await admin.call(adminContestsContracts.entries, { params: { contest: 'video' }, query: { counted: 'yes' } })
    ).json();
    expect(counted.data.every((e: { counts: boolean }) => e.counts)).toBe(true);
    const mine = counted.data.filter((e: { email: string }) => e.email === base.email);
    // The fourth was past the limit and not kept.
    expect(mine).toHaveLength(3);
    const entry = mine[0];
    expect(entry).toMatchObject({ organization: base.organization, file_name: 'final.mp4', mime_type: 'video/mp4' });
    const extras = (
      await admin.call(adminContestsContracts.entries, { params: { contest: 'video' }, query: { counted: 'no' } })
    ).json();
    expect(extras.data.filter((e: { email: string }) => e.email === base.email)).toEqual([]);
    const file = await admin.get(entry.file_url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(MP4)).toBe(true);
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
    const photos = (await admin.call(adminContestsContracts.entries, { params: { contest: 'photo' } })).json();
    const withImage = photos.data.find((e: { mime_type: string | null }) => e.mime_type === 'image/jpeg');
    const inline = await admin.get(`${withImage.file_url}?inline=1`);
    expect(inline.headers['content-disposition']).toMatch(/^inline/);
    expect((await a.get(entry.file_url)).statusCode).toBe(401);
    expect((await a.call(adminContestsContracts.entries, { params: { contest: 'video' } })).statusCode).toBe(401);
  });

  it("staff search, sort by each column title and export a contest's entries as CSV; others cannot", async () => {
    const v = await visitor();
    const entries: [string, string, ReturnType<typeof photo> | []][] = [
      ['zebra Boosters', '', []],
      ['Aardvark Club', 'school_staff', photo('aardvark.jpg')],
      ['Mango Fans', 'booster_club', photo('mango.jpg')],
    ];
    for (const [i, [organization, type, file]] of entries.entries()) {
      const res = await v.upload(
        '/contests/photo',
        fields({ organization, type, email: `sortcheck${i}@example.com` }),
        file,
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    const admin = await new Agent(t.app).start();
    expect((await admin.login('contest.admin@example.com', 'Adm1n-contest-Pass')).statusCode).toBe(200);
    const orgs = async (q: string) =>
      (await admin.get(`/api/admin/contests/photo/entries?search=sortcheck&${q}`))
        .json()
        .data.map((e: { organization: string }) => e.organization);
    expect(await orgs('sort=organization')).toEqual(['Aardvark Club', 'Mango Fans', 'zebra Boosters']);
    expect(await orgs('sort=-organization')).toEqual(['zebra Boosters', 'Mango Fans', 'Aardvark Club']);
    expect(await orgs('sort=type')).toEqual(['zebra Boosters', 'Mango Fans', 'Aardvark Club']);
    expect(await orgs('sort=created_at')).toEqual(['zebra Boosters', 'Aardvark Club', 'Mango Fans']);
    expect(await orgs('sort=-counts&counted=yes')).toEqual(['Mango Fans', 'Aardvark Club', 'zebra Boosters']);
    const mango = (
      await admin.call(adminContestsContracts.entries, {
        params: { contest: 'photo' },
        query: { search: 'mango sortcheck2' },
      })
    ).json();
    expect(mango.data.map((e: { organization: string }) => e.organization)).toEqual(['Mango Fans']);
    const bad = await admin.call(adminContestsContracts.entries, {
      params: { contest: 'photo' },
      query: { sort: 'message' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.sort[0]).toBe(
      'The sort must be one of: created_at, -created_at, organization, -organization, type, -type, counts, -counts.',
    );
    expect(
      (await admin.call(adminContestsContracts.entries, { params: { contest: 'photo' }, query: { counted: 'maybe' } }))
        .statusCode,
    ).toBe(422);

    const res = await admin.call(adminContestsContracts.entriesCsv, {
      params: { contest: 'photo' },
      query: { search: 'sortcheck', sort: '-organization', page: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="photo-contest-entries-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Received,Organization,E-mail,Type,Member,Message,File,Counts,Entry id');
    const shown = (
      await admin.call(adminContestsContracts.entries, {
        params: { contest: 'photo' },
        query: { search: 'sortcheck', sort: '-organization' },
      })
    ).json().data as { id: number; created_at: string }[];
    expect(lines.slice(1).map((l) => Number(l.split(',').at(-1)))).toEqual(shown.map((e) => e.id));
    expect(lines[1]).toBe(
      `${shown[0]!.created_at.slice(0, 19).replace('T', ' ')} UTC,zebra Boosters,sortcheck0@example.com,"Parent, student or fan",Yes,Our team at state.,,Yes,${shown[0]!.id}`,
    );
    expect(lines[2]).toContain(',Mango Fans,sortcheck2@example.com,Booster club,Yes,Our team at state.,mango.jpg,Yes,');
    expect(
      (await admin.call(adminContestsContracts.entriesCsv, { params: { contest: 'photo' }, query: { sort: 'nope' } }))
        .statusCode,
    ).toBe(422);

    await createUser(t.database.db, { email: 'contest.holder@example.com', password: 'Holder-contest-Pass1' });
    const holder = await new Agent(t.app).start();
    expect((await holder.login('contest.holder@example.com', 'Holder-contest-Pass1')).statusCode).toBe(200);
    const stranger = await new Agent(t.app).start();
    for (const path of ['/api/admin/contests/photo/entries', '/api/admin/contests/photo/entries/export.csv']) {
      expect((await holder.get(path)).statusCode, path).toBe(403);
      expect((await stranger.get(path)).statusCode, path).toBe(401);
    }
  });
});
