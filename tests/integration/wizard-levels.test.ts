import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, invoices, levels } from '../../src/server/db/schema.ts';
import { refreshLevelWizards } from '../../src/server/db/seed/seed.ts';
import { sampleAnswers, WIZARD_LEVEL_SLUGS } from '../../src/server/db/seed/wizard-schemas.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { isFieldShown, type WizardPage } from '../../src/shared/forms/field-definition.ts';
import { valueFields } from '../../src/shared/forms/rules.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('every seeded level’s real wizard can be completed page by page', () => {
  for (const [i, slug] of WIZARD_LEVEL_SLUGS.entries()) {
    it(`${slug}`, async () => {
      const [level] = await t.database.db.select().from(levels).where(eq(levels.slug, slug));
      const a = await new Agent(t.app).start();
      const started = await a.call(applicationWizardContracts.start, {
        body: {
          email: `${slug}@levels.test`,
          password: 'Booster-club-2026',
          level_id: level.id,
        },
      });
      expect(started.statusCode).toBe(201);
      a.csrfToken = started.json().csrfToken;
      const { token } = started.json();
      const view = (await a.call(applicationWizardContracts.show, { params: { token: token } })).json();
      const pages: WizardPage[] = view.config.schemas;
      expect(pages.length).toBeGreaterThanOrEqual(3);
      expect(view.config.title).toBeTruthy();
      const answers = sampleAnswers(slug, { account___ein: `12-34567${String(i).padStart(2, '0')}` });
      for (const [p, page] of pages.entries()) {
        const body: Record<string, unknown> = { page: p + 1 };
        for (const f of valueFields(page.schema))
          if (isFieldShown(f, answers) && f.name in answers) body[f.name] = answers[f.name];
        const res = await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: body });
        expect(res.statusCode, `${slug} page ${p + 1}: ${res.body}`).toBe(200);
      }
      const done = await a.call(applicationWizardContracts.savePage, {
        params: { token: token },
        body: { submit: 1, ...answers },
      });
      expect(done.statusCode, done.body).toBe(200);
      const [invoice] = await t.database.db.select().from(invoices).where(eq(invoices.id, done.json().invoice_id));
      expect(invoice.valueCents).toBe(level.priceDiscountCents);
      const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, done.json().account_id));
      expect(account.name).toBeTruthy();
      expect(account.levelId).toBe(level.id);
    });
  }
});

describe('level wizards follow the questions in code', () => {
  it('an installation seeded with older questions gets the current ones at start, and a current one is left alone', async () => {
    const db = t.database.db;
    await db
      .update(levels)
      .set({ schema: { title: 'Old', pages: [] } })
      .where(eq(levels.slug, 'maintain'));
    expect(await refreshLevelWizards(db)).toEqual(['maintain']);
    const [maintain] = await db.select({ schema: levels.schema }).from(levels).where(eq(levels.slug, 'maintain'));
    expect(JSON.stringify(maintain.schema)).toContain('account___determination_letter');
    expect(await refreshLevelWizards(db)).toEqual([]);
  });
});

describe('the Greek chapter wizard', () => {
  it('refuses a national organization that is not on the list, naming the field by its label', async () => {
    const [level] = await t.database.db.select().from(levels).where(eq(levels.slug, 'greek-chapter'));
    const a = await new Agent(t.app).start();
    const started = await a.call(applicationWizardContracts.start, {
      body: {
        email: 'greek-free-text@levels.test',
        password: 'Booster-club-2026',
        level_id: level.id,
      },
    });
    a.csrfToken = started.json().csrfToken;
    const { token } = started.json();
    const first: WizardPage = (await a.call(applicationWizardContracts.show, { params: { token: token } })).json()
      .config.schemas[0];
    const answers = sampleAnswers('greek-chapter');
    const body: Record<string, unknown> = { page: 1 };
    for (const f of valueFields(first.schema))
      if (isFieldShown(f, answers) && f.name in answers) body[f.name] = answers[f.name];
    const res = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: {
        ...body,
        account___national_organization: 'Made Up Fraternity',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      account___national_organization: ['The selected national organization is invalid.'],
    });
    expect(
      (await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: body })).statusCode,
    ).toBe(200);
  });
});
