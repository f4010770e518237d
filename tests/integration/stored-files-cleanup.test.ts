import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { accounts, applications, dailyCounters, files, levels, users } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { JOBS } from '../../src/server/jobs/definitions.ts';
import { PARTIAL_UPLOAD_MAX_AGE_MS, runHousekeeping } from '../../src/server/modules/files/housekeeping-job.ts';
import { removeStoredFiles } from '../../src/server/modules/files/remove-stored-files.ts';
import { newStorageKey, type FileStorage } from '../../src/server/providers/storage/storage.ts';
import { accountUserContracts, accountSettingsContracts } from '../../src/shared/contracts/account-settings.ts';
import { PDF_MINIMAL, PNG_1x1 } from '../helpers/files.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * What uploads leave on disk (docs/security.md "Upload quotas", "Files of deleted users and
 * accounts"): partial uploads of a process that died, and the files of deleted users and accounts.
 */

let t: TestApp;
let maintainLevelId: number;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      uploadLimits: {
        contest_photo: 1024,
        contest_video: 1024,
        roster: 1024,
        profile_image: 64 * 1024,
        application_document: 64 * 1024,
      },
    },
  });
  [{ id: maintainLevelId }] = await t.database.db
    .select({ id: levels.id })
    .from(levels)
    .where(eq(levels.slug, 'maintain'));
});
afterAll(async () => {
  await t.close();
});

const onDisk = async (key: string) =>
  stat(path.join(t.config.storage.dir, key)).then(
    () => true,
    () => false,
  );
const keysOf = async (ids: number[]) =>
  (await t.database.db.select({ key: files.storageKey }).from(files).where(inArray(files.id, ids))).map((r) => r.key);

/** A partial upload as a killed process leaves it: `<key>.part`, last written `ageMs` ago. */
async function partialUpload(ageMs: number): Promise<string> {
  const file = path.join(t.config.storage.dir, `${newStorageKey('contest_video')}.part`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'half a video');
  const when = new Date(Date.now() - ageMs);
  await utimes(file, when, when);
  return file;
}
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe('partial uploads', () => {
  it('the housekeeping round removes .part files untouched for over an hour, and nothing else', async () => {
    const old = await partialUpload(PARTIAL_UPLOAD_MAX_AGE_MS + 60_000);
    const fresh = await partialUpload(5 * 60_000);
    // A stored file as old as the partial one stays: only .part files are swept.
    const keep = path.join(t.config.storage.dir, newStorageKey('contest_photo'));
    await mkdir(path.dirname(keep), { recursive: true });
    await writeFile(keep, 'a stored photo');
    const long = new Date(Date.now() - 2 * PARTIAL_UPLOAD_MAX_AGE_MS);
    await utimes(keep, long, long);

    const round = await runHousekeeping(t.app);
    expect(round.partialUploads).toBe(1);
    expect(await exists(old)).toBe(false);
    expect(await exists(fresh)).toBe(true);
    expect(await exists(keep)).toBe(true);
  });

  it('runs as a periodic job of the job runner, and closes with the app', async () => {
    // The real definition, on a one-second schedule instead of fifteen minutes.
    const housekeeping = {
      ...JOBS.find((d) => d.name === 'upload-housekeeping')!,
      firstRunMs: 10,
      schedule: () => ({ everyMs: 1000 }),
    };
    const job = await buildApp(t.config, {
      database: t.database,
      logger: false,
      jobs: [housekeeping],
      jobRunner: { pollSeconds: 0.5 },
    });
    await job.ready();
    await job.jobs.start();
    try {
      const old = await partialUpload(2 * PARTIAL_UPLOAD_MAX_AGE_MS);
      expect(await waitFor(async () => !(await exists(old)), 10_000)).toBe(true);
      // The next round comes by itself.
      const later = await partialUpload(2 * PARTIAL_UPLOAD_MAX_AGE_MS);
      expect(await waitFor(async () => !(await exists(later)), 10_000)).toBe(true);
    } finally {
      await job.close();
    }
  });

  it('removes the daily counters of days before yesterday', async () => {
    await t.database.db.insert(dailyCounters).values([
      { key: 'contest-upload:ip:203.0.113.1', day: '2020-01-01', count: 3 },
      { key: 'contest-upload:ip:203.0.113.1', day: new Date().toISOString().slice(0, 10), count: 1 },
    ]);
    await runHousekeeping(t.app);
    const left = await t.database.db
      .select({ day: dailyCounters.day })
      .from(dailyCounters)
      .where(eq(dailyCounters.key, 'contest-upload:ip:203.0.113.1'));
    expect(left.map((r) => r.day)).toEqual([new Date().toISOString().slice(0, 10)]);
  });
});

