import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, files, irsReleases, levels, mailOutbox } from '../../src/server/db/schema.ts';
import { sampleAnswers, type WizardLevelSlug } from '../../src/server/db/seed/wizard-schemas.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { groupHomeContracts } from '../../src/shared/contracts/group-home.ts';
import { isFieldShown, type WizardPage } from '../../src/shared/forms/field-definition.ts';
import { valueFields } from '../../src/shared/forms/rules.ts';
import { PDF_MINIMAL } from '../helpers/files.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/** docs/wizard.md: the real seeded wizards, as an applicant meets them. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const letter = () => [{ field: 'file', fileName: 'IRS letter.pdf', content: PDF_MINIMAL, type: 'application/pdf' }];

let n = 0;
/** A visitor who starts the level's application: signed in, with its token and the wizard's pages. */
async function applicant(slug: WizardLevelSlug) {
  const [level] = await t.database.db.select().from(levels).where(eq(levels.slug, slug));
  const a = await new Agent(t.app).start();
  const email = `answers${++n}@wizard.test`;
  const started = await a.call(applicationWizardContracts.start, {
    body: { email, password: 'Booster-club-2026', level_id: level.id },
  });
  expect(started.statusCode).toBe(201);
  a.csrfToken = started.json().csrfToken;
  const token: string = started.json().token;
  const pages: WizardPage[] = (await a.call(applicationWizardContracts.show, { params: { token: token } })).json()
    .config.schemas;
  /** PUT one page (1-based) with the answers its shown fields take. */
  const save = (page: number, answers: Record<string, unknown>) => {
    const body: Record<string, unknown> = { page };
    for (const f of valueFields(pages[page - 1].schema))
      if (isFieldShown(f, answers) && f.name in answers) body[f.name] = answers[f.name];
    return a.call(applicationWizardContracts.savePage, { params: { token: token }, body: body });
  };
  const pageOf = (name: string) => pages.findIndex((p) => p.schema.some((f) => f.name === name)) + 1;
  return { a, token, email, pages, save, pageOf };
}

