import { readFileSync } from 'node:fs';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, applications, invoiceLines, invoices, levels, users } from '../../src/server/db/schema.ts';
import { hashApplicationToken } from '../../src/server/modules/applications/application-handle.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { accountSettingsContracts } from '../../src/shared/contracts/account-settings.ts';
import { adminApplicationsContracts } from '../../src/shared/contracts/admin-applications.ts';
import { applicationWizardContracts } from '../../src/shared/contracts/application-wizard.ts';
import { billingContracts } from '../../src/shared/contracts/billing.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';
import type { WizardPage } from '../../src/shared/forms/field-definition.ts';

/** Two small pages standing in for a level's real wizard: what the routes do does not depend on the questions. */
const START_UP: WizardPage[] = [
  {
    label: 'Your group',
    description: 'Who you are',
    schema: [
      { name: 'account___name', label: 'Organization name', field_type: 'text', rules: 'required|max:100' },
      { name: 'account___state', label: 'State', field_type: 'state', rules: 'required' },
      { name: 'account___has_ein', label: 'We have an EIN', field_type: 'checkbox' },
      {
        name: 'account___ein',
        label: 'EIN',
        field_type: 'text',
        rules: 'required|ein',
        is_conditional: 'account___has_ein',
      },
    ],
  },
  {
    label: 'Exemption',
    description: 'Where you stand with the IRS',
    schema: [
      {
        name: 'account___has_501c',
        label: 'Do you already have a 501(c) letter?',
        field_type: 'radio',
        rules: 'required|in:0',
        options: [
          { value: '1', label: 'Yes' },
          { value: '0', label: 'No' },
        ],
      },
      {
        name: 'account___fiscal_year_end',
        label: 'Last month of your fiscal year',
        field_type: 'select',
        rules: 'required',
        options: { '6': 'June', '12': 'December' },
      },
    ],
  },
];
const MAINTAIN: WizardPage[] = [
  {
    label: 'Your group',
    schema: [
      { name: 'account___name', label: 'Organization name', field_type: 'text', rules: 'required' },
      { name: 'account___ein', label: 'EIN', field_type: 'text', rules: 'required|ein' },
    ],
  },
  {
    label: 'Exemption',
    schema: [
      {
        name: 'account___has_501c',
        label: 'Do you already have a 501(c) letter?',
        field_type: 'radio',
        rules: 'required|in:1',
        options: [
          { value: '1', label: 'Yes' },
          { value: '0', label: 'No' },
        ],
      },
    ],
  },
];

let t: TestApp;
let startUpLevel: { id: number; priceCents: number; priceDiscountCents: number; name: string };
beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.update(levels).set({ schema: START_UP }).where(eq(levels.slug, 'start-up'));
  await db.update(levels).set({ schema: MAINTAIN }).where(eq(levels.slug, 'maintain'));
  [startUpLevel] = await db
    .select({
      id: levels.id,
      priceCents: levels.priceCents,
      priceDiscountCents: levels.priceDiscountCents,
      name: levels.name,
    })
    .from(levels)
    .where(eq(levels.slug, 'start-up'));
});
afterAll(async () => {
  await t.close();
});

let n = 0;
/** A visitor who starts an application: signed in, with its token. */
async function applicant(): Promise<{ a: Agent; token: string; email: string }> {
  const a = await new Agent(t.app).start();
  const email = `applicant${++n}@example.com`;
  const res = await a.call(applicationWizardContracts.start, {
    body: { email, password: 'Booster-club-2026', level_id: startUpLevel.id },
  });
  expect(res.statusCode).toBe(201);
  a.csrfToken = res.json().csrfToken;
  return { a, token: res.json().token, email };
}

const PAGE1 = {
  account___name: 'Soldotna Track Boosters',
  account___state: 'AK',
  account___has_ein: 1,
  account___ein: '39-3095719',
};
const PAGE2 = { account___has_501c: '0', account___fiscal_year_end: '6' };

