import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleAnswers } from '../../src/server/db/seed/wizard-schemas.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { isFieldShown, type WizardPage } from '../../src/shared/forms/field-definition.ts';
import { valueFields } from '../../src/shared/forms/rules.ts';
import { DRAFT_VALUE_MAX } from '../../src/shared/schemas/application.ts';
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
const applicant = () => startApplicant(t, startUpId, `drafter${++n}@example.com`);

const wizard = getWizard;

describe('PATCH /application/create/:token: draft save as the user types (docs/wizard.md "Saving as you type")', () => {
  it('keeps a half-typed page without checking it or moving on, and the wizard resumes with it', async () => {
    const { a, token } = await applicant();
    // Half an organization name, nothing else: Next would refuse this page.
    const res = await a.request('PATCH', `/application/create/${token}`, {
      page: 1,
      account___name: 'Soldotna Tra',
      account___city: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ page: 1, saved: ['account___name', 'account___city'] });
    const view = await wizard(a, token);
    expect(view.config.fields).toMatchObject({ account___name: 'Soldotna Tra', account___city: '' });
    expect(view.page).toBe(1);
    // Next still checks the page as before.
    const next = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: { page: 1, account___name: 'Soldotna Tra' },
    });
    expect(next.statusCode).toBe(422);
    expect((await wizard(a, token)).page).toBe(1);
  });

  it("keeps only the fields of that page: other pages' fields and unknown names are ignored, sizes are capped", async () => {
    const { a, token } = await applicant();
    const pages: WizardPage[] = (await wizard(a, token)).config.schemas;
    const otherPageField = valueFields(pages[1]!.schema)[0]!.name;
    const res = await a.request('PATCH', `/application/create/${token}`, {
      page: 1,
      account___name: 'x'.repeat(DRAFT_VALUE_MAX + 500),
      [otherPageField]: 'not on this page',
      is_admin: 1,
      account___city: { nested: 'object' },
      account___street: ['array'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().saved).toEqual(['account___name']);
    const fields = (await wizard(a, token)).config.fields;
    expect(fields.account___name).toHaveLength(DRAFT_VALUE_MAX);
    expect(fields).not.toHaveProperty(otherPageField);
    expect(fields).not.toHaveProperty('is_admin');
    expect(fields).not.toHaveProperty('account___city');
  });

  it('refuses junk with 4xx, never 5xx', async () => {
    const { a, token } = await applicant();
    const bad = [
      { body: {}, status: 422, field: 'page', message: 'The page field is required.' },
      { body: { page: 'one' }, status: 422, field: 'page' },
      { body: { page: 99 }, status: 422, field: 'page', message: 'The selected page is invalid.' },
      { body: { page: -1 }, status: 422, field: 'page' },
    ];
    for (const b of bad) {
      const res = await a.request('PATCH', `/application/create/${token}`, b.body);
      expect(res.statusCode, JSON.stringify(b.body)).toBe(b.status);
      expect(res.json().errors, JSON.stringify(b.body)).toHaveProperty(b.field);
      if (b.message) expect(res.json().errors[b.field]).toEqual([b.message]);
    }
    const huge = await a.request('PATCH', `/application/create/${token}`, {
      page: 1,
      account___name: 'x'.repeat(300 * 1024),
    });
    expect(huge.statusCode).toBe(413);
    const notJson = await a.request('PATCH', `/application/create/${token}`, '{"page": 1,', {
      'content-type': 'application/json',
    });
    expect(notJson.statusCode).toBe(400);
    const unknown = await a.request('PATCH', '/application/create/NoSuchToken0000000000', {
      page: 1,
      account___name: 'A',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("another applicant's token answers 404 and changes nothing; a visitor gets 401", async () => {
    const owner = await applicant();
    const other = await applicant();
    await owner.a.request('PATCH', `/application/create/${owner.token}`, { page: 1, account___name: 'Owner Boosters' });
    const res = await other.a.request('PATCH', `/application/create/${owner.token}`, {
      page: 1,
      account___name: 'Taken Over',
    });
    expect(res.statusCode).toBe(404);
    expect((await wizard(owner.a, owner.token)).config.fields.account___name).toBe('Owner Boosters');
    const visitor = await new Agent(t.app).start();
    const anonymous = await visitor.request('PATCH', `/application/create/${owner.token}`, {
      page: 1,
      account___name: 'Taken Over',
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await wizard(owner.a, owner.token)).config.fields.account___name).toBe('Owner Boosters');
  });

  it('a submitted application refuses draft saves with 409', async () => {
    const { a, token } = await applicant();
    const answers = sampleAnswers('start-up');
    const pages: WizardPage[] = (await wizard(a, token)).config.schemas;
    for (const [p, page] of pages.entries()) {
      const body: Record<string, unknown> = { page: p + 1 };
      for (const f of valueFields(page.schema))
        if (isFieldShown(f, answers) && f.name in answers) body[f.name] = answers[f.name];
      expect(
        (await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: body })).statusCode,
      ).toBe(200);
    }
    expect(
      (await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: { submit: 1, ...answers } }))
        .statusCode,
    ).toBe(200);
    const res = await a.request('PATCH', `/application/create/${token}`, {
      page: 1,
      account___name: 'Changed After Submit',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This application has already been submitted.');
    expect((await wizard(a, token)).config.fields.account___name).toBe(answers.account___name);
  });

  it('needs the CSRF token', async () => {
    const { a, token } = await applicant();
    const res = await a.request(
      'PATCH',
      `/application/create/${token}`,
      { page: 1, account___name: 'No Token' },
      {},
      false,
    );
    expect(res.statusCode).toBe(419);
    expect((await wizard(a, token)).config.fields).not.toHaveProperty('account___name');
  });
});