/** An account with a primary user, a header image, and a completed application with a document. */
async function accountWithFiles(name: string) {
  const db = t.database.db;
  const accountId = (await createAccount(db, { name })).id;
  const primary = {
    email: `${name.replace(/\W/g, '').toLowerCase()}.primary@example.com`,
    password: 'Primary-pass-123',
  };
  const primaryId = (await createUser(db, { ...primary, accountId })).id;
  await db.update(users).set({ isPrimary: true }).where(eq(users.id, primaryId));
  await db.update(accounts).set({ primaryUserId: primaryId }).where(eq(accounts.id, accountId));
  const agent = await signedIn(t.app, primary);
  const image = await agent.upload(`/app/account/image/${accountId}`, {}, [
    { field: 'file', fileName: 'header.png', content: PNG_1x1, type: 'image/png' },
  ]);
  expect(image.statusCode, image.body).toBe(200);
  // The application that became the account, with the letter uploaded during it.
  const [completed] = await db
    .insert(applications)
    .values({ tokenHash: `completed-${name}`, userId: primaryId, levelId: maintainLevelId, type: 'maintain' })
    .returning({ id: applications.id });
  const letter = await agent.upload(`/application/upload/${completed.id}`, {}, [
    { field: 'file', fileName: 'irs-letter.pdf', content: PDF_MINIMAL, type: 'application/pdf' },
  ]);
  expect(letter.statusCode, letter.body).toBe(201);
  await db.update(applications).set({ status: 'completed', accountId }).where(eq(applications.id, completed.id));
  await db.update(files).set({ accountId }).where(eq(files.applicationId, completed.id));
  const imageId = (await db.select({ id: files.id }).from(files).where(eq(files.accountId, accountId))).find(
    (f) => f.id !== letter.json().file_upload.id,
  )!.id;
  return {
    accountId,
    primaryId,
    agent,
    imageId,
    letterId: letter.json().file_upload.id as number,
    completedId: completed.id,
  };
}