describe('a group waiting for its IRS letter (docs/wizard.md)', () => {
  it('start-up sends it to the maintain application, which takes "Applied, waiting for the IRS letter" without a letter and submits', async () => {
    const s = await applicant('start-up');
    const applied = await s.save(
      s.pageOf('account___has_requested_exemption'),
      sampleAnswers('start-up', { account___has_requested_exemption: '1' }),
    );
    expect(applied.statusCode).toBe(422);
    expect(Object.keys(applied.json().errors)).toEqual(['account___has_requested_exemption']);
    const start = (await s.a.call(applicationWizardContracts.show, { params: { token: s.token } })).json();
    const warning = start.config.schemas
      .flatMap((p: WizardPage) => p.schema)
      .find((f: { name: string }) => f.name === 'tax_warning_wrong_application');
    expect(warning.description).toMatch(/waiting for its letter, you need the Maintain application/);
    const switched = await s.a.call(applicationWizardContracts.switchType, { params: { token: s.token } });
    expect(switched.statusCode).toBe(200);

    const m = await applicant('maintain');
    const waiting = sampleAnswers('maintain', {
      account___ein: '92-7761043',
      account___has_501c: '2',
      account___exemption_form: '1023-EZ',
      account___exemption_filed_on: '2026-09-14',
    });
    for (let p = 1; p <= m.pages.length; p++) {
      const res = await m.save(p, waiting);
      expect(res.statusCode, `page ${p}: ${res.body}`).toBe(200);
    }
    // No ruling year, GEN or letter was asked: the answers that follow from "applied" are set.
    const done = await m.a.call(applicationWizardContracts.savePage, {
      params: { token: m.token },
      body: {
        submit: 1,
        ...waiting,
        account___ruling_year: '',
        account___gen: '',
      },
    });
    expect(done.statusCode, done.body).toBe(200);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, done.json().account_id));
    expect(account.data).toMatchObject({
      account___has_501c: '2',
      account___has_requested_exemption: '1',
      account___exemption_form: '1023-EZ',
      account___exemption_filed_on: '2026-09-14',
    });
    expect(account.data).not.toHaveProperty('account___ruling_year');
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'application.completed'), eq(mailOutbox.toAddress, m.email)));
    expect(mail.textBody).toContain(
      'We are waiting with you for the IRS determination letter on your Form 1023-EZ, filed September 14, 2026.',
    );

    // The group's home says the letter is awaited, and takes it once it arrives.
    const home = (await m.a.call(groupHomeContracts.home)).json();
    expect(home.letter_awaited).toEqual({ form: '1023-EZ', filed_on: '2026-09-14', received_on: null, returned: null });
    const up = await m.a.upload('/api/app/determination-letter', {}, letter());
    expect(up.statusCode, up.body).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    expect(up.json().letter_awaited).toEqual({
      form: '1023-EZ',
      filed_on: '2026-09-14',
      received_on: today,
      returned: null,
    });
    expect((await m.a.call(groupHomeContracts.home)).json().letter_awaited.received_on).toBe(today);
    const [stored] = await t.database.db
      .select()
      .from(files)
      .where(and(eq(files.accountId, account.id), eq(files.purpose, 'application_document')));
    expect(stored.fileName).toBe('IRS letter.pdf');
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.accountId, account.id), eq(auditLog.action, 'account.determination_letter.uploaded')));
    expect(audit).toBeDefined();
  });

  it('only a user of an account waiting for its letter may upload it', async () => {
    const visitor = await new Agent(t.app).start();
    expect((await visitor.upload('/api/app/determination-letter', {}, letter())).statusCode).toBe(401);
    // Signed in, application not submitted: no account yet.
    const draft = await applicant('maintain');
    expect((await draft.a.upload('/api/app/determination-letter', {}, letter())).statusCode).toBe(404);
    // An account that holds its letter awaits none.
    const holder = await applicant('maintain');
    for (let p = 1; p <= holder.pages.length; p++)
      expect((await holder.save(p, sampleAnswers('maintain', { account___ein: '92-7761044' }))).statusCode).toBe(200);
    expect(
      (
        await holder.a.call(applicationWizardContracts.savePage, {
          params: { token: holder.token },
          body: {
            submit: 1,
            ...sampleAnswers('maintain', { account___ein: '92-7761044' }),
          },
        })
      ).statusCode,
    ).toBe(200);
    expect((await holder.a.call(groupHomeContracts.home)).json().letter_awaited).toBeNull();
    const refused = await holder.a.upload('/api/app/determination-letter', {}, letter());
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Your account is not waiting for an IRS letter. To send us a document, please contact us.',
    );
  });

  it('a maintain group with no letter and no application is refused on that answer, with the way to the start-up application', async () => {
    const m = await applicant('maintain');
    const res = await m.save(m.pageOf('account___has_501c'), sampleAnswers('maintain', { account___has_501c: '0' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ account___has_501c: ['The selected answer is invalid.'] });
  });

  it('the filing date cannot be in the future; the form is required', async () => {
    const m = await applicant('maintain');
    const res = await m.save(
      m.pageOf('account___has_501c'),
      sampleAnswers('maintain', {
        account___has_501c: '2',
        account___exemption_form: '',
        account___exemption_filed_on: '2999-01-01',
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      account___exemption_form: ['The answer field is required.'],
      account___exemption_filed_on: ['The date you filed it must be today or earlier.'],
    });
  });
});

describe('answers asked once (docs/wizard.md)', () => {
  it('the bylaws name and school come from the group answers, and the bylaws fiscal year from the fiscal year given', async () => {
    const s = await applicant('start-up');
    const answers = sampleAnswers('start-up');
    const first = await s.save(1, answers);
    expect(first.statusCode).toBe(200);
    expect(first.json().fields).toMatchObject({
      bylaw___name: answers.account___name,
      bylaw___facility: answers.account___school,
    });
    expect(s.pages.at(-1)!.schema.map((f) => f.name)).not.toContain('bylaw___fiscal_year_end');
    for (let p = 2; p < s.pages.length; p++) expect((await s.save(p, answers)).statusCode).toBe(200);
    const view = (await s.a.call(applicationWizardContracts.show, { params: { token: s.token } })).json();
    expect(view.config.fields).toMatchObject({
      bylaw___name: answers.account___name,
      bylaw___fiscal_year_end: '5',
      account___fiscal_year_end: '6',
    });
    // A changed bylaws name is kept, not overwritten by the group's.
    const last = await s.save(s.pages.length, { ...answers, bylaw___name: 'Soldotna Track and Field Boosters' });
    expect(last.json().fields.bylaw___name).toBe('Soldotna Track and Field Boosters');
    const done = await s.a.call(applicationWizardContracts.savePage, {
      params: { token: s.token },
      body: {
        submit: 1,
        ...answers,
        bylaw___name: 'Soldotna Track and Field Boosters',
      },
    });
    expect(done.statusCode, done.body).toBe(200);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, done.json().account_id));
    expect(account.data).toMatchObject({
      bylaw___fiscal_year_end: '5',
      bylaw___name: 'Soldotna Track and Field Boosters',
    });
  });
});

