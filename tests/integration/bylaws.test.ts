import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bylaws } from '../../src/server/db/schema.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { bylawContracts } from '../../src/shared/contracts/bylaws.ts';
import { BYLAW_ANSWERS } from '../helpers/bylaws.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
const VIEWER = 'https://view.officeapps.live.com/op/view.aspx';
beforeAll(async () => {
  t = await createTestApp({
    config: {
      publicUrl: 'https://app.goodstanding.example',
      bylaws: { shortBrand: 'BoosterBasics', viewerUrl: VIEWER },
    },
  });
});
afterAll(async () => {
  await t.close();
});

const visitor = () => new Agent(t.app).start();

describe('bylaws generator: create, update, reopen, download (docs/requirements/product.md tool 3, docs/requirements/calls.md)', () => {
  it('the first Generate POSTs to the page path and answers action, url and bylaw.hash', async () => {
    for (const [variant, path] of [
      ['standard', '/bylaws-generator'],
      ['school', '/bylaws-generator/school'],
      ['short', '/bylaws-generator/short'],
    ] as const) {
      const a = await visitor();
      const res = await a.post(path, BYLAW_ANSWERS[variant]);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body.bylaw.hash).toMatch(/^[0-9a-f]{32}$/);
      expect(body).toMatchObject({
        action: `/bylaws-generator/${body.bylaw.hash}`,
        url: `/bylaws-generator/edit/${body.bylaw.hash}`,
        bylaw: {
          variant,
          download_url: `https://app.goodstanding.example/bylaws-generator/download/${body.bylaw.hash}`,
          preview_url: `/bylaws-generator/preview/${body.bylaw.hash}`,
        },
      });
    }
  });

  it('later saves PUT to the action; only the same session may, another session gets 404', async () => {
    const a = await visitor();
    const created = (await a.call(bylawContracts.createStandard, { body: BYLAW_ANSWERS.standard })).json();
    const updated = await a.put(created.action, { ...BYLAW_ANSWERS.standard, name: 'Kenai Central Hockey Boosters' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().bylaw.hash).toBe(created.bylaw.hash);
    const reopened = await a.call(bylawContracts.forEditing, { params: { hash: created.bylaw.hash } });
    expect(reopened.json()).toMatchObject({
      answers: { name: 'Kenai Central Hockey Boosters', version: 'standard' },
      url: created.url,
    });

    const other = await visitor();
    expect((await other.put(created.action, BYLAW_ANSWERS.standard)).statusCode).toBe(404);
    expect((await other.call(bylawContracts.forEditing, { params: { hash: created.bylaw.hash } })).statusCode).toBe(
      404,
    );
    const [{ n }] = await t.database.db.select({ n: count() }).from(bylaws);
    expect(n).toBeGreaterThan(0);
  });

  it('a signed-in owner keeps access from a new session', async () => {
    const a = await visitor();
    const email = 'bylaws.owner@example.com';
    await a
      .call(applicationWizardContracts.start, { body: { email, password: 'Booster-club-2026', level_id: 1 } })
      .then((r) => {
        a.csrfToken = r.json().csrfToken;
      });
    const created = (await a.call(bylawContracts.createShort, { body: BYLAW_ANSWERS.short })).json();
    const b = await visitor();
    await b.login(email, 'Booster-club-2026');
    expect((await b.put(created.action, { ...BYLAW_ANSWERS.short, name: 'Renamed' })).statusCode).toBe(200);
  });

  it('validates every field with clear messages and writes nothing', async () => {
    const a = await visitor();
    const [{ n: before }] = await t.database.db.select({ n: count() }).from(bylaws);
    const res = await a.call(bylawContracts.createStandard, {
      body: {
        version: 'standard',
        name: '',
        purpose: '',
        facility: '',
        meeting_attendee_minimum: '1/20',
        meeting_request_minimum: 'half',
        nomination_month: '12',
        annual_meeting_month: '',
        fiscal_year_end: 'June',
        is_highlighted: 1,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: ['The organization name field is required.'],
      purpose: ['The purpose field is required.'],
      facility: ['The school or facility field is required.'],
      meeting_attendee_minimum: ['The meeting attendee minimum must be a fraction of at least 1/10 of the members.'],
      meeting_request_minimum: [
        'The meeting request minimum must be a whole number (15), a percentage (25%) or a fraction of at least 1/10 (1/4).',
      ],
      nomination_month: ['The selected nomination month is invalid.'],
      annual_meeting_month: ['The annual meeting month field is required.'],
      fiscal_year_end: ['The selected fiscal year end is invalid.'],
    });
    const [{ n: after }] = await t.database.db.select({ n: count() }).from(bylaws);
    expect(after).toBe(before);
  });

  it('school variant: the official title is required only when a clause is ticked; is_school is always 1', async () => {
    const a = await visitor();
    const noClause = { ...BYLAW_ANSWERS.school, school_official_title: '' } as Record<string, unknown>;
    for (const k of Object.keys(noClause))
      if (k.startsWith('is_') && k !== 'is_highlighted' && k !== 'is_school') noClause[k] = 0;
    const ok = await a.call(bylawContracts.createSchool, { body: { ...noClause, is_school: 0 } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(
      (await a.call(bylawContracts.forEditing, { params: { hash: ok.json().bylaw.hash } })).json().answers.is_school,
    ).toBe(1);
    const bad = await a.call(bylawContracts.createSchool, { body: { ...noClause, is_501c3_required: 1 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ school_official_title: ['The school official title field is required.'] });
  });

  it('a version that does not match the page is refused', async () => {
    const a = await visitor();
    const res = await a.call(bylawContracts.createShort, { body: { ...BYLAW_ANSWERS.short, version: 'standard' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.version).toBeTruthy();
  });

  it('downloads a Word document named after the organization, as an attachment with nosniff; unknown hash 404', async () => {
    const a = await visitor();
    const created = (await a.call(bylawContracts.createStandard, { body: BYLAW_ANSWERS.standard })).json();
    const res = await new Agent(t.app).get(`/bylaws-generator/download/${created.bylaw.hash}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Soldotna Track Boosters Bylaws.docx"; filename*=UTF-8''Soldotna%20Track%20Boosters%20Bylaws.docx`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(
      (await a.call(bylawContracts.download, { params: { hash: '0123456789abcdef0123456789abcdef' } })).statusCode,
    ).toBe(404);
    expect((await a.call(bylawContracts.download, { params: { hash: 'not-a-hash' } })).statusCode).toBe(404);
  });

  it('the preview document is the same model, with the answers marked', async () => {
    const a = await visitor();
    const created = (await a.call(bylawContracts.createShort, { body: BYLAW_ANSWERS.short })).json();
    const res = await a.call(bylawContracts.document, { params: { hash: created.bylaw.hash } });
    const { document, file_name } = res.json();
    expect(file_name).toBe('Riverside PTO Bylaws.docx');
    expect(document.highlighted).toBe(true);
    expect(document.title).toEqual([{ text: 'Bylaws of ' }, { text: 'Riverside PTO', answer: true }]);
    expect(document.footer).toContain(t.config.bylaws.shortBrand);
  });

  it('offers the online viewer when configured (publicly reachable), and none otherwise', async () => {
    const a = await visitor();
    expect((await a.call(bylawContracts.createShort, { body: BYLAW_ANSWERS.short })).json().bylaw.viewer).toBe(VIEWER);
    const local = await createTestApp();
    try {
      expect(local.config.bylaws.viewerUrl).toBeNull();
      const b = await new Agent(local.app).start();
      expect((await b.call(bylawContracts.createShort, { body: BYLAW_ANSWERS.short })).json().bylaw.viewer).toBeNull();
    } finally {
      await local.close();
    }
  });
});