describe('the application wizard (docs/requirements/product.md tool 2)', () => {
  it('gives its owner the wizard configuration, and 404 to anyone else', async () => {
    const { a, token } = await applicant();
    const res = await a.call(applicationWizardContracts.show, { params: { token: token } });
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      token,
      type: 'start-up',
      status: 'draft',
      page: 1,
      level: { id: startUpLevel.id },
      switch_url: `/application/switch/${token}`,
    });
    expect(view.config.schemas.map((p: WizardPage) => p.label)).toEqual(['Your group', 'Exemption']);
    expect(view.config).toMatchObject({
      title: `${startUpLevel.name} application`,
      is_disabled: false,
      is_cancelable: true,
      fields: {},
    });
    expect(view.config.submission_alert).toBeTruthy();

    const other = await applicant();
    expect((await other.a.call(applicationWizardContracts.show, { params: { token: token } })).statusCode).toBe(404);
    expect(
      (
        await other.a.call(applicationWizardContracts.savePage, {
          params: { token: token },
          body: { page: 1, ...PAGE1 },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await a.call(applicationWizardContracts.show, { params: { token: 'unknown-token-0123456789' } })).statusCode,
    ).toBe(404);
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(applicationWizardContracts.show, { params: { token: token } })).statusCode).toBe(401);
  });

  it('Next validates the page by its rules, saves it, and the draft resumes at the next page', async () => {
    const { a, token } = await applicant();
    const bad = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: {
        page: 1,
        account___name: '',
        account___state: 'ZZ',
        account___has_ein: 1,
        account___ein: '12',
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      account___name: ['The organization name field is required.'],
      account___state: ['The selected state is invalid.'],
      account___ein: ['The EIN must be 9 digits, like 12-3456789.'],
    });
    const ok = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: { page: 1, ...PAGE1, smuggled: 'x' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      page: 1,
      fields: { ...PAGE1, account___has_ein: 1 },
      bylaws: null,
      irs_fiscal_year: null,
      notices: [],
    });
    const view = (await a.call(applicationWizardContracts.show, { params: { token: token } })).json();
    expect(view.page).toBe(2);
    expect(view.config.fields.account___name).toBe('Soldotna Track Boosters');
    // Unticking the EIN box hides and drops the EIN.
    const again = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: { page: 1, ...PAGE1, account___has_ein: 0 },
    });
    expect('account___ein' in again.json().fields).toBe(false);
  });

  it('an answer meant for the other application type is refused on that field', async () => {
    const { a, token } = await applicant();
    const res = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: {
        page: 2,
        account___has_501c: '1',
        account___fiscal_year_end: '6',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['account___has_501c']);
  });

  it('switches start-up to maintain keeping the shared answers, and back', async () => {
    const { a, token } = await applicant();
    await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: { page: 1, ...PAGE1 } });
    const res = await a.call(applicationWizardContracts.switchType, { params: { token: token } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ token, redirect: `/application/create/${token}` });
    const view = (await a.call(applicationWizardContracts.show, { params: { token: token } })).json();
    expect(view.type).toBe('maintain');
    expect(view.page).toBe(1);
    expect(view.config.fields).toEqual({
      account___name: 'Soldotna Track Boosters',
      account___ein: '39-3095719',
      file_uploads: [],
    });
    await a.call(applicationWizardContracts.switchType, { params: { token: token } });
    expect((await a.call(applicationWizardContracts.show, { params: { token: token } })).json().type).toBe('start-up');
  });

  it('Cancel deletes the draft: its link stops working', async () => {
    const { a, token } = await applicant();
    const res = await a.request('DELETE', '/application/delete', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redirect: '/pricing' });
    expect((await a.call(applicationWizardContracts.show, { params: { token: token } })).statusCode).toBe(404);
    const [row] = await t.database.db
      .select()
      .from(applications)
      .where(eq(applications.tokenHash, hashApplicationToken(token)));
    expect(row.status).toBe('deleted');
  });

  it('Submit with a missing answer names the first page with an error and creates nothing', async () => {
    const { a, token } = await applicant();
    const before = (await t.database.db.select({ n: count() }).from(accounts))[0].n;
    const res = await a.call(applicationWizardContracts.savePage, {
      params: { token: token },
      body: {
        submit: 1,
        ...PAGE1,
        account___fiscal_year_end: '',
        account___has_501c: '0',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().page).toBe(2);
    expect(res.json().errors).toEqual({
      account___fiscal_year_end: ['The last month of your fiscal year field is required.'],
    });
    expect((await t.database.db.select({ n: count() }).from(accounts))[0].n).toBe(before);
  });

  it('Submit creates exactly one account and one unpaid invoice, even when sent twice at once', async () => {
    const { a, token, email } = await applicant();
    await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: { page: 1, ...PAGE1 } });
    const [r1, r2] = await Promise.all([
      a.call(applicationWizardContracts.savePage, {
        params: { token: token },
        body: { submit: 1, ...PAGE1, ...PAGE2 },
      }),
      a.call(applicationWizardContracts.savePage, {
        params: { token: token },
        body: { submit: 1, ...PAGE1, ...PAGE2 },
      }),
    ]);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    expect(r1.json()).toEqual(r2.json());
    const { redirect, invoice_id, account_id } = r1.json();
    expect(redirect).toBe('/app/payments');

    const db = t.database.db;
    const [account] = await db.select().from(accounts).where(eq(accounts.id, account_id));
    expect(account).toMatchObject({
      name: 'Soldotna Track Boosters',
      state: 'AK',
      ein: '393095719',
      levelId: startUpLevel.id,
      fiscalYearEndMonth: 6,
      source: 'application',
    });
    expect(account.data).toMatchObject({ ...PAGE1, ...PAGE2 });
    const days = (account.renewalDueAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(367);
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ accountId: account_id, isPrimary: true });
    expect(account.primaryUserId).toBe(user.id);

    const billed = await db.select().from(invoices).where(eq(invoices.accountId, account_id));
    expect(billed).toHaveLength(1);
    expect(billed[0]).toMatchObject({
      id: invoice_id,
      valueCents: startUpLevel.priceDiscountCents,
      balanceCents: startUpLevel.priceDiscountCents,
    });
    expect(billed[0].number).toMatch(/^GS-\d{6}$/);
    const lines = await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoice_id));
    // The list price as /pricing shows it, and the early-bird reduction as a named line.
    expect(lines.sort((x, y) => x.id - y.id).map((l) => [l.type, l.label, l.valueCents])).toEqual([
      ['new_account', `${startUpLevel.name} (new account)`, startUpLevel.priceCents],
      ['new_account', 'Early-bird discount', startUpLevel.priceDiscountCents - startUpLevel.priceCents],
    ]);

    // The account holder now sees the invoice; the wizard is locked.
    const unpaid = (await a.call(billingContracts.unpaidInvoices)).json().invoices;
    expect(unpaid).toHaveLength(1);
    expect(unpaid[0]).toMatchObject({
      id: invoice_id,
      balance_cents: startUpLevel.priceDiscountCents,
      order_details: [
        { type: 'new_account', value_cents: startUpLevel.priceCents },
        { label: 'Early-bird discount', value_cents: startUpLevel.priceDiscountCents - startUpLevel.priceCents },
      ],
    });
    const view = (await a.call(applicationWizardContracts.show, { params: { token: token } })).json();
    expect(view.config.is_disabled).toBe(true);
    expect(
      (await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: { page: 1, ...PAGE1 } }))
        .statusCode,
    ).toBe(409);
    expect((await a.request('DELETE', '/application/delete', { token })).statusCode).toBe(409);
  });

  it('lists the signed-in user’s drafts for resuming, by id: the wizard opens at /application/create/{id} for its owner only', async () => {
    const { a, token } = await applicant();
    await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: { page: 1, ...PAGE1 } });
    const res = await a.call(accountOverviewContracts.applications);
    const [draft] = res.json().applications;
    expect(res.json().applications).toEqual([
      { id: expect.any(Number), status: 'draft', level: startUpLevel.name, updated_at: expect.any(String) },
    ]);
    expect(res.body).not.toContain(token);
    // The list's handle opens the same draft, and the wizard's own links keep that handle.
    const id = String(draft.id);
    const view = (await a.call(applicationWizardContracts.show, { params: { token: id } })).json();
    expect(view).toMatchObject({
      token: id,
      page: 2,
      switch_url: `/application/switch/${id}`,
      config: { fields: { account___name: 'Soldotna Track Boosters' } },
    });
    expect(JSON.stringify(view)).not.toContain(token);
    expect(
      (await a.call(applicationWizardContracts.savePage, { params: { token: id }, body: { page: 2, ...PAGE2 } }))
        .statusCode,
    ).toBe(200);
    expect((await a.call(applicationWizardContracts.switchType, { params: { token: id } })).json()).toEqual({
      token: id,
      redirect: `/application/create/${id}`,
    });
    expect((await a.call(applicationWizardContracts.switchType, { params: { token: id } })).statusCode).toBe(200);
    // Someone else's id is as unknown as a made-up one; ids beyond the integer range too.
    const other = await applicant();
    for (const handle of [id, '0', '2147483648', '99999999999', '-1']) {
      expect(
        (await other.a.call(applicationWizardContracts.show, { params: { token: handle } })).statusCode,
        handle,
      ).toBe(404);
      expect(
        (
          await other.a.call(applicationWizardContracts.savePage, {
            params: { token: handle },
            body: { page: 1, ...PAGE1 },
          })
        ).statusCode,
        handle,
      ).toBe(404);
      expect(
        (await other.a.call(applicationWizardContracts.switchType, { params: { token: handle } })).statusCode,
        handle,
      ).toBe(404);
      expect((await other.a.request('DELETE', '/application/delete', { token: handle })).statusCode, handle).toBe(404);
    }
    expect((await a.call(applicationWizardContracts.show, { params: { token: id } })).json().type).toBe('start-up');
    const done = await a.call(applicationWizardContracts.savePage, {
      params: { token: id },
      body: { submit: 1, ...PAGE1, account___has_ein: 0, ...PAGE2 },
    });
    expect(done.statusCode, done.body).toBe(200);
  });
});