describe('officers (docs/wizard.md)', () => {
  it('refuses a treasurer who is the president, on the treasurer field; only the owner may save', async () => {
    const s = await applicant('full-service');
    const page = s.pageOf('contact___treasurer_first_name');
    const same = sampleAnswers('full-service', {
      contact___treasurer_first_name: 'maria',
      contact___treasurer_last_name: 'ALVAREZ ',
    });
    const res = await s.save(page, same);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      contact___treasurer_first_name: ['The treasurer must be a different person from the president.'],
    });
    // Submit checks it too.
    const submit = await s.a.call(applicationWizardContracts.savePage, {
      params: { token: s.token },
      body: { submit: 1, ...same },
    });
    expect(submit.statusCode).toBe(422);
    expect(submit.json()).toMatchObject({
      page,
      errors: { contact___treasurer_first_name: ['The treasurer must be a different person from the president.'] },
    });
    expect((await s.save(page, sampleAnswers('full-service'))).statusCode).toBe(200);

    const other = await applicant('full-service');
    expect(
      (
        await other.a.call(applicationWizardContracts.savePage, {
          params: { token: s.token },
          body: { page, ...sampleAnswers('full-service') },
        })
      ).statusCode,
    ).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect(
      (
        await visitor.call(applicationWizardContracts.savePage, {
          params: { token: s.token },
          body: { page, ...sampleAnswers('full-service') },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('fiscal year and the IRS record (docs/wizard.md)', () => {
  it('prefills the IRS month for an EIN in the IRS data, and warns, without refusing, when the answer differs', async () => {
    const db = t.database.db;
    const [release] = await db
      .insert(irsReleases)
      .values({
        dataset: 'bmf',
        fileName: 'eo_ak.csv',
        releasedOn: '2026-10-12',
        rowCount: 1,
        loadedCount: 1,
        sha256: 'b'.repeat(64),
      })
      .returning();
    await db.insert(accounts).values({
      name: 'KENAI CENTRAL HOCKEY BOOSTER CLUB',
      ein: '920178399',
      source: 'irs-bmf',
      fiscalYearEndMonth: 12,
      bmfReleaseId: release.id,
      irsStatus: '01',
    });
    const m = await applicant('maintain');
    const answers = sampleAnswers('maintain', { account___ein: '92-0178399' });
    for (let p = 1; p < m.pageOf('account___fiscal_year_end'); p++)
      expect((await m.save(p, answers)).statusCode).toBe(200);
    const before = (await m.a.call(applicationWizardContracts.show, { params: { token: m.token } })).json();
    expect(before.config.fields.account___fiscal_year_end).toBe('12');
    expect(before.notices).toEqual([]);
    // The form gets the record, to warn as the month is chosen.
    expect(before.irs_fiscal_year).toEqual({ ein: '920178399', month: 12, releasedOn: '2026-10-12' });

    const fiscal = m.pageOf('account___fiscal_year_end');
    const differs = await m.save(fiscal, { ...answers, account___fiscal_year_end: '6' });
    expect(differs.statusCode).toBe(200);
    expect(differs.json().notices).toEqual([
      expect.stringContaining(
        'The IRS data for EIN 92-0178399 (released October 12, 2026) shows your fiscal year ending in December, but you answered June.',
      ),
    ]);
    expect(differs.json().notices[0]).toMatch(/Form 1128/);
    expect((await m.a.call(applicationWizardContracts.show, { params: { token: m.token } })).json().notices).toEqual(
      differs.json().notices,
    );

    const agrees = await m.save(fiscal, { ...answers, account___fiscal_year_end: '12' });
    expect(agrees.json().notices).toEqual([]);
  });

  it('says nothing for an EIN the IRS data does not hold', async () => {
    const m = await applicant('maintain');
    const answers = sampleAnswers('maintain', { account___ein: '92-0178311', account___fiscal_year_end: '6' });
    for (let p = 1; p <= m.pageOf('account___fiscal_year_end'); p++) {
      const res = await m.save(p, answers);
      expect(res.json()).toMatchObject({ irs_fiscal_year: null, notices: [] });
    }
  });
});
