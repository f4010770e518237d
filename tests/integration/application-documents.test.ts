import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, levels } from '../../src/server/db/schema.ts';
import { sampleAnswers } from '../../src/server/db/seed/wizard-schemas.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { FORBIDDEN_EXTENSIONS } from '../../src/shared/rules/uploads.ts';
import { JPEG_1x1, PDF_MINIMAL, PNG_1x1, WINDOWS_EXE } from '../helpers/files.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';
import type { FieldDefinition, WizardPage } from '../../src/shared/forms/field-definition.ts';

let t: TestApp;
let maintainLevelId: number;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      uploadLimits: {
        contest_photo: 1024,
        contest_video: 1024,
        roster: 1024,
        profile_image: 1024,
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

let n = 0;
async function maintainApplicant() {
  const a = await new Agent(t.app).start();
  const res = await a.call(applicationWizardContracts.start, {
    body: {
      email: `letter${++n}@example.com`,
      password: 'Booster-club-2026',
      level_id: maintainLevelId,
    },
  });
  expect(res.statusCode).toBe(201);
  a.csrfToken = res.json().csrfToken;
  return { a, token: res.json().token as string };
}

/** Every stored object under the test's storage directory. */
async function storedObjects(): Promise<string[]> {
  const all = await readdir(t.config.storage.dir, { recursive: true, withFileTypes: true });
  return all.filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}

const letter = (content = PDF_MINIMAL, fileName = 'IRS letter.pdf') => [
  { field: 'file', fileName, content, type: 'application/pdf' },
];

describe('the wizard file dropbox (docs/requirements/entities.md field type "file dropbox")', () => {
  it('the maintain wizard has a dropbox whose action carries the application token', async () => {
    const { a, token } = await maintainApplicant();
    const view = (await a.call(applicationWizardContracts.show, { params: { token: token } })).json();
    const dropbox = view.config.schemas
      .flatMap((p: WizardPage) => p.schema)
      .find((f: FieldDefinition) => f.field_type === 'dropbox');
    expect(dropbox).toMatchObject({
      label: 'Your IRS determination letter (optional)',
      action: `/application/upload/${token}`,
    });
    expect(view.config.fields.file_uploads).toEqual([]);
  });

  it('stores the file, answers the entry by file_name, lists it in the wizard and serves it back as an attachment', async () => {
    const { a, token } = await maintainApplicant();
    const res = await a.upload(`/application/upload/${token}`, {}, letter());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.file_upload).toMatchObject({
      file_name: 'IRS letter.pdf',
      size_bytes: PDF_MINIMAL.length,
      mime_type: 'application/pdf',
    });
    expect(body.file_uploads.map((f: { file_name: string }) => f.file_name)).toEqual(['IRS letter.pdf']);

    const second = await a.upload(`/application/upload/${token}`, {}, letter(PNG_1x1, 'page 2.PNG'));
    expect(second.json().file_uploads.map((f: { file_name: string }) => f.file_name)).toEqual([
      'IRS letter.pdf',
      'page 2.PNG',
    ]);
    const view = (await a.call(applicationWizardContracts.show, { params: { token: token } })).json();
    expect(view.config.fields.file_uploads.map((f: { file_name: string }) => f.file_name)).toEqual([
      'IRS letter.pdf',
      'page 2.PNG',
    ]);

    const download = await a.call(applicationWizardContracts.document, {
      params: { token: token, fileId: body.file_upload.id },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF_MINIMAL)).toBe(true);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="IRS letter.pdf"/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');

    const [row] = await t.database.db.select().from(files).where(eq(files.id, body.file_upload.id));
    expect(row.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row.storageKey).not.toContain('IRS');
  });

  it("another applicant's token, an unknown token and another applicant's file id answer 404", async () => {
    const owner = await maintainApplicant();
    const up = (await owner.a.upload(`/application/upload/${owner.token}`, {}, letter())).json();
    const other = await maintainApplicant();
    expect((await other.a.upload(`/application/upload/${owner.token}`, {}, letter())).statusCode).toBe(404);
    expect(
      (
        await other.a.call(applicationWizardContracts.document, {
          params: { token: owner.token, fileId: up.file_upload.id },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await other.a.call(applicationWizardContracts.document, {
          params: { token: other.token, fileId: up.file_upload.id },
        })
      ).statusCode,
    ).toBe(404);
    expect((await other.a.upload('/application/upload/no-such-token-0123456789', {}, letter())).statusCode).toBe(404);
  });

  it('refuses forbidden and disguised files with "{file} is not allowed." and keeps nothing', async () => {
    const { a, token } = await maintainApplicant();
    const before = await storedObjects();
    for (const fileName of [
      'setup.exe',
      'x.pdf.exe',
      'RUN.BAT',
      'letter.JS',
      'letter.docm',
      ...FORBIDDEN_EXTENSIONS.slice(0, 10).map((e) => `letter.${e}`),
    ]) {
      const res = await a.upload(`/application/upload/${token}`, {}, letter(PDF_MINIMAL, fileName));
      expect(res.statusCode, fileName).toBe(422);
      expect(res.json().errors.file, fileName).toEqual([`${fileName} is not allowed.`]);
    }
    // A program renamed as a picture: the bytes decide.
    const renamed = await a.upload(`/application/upload/${token}`, {}, letter(WINDOWS_EXE, 'letter.jpg'));
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().errors.file).toEqual(['letter.jpg is not allowed.']);
    // A JPEG named .pdf is not a PDF either.
    expect((await a.upload(`/application/upload/${token}`, {}, letter(JPEG_1x1, 'letter.pdf'))).statusCode).toBe(422);
    expect(await storedObjects()).toEqual(before);
    expect(
      (await a.call(applicationWizardContracts.show, { params: { token: token } })).json().config.fields.file_uploads,
    ).toEqual([]);
  });

  it('refuses two files, an empty request, an empty file and a file over the limit', async () => {
    const { a, token } = await maintainApplicant();
    const before = await storedObjects();
    const two = await a.upload(`/application/upload/${token}`, {}, [...letter(), ...letter(PNG_1x1, 'b.png')]);
    expect(two.statusCode).toBe(422);
    expect(two.json().errors.file).toEqual(['One at a time please!']);
    const none = await a.upload(`/application/upload/${token}`, { note: 'no file' }, []);
    expect(none.json().errors.file).toEqual(['Please choose a file.']);
    const empty = await a.upload(`/application/upload/${token}`, {}, letter(Buffer.alloc(0), 'blank.pdf'));
    expect(empty.json().errors.file).toEqual(['blank.pdf is empty.']);
    const big = Buffer.concat([PDF_MINIMAL, Buffer.alloc(65 * 1024, 0x20)]);
    const tooBig = await a.upload(`/application/upload/${token}`, {}, letter(big, 'scan.pdf'));
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors.file).toEqual(['The file may not be larger than 64 KB.']);
    expect(await storedObjects()).toEqual(before);
  });

  it('deleting the draft removes its documents', async () => {
    const { a, token } = await maintainApplicant();
    await a.upload(`/application/upload/${token}`, {}, letter());
    const before = (await storedObjects()).length;
    expect((await a.request('DELETE', '/application/delete', { token })).statusCode).toBe(200);
    expect((await storedObjects()).length).toBe(before - 1);
    expect((await a.upload(`/application/upload/${token}`, {}, letter())).statusCode).toBe(404);
  });

  it('submitting hands the documents to the new account, and the draft takes no more', async () => {
    const { a, token } = await maintainApplicant();
    const up = (await a.upload(`/application/upload/${token}`, {}, letter())).json();
    const answers = sampleAnswers('maintain', { account___ein: '98-7654321' });
    const done = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: { submit: 1, ...answers },
    });
    expect(done.statusCode, done.body).toBe(200);
    const [row] = await t.database.db.select().from(files).where(eq(files.id, up.file_upload.id));
    expect(row.accountId).toBe(done.json().account_id);
    expect((await a.upload(`/application/upload/${token}`, {}, letter())).statusCode).toBe(409);
  });
});