describe('tokens written before they were hashed', () => {
  it('the custom migration hashes them once, and the mailed links keep working', async () => {
    const db = t.database.db;
    const { a, email } = await applicant();
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    // A draft as an older version stored it: the token itself.
    const oldToken = 'OldPlainToken_0123456789abcdefgh';
    const [draft] = await db
      .insert(applications)
      .values({ tokenHash: oldToken, userId: user.id, levelId: startUpLevel.id, type: 'start-up' })
      .returning({ id: applications.id });
    expect((await a.call(applicationWizardContracts.show, { params: { token: oldToken } })).statusCode).toBe(404);
    const migration = readFileSync(
      new URL('../../src/server/db/migrations/0019_hash_application_tokens.sql', import.meta.url),
      'utf8',
    );
    for (let run = 0; run < 2; run++) {
      await db.execute(sql.raw(migration));
      const [row] = await db
        .select({ tokenHash: applications.tokenHash })
        .from(applications)
        .where(eq(applications.id, draft.id));
      expect(row.tokenHash, `run ${run + 1}`).toBe(hashApplicationToken(oldToken));
    }
    expect((await a.call(applicationWizardContracts.show, { params: { token: oldToken } })).json()).toMatchObject({
      token: oldToken,
      status: 'draft',
    });
    // Rows written since were hashed already and are left as they are.
    const hashes = (await db.select({ tokenHash: applications.tokenHash }).from(applications)).map((r) => r.tokenHash);
    expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
  });
});

