import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bylaws } from '../../src/server/db/schema.ts';
import { sampleAnswers } from '../../src/server/db/seed/wizard-schemas.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { bylawContracts } from '../../src/shared/contracts/bylaws.ts';
import { groupHomeContracts } from '../../src/shared/contracts/group-home.ts';
import { isFieldShown, type WizardPage } from '../../src/shared/forms/field-definition.ts';
import { valueFields } from '../../src/shared/forms/rules.ts';
import { getWizard, levelId, startApplicant } from '../helpers/applications.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let startUpId: number;
beforeAll(async () => {
  t = await createTestApp();
  startUpId = await levelId(t, 'start-up');
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const applicant = () => startApplicant(t, startUpId, `bylaws${++n}@example.com`);

const wizard = getWizard;

/** The body of one page's Next for a set of answers. */
function pageBody(page: WizardPage, p: number, answers: Record<string, unknown>) {
  const body: Record<string, unknown> = { page: p };
  for (const f of valueFields(page.schema))
    if (isFieldShown(f, answers) && f.name in answers) body[f.name] = answers[f.name];
  return body;
}

/** The text of a .docx's word/document.xml. */
function docxText(bytes: Buffer): string {
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  const xml = strFromU8(unzipSync(new Uint8Array(bytes))['word/document.xml']!);
  return [...xml.matchAll(/<w:t(?:\s[^>]*)?>([\s\S]*?)<\/w:t>/g)]
    .map((m) => m[1])
    .join('')
    .replace(/&amp;/g, '&')
    .replace(/&apos;/g, "'");
}

/** Saves every page up to and including the bylaws step with Next. */
async function throughBylawsStep(a: Agent, token: string, answers: Record<string, unknown>) {
  const pages: WizardPage[] = (await wizard(a, token)).config.schemas;
  const bylawsPage = pages.findIndex((p) => p.schema.some((f) => f.name === 'bylaw___name')) + 1;
  expect(bylawsPage, 'the start-up wizard has a bylaws step').toBeGreaterThan(0);
  let last;
  for (let p = 1; p <= bylawsPage; p++) {
    last = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: pageBody(pages[p - 1]!, p, answers),
    });
    expect(last.statusCode, `page ${p}: ${last.body}`).toBe(200);
  }
  return last!.json();
}

describe('the bylaws step writes the bylaws document (docs/wizard.md "The bylaws step")', () => {
  it('no document before the step is saved; saving it answers the download, which carries the answers', async () => {
    const { a, token } = await applicant();
    expect((await wizard(a, token)).bylaws).toBeNull();
    expect((await a.call(applicationWizardContracts.bylaws, { params: { token: token } })).statusCode).toBe(404);

    const answers = sampleAnswers('start-up', {
      bylaw___name: 'Kenai River Rowing Boosters',
      bylaw___facility: 'Kenai Central High School',
    });
    const saved = await throughBylawsStep(a, token, answers);
    expect(saved.bylaws).toMatchObject({
      file_name: expect.stringMatching(/Kenai River Rowing Boosters.*\.docx$/),
      download_url: `/application/bylaws/${token}`,
    });
    expect((await wizard(a, token)).bylaws).toEqual(saved.bylaws);

    const res = await a.get(saved.bylaws.download_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toContain('attachment');
    const text = docxText(res.rawPayload);
    expect(text).toContain('Bylaws of Kenai River Rowing Boosters');
    expect(text).toContain(String(answers.bylaw___purpose));
    expect(text).toContain('The Organization is organized to support Kenai Central High School');

    // Saving the step again replaces the document's answers: still one document.
    await throughBylawsStep(a, token, { ...answers, bylaw___name: 'Kenai River Crew Boosters' });
    expect(
      docxText((await a.call(applicationWizardContracts.bylaws, { params: { token: token } })).rawPayload),
    ).toContain('Bylaws of Kenai River Crew Boosters');
    const view = await wizard(a, token);
    expect(view.bylaws.file_name).toMatch(/Kenai River Crew Boosters/);
  });

  it('only the applicant downloads it: another applicant gets 404, a visitor 401', async () => {
    const { a, token } = await applicant();
    await throughBylawsStep(a, token, sampleAnswers('start-up'));
    const other = await applicant();
    const refused = await other.a.call(applicationWizardContracts.bylaws, { params: { token: token } });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('PK');
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(applicationWizardContracts.bylaws, { params: { token: token } })).statusCode).toBe(401);
  });

  it('submit writes the document from the submitted answers, and the group home lists it', async () => {
    const { a, token } = await applicant();
    const answers = sampleAnswers('start-up', { bylaw___name: 'Homer Harbor Swim Boosters' });
    const pages: WizardPage[] = (await wizard(a, token)).config.schemas;
    // Pages before the bylaws step only: the step itself is answered on Submit.
    for (const [i, page] of pages.entries()) {
      if (page.schema.some((f) => f.name.startsWith('bylaw___'))) continue;
      expect(
        (
          await a.call(applicationWizardContracts.savePage, {
            params: { token: token },
            body: pageBody(page, i + 1, answers),
          })
        ).statusCode,
      ).toBe(200);
    }
    const done = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: { submit: 1, ...answers },
    });
    expect(done.statusCode, done.body).toBe(200);

    expect(
      docxText((await a.call(applicationWizardContracts.bylaws, { params: { token: token } })).rawPayload),
    ).toContain('Bylaws of Homer Harbor Swim Boosters');
    const home = (await a.call(groupHomeContracts.home)).json();
    expect(home.account.id).toBe(done.json().account_id);
    const [row] = await t.database.db.select().from(bylaws).where(eq(bylaws.hash, home.documents.bylaws[0].hash));
    expect(home.documents.bylaws).toHaveLength(1);
    expect(row.answers).toMatchObject({ name: 'Homer Harbor Swim Boosters' });
    const download = await a.call(bylawContracts.download, { params: { hash: row.hash } });
    expect(docxText(download.rawPayload)).toContain('Bylaws of Homer Harbor Swim Boosters');
  });

  it('deleting the draft removes its bylaws', async () => {
    const { a, token } = await applicant();
    await throughBylawsStep(a, token, sampleAnswers('start-up'));
    expect((await a.call(groupHomeContracts.home)).json().documents.bylaws).toHaveLength(1);
    expect((await a.request('DELETE', '/application/delete', { token })).statusCode).toBe(200);
    expect((await a.call(groupHomeContracts.home)).json().documents.bylaws).toEqual([]);
  });
});