describe('files of deleted users', () => {
  it('deleting an account user removes the documents of their drafts, bytes and rows; the account keeps its own files', async () => {
    const db = t.database.db;
    const acct = await accountWithFiles('Seward Swim Boosters');
    // A second user of the account, with a draft of their own and two documents in it.
    const helper = { email: 'seward.helper@example.com', password: 'Helper-pass-123' };
    const helperId = (await createUser(db, { ...helper, accountId: acct.accountId })).id;
    const [draft] = await db
      .insert(applications)
      .values({ tokenHash: 'seward-helper-draft', userId: helperId, levelId: maintainLevelId, type: 'maintain' })
      .returning({ id: applications.id });
    const helperAgent = await signedIn(t.app, helper);
    const drafts: number[] = [];
    for (const name of ['minutes.pdf', 'budget.pdf']) {
      const res = await helperAgent.upload(`/application/upload/${draft.id}`, {}, [
        { field: 'file', fileName: name, content: PDF_MINIMAL, type: 'application/pdf' },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      drafts.push(res.json().file_upload.id);
    }
    const draftKeys = await keysOf(drafts);
    const keptKeys = await keysOf([acct.imageId, acct.letterId]);
    for (const key of [...draftKeys, ...keptKeys]) expect(await onDisk(key), key).toBe(true);

    const res = await acct.agent.call(accountUserContracts.remove, { params: { id: helperId } });
    expect(res.statusCode, res.body).toBe(200);

    for (const key of draftKeys) expect(await onDisk(key), key).toBe(false);
    expect(await db.select().from(files).where(inArray(files.id, drafts))).toEqual([]);
    for (const key of keptKeys) expect(await onDisk(key), key).toBe(true);
    expect(
      await db
        .select({ id: files.id })
        .from(files)
        .where(inArray(files.id, [acct.imageId, acct.letterId])),
    ).toHaveLength(2);
    // The header image is still served on the public profile.
    expect(
      (
        await new Agent(t.app)
          .start()
          .then((v) => v.call(accountSettingsContracts.image, { params: { id: acct.accountId, fileId: acct.imageId } }))
      ).statusCode,
    ).toBe(200);
  });

  it('a removal that fails keeps the row, and the housekeeping round retries it', async () => {
    const db = t.database.db;
    const user = (await createUser(db, { email: 'flaky.storage@example.com', password: 'Flaky-pass-123' })).id;
    const [draft] = await db
      .insert(applications)
      .values({ tokenHash: 'flaky-draft', userId: user, levelId: maintainLevelId, type: 'maintain' })
      .returning({ id: applications.id });
    const agent = await signedIn(t.app, { email: 'flaky.storage@example.com', password: 'Flaky-pass-123' });
    const up = await agent.upload(`/application/upload/${draft.id}`, {}, [
      { field: 'file', fileName: 'notes.pdf', content: PDF_MINIMAL, type: 'application/pdf' },
    ]);
    const [key] = await keysOf([up.json().file_upload.id]);
    await db.delete(users).where(eq(users.id, user));
    const failing: FileStorage = {
      ...t.app.providers.storage,
      delete: async () => {
        throw new Error('storage unavailable');
      },
    };
    expect(await removeStoredFiles(db, failing)).toEqual({ removed: 0, failed: 1 });
    expect(await onDisk(key)).toBe(true);
    expect((await runHousekeeping(t.app)).filesLeftBehind).toBe(1);
    expect(await onDisk(key)).toBe(false);
    expect(await db.select().from(files).where(eq(files.id, up.json().file_upload.id))).toEqual([]);
  });
});

describe('files of a deleted account', () => {
  it('after the transaction that deletes an account commits, its header images and application documents are removed', async () => {
    const db = t.database.db;
    const acct = await accountWithFiles('Homer Hockey Boosters');
    const keys = await keysOf([acct.imageId, acct.letterId]);
    // There is no route that deletes an account yet; this is the transaction one would run.
    await db.transaction(async (tx) => {
      await tx.delete(applications).where(eq(applications.accountId, acct.accountId));
      await tx.update(accounts).set({ primaryUserId: null }).where(eq(accounts.id, acct.accountId));
      await tx.delete(users).where(eq(users.accountId, acct.accountId));
      await tx.delete(accounts).where(eq(accounts.id, acct.accountId));
    });
    expect(await removeStoredFiles(db, t.app.providers.storage)).toEqual({ removed: 2, failed: 0 });
    for (const key of keys) expect(await onDisk(key), key).toBe(false);
    expect(
      await db
        .select()
        .from(files)
        .where(inArray(files.id, [acct.imageId, acct.letterId])),
    ).toEqual([]);
    // Contest files have no application or account, and are never taken for left behind.
    const contest = await (
      await new Agent(t.app, '10.61.0.1').start()
    ).upload(
      '/contests/photo',
      { organization: 'Homer Fans', email: 'homer.fan@example.com', type: '', message: '', is_member: '0' },
      [{ field: 'file', fileName: 'fans.png', content: PNG_1x1, type: 'image/png' }],
    );
    expect(contest.statusCode).toBe(201);
    expect(await removeStoredFiles(db, t.app.providers.storage)).toEqual({ removed: 0, failed: 0 });
    expect(
      (await readdir(t.config.storage.dir, { recursive: true })).some((f) => String(f).startsWith('contest_photo')),
    ).toBe(true);
  });
});