describe('admins see applications', () => {
  it('lists drafts, completed and deleted applications and opens one with its answers', async () => {
    const { createUser } = await import('../../src/server/db/seed/factories.ts');
    await createUser(t.database.db, { email: 'staff@wizard.test', password: 'Staff-pass-123', isAdmin: true });
    const admin = await new Agent(t.app).start();
    await admin.login('staff@wizard.test', 'Staff-pass-123');
    const { a, token } = await applicant();
    await a.call(applicationWizardContracts.savePage, { params: { token: token }, body: { page: 1, ...PAGE1 } });
    const list = (await admin.call(adminApplicationsContracts.list, { query: { status: 'draft' } })).json();
    expect(list.total).toBeGreaterThan(0);
    const mine = list.data.find((r: { id: number; email: string }) => r.email === list.data[0].email);
    expect(mine).toBeDefined();
    const [row] = await t.database.db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.tokenHash, hashApplicationToken(token)));
    const detail = (await admin.call(adminApplicationsContracts.show, { params: { id: row.id } })).json();
    expect(detail).toMatchObject({
      status: 'draft',
      type: 'start-up',
      fields: { account___name: 'Soldotna Track Boosters' },
    });
    expect(detail.labels.account___name).toBe('Organization name');
    expect(
      (await admin.call(adminApplicationsContracts.list, { query: { status: 'deleted' } }))
        .json()
        .data.every((r: { status: string }) => r.status === 'deleted'),
    ).toBe(true);
    expect((await a.call(adminApplicationsContracts.list)).statusCode).toBe(403);
  });
});

describe('organization data as a dynamic form (GET /app/fields/editable)', () => {
  it('serves the editable definitions with the account’s values and saves them by the same rules', async () => {
    const { a, token } = await applicant();
    // Another EIN would clash with the account an earlier test created: this group has none yet.
    expect(
      (
        await a.call(applicationWizardContracts.savePage, {
          params: { token: token },
          body: { submit: 1, ...PAGE1, account___has_ein: 0, ...PAGE2 },
        })
      ).statusCode,
    ).toBe(200);
    const form = (await a.call(accountSettingsContracts.editableFields)).json();
    expect(form).toMatchObject({
      title: 'Organization data',
      action: '/app/account/data',
      method: 'put',
      has_required_fields: true,
    });
    expect(form.fields.account___name).toBe('Soldotna Track Boosters');
    expect(form.fields.account___fiscal_year_end).toBe('6');
    const bad = await a.call(accountSettingsContracts.saveData, {
      body: { ...form.fields, account___zip: '', contact___president_email: 'x' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.account___zip).toEqual(['The ZIP code field is required.']);
    const good = await a.call(accountSettingsContracts.saveData, {
      body: {
        ...form.fields,
        account___street: '1 Main St',
        account___city: 'Soldotna',
        account___zip: '99669',
        contact___president_first_name: 'Dana',
        contact___president_last_name: 'Lee',
        contact___president_email: 'dana@example.com',
      },
    });
    expect(good.statusCode).toBe(200);
    expect(good.json().message).toBe('Your data was saved.');
    const again = (await a.call(accountSettingsContracts.editableFields)).json();
    expect(again.fields).toMatchObject({ account___city: 'Soldotna', contact___president_email: 'dana@example.com' });
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(accountSettingsContracts.editableFields)).statusCode).toBe(401);
  });
});
