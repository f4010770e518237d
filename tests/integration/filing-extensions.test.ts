import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accounts, auditLog, filingExtensions } from '../../src/server/db/schema.ts';
import { createAccount, createUser } from '../../src/server/db/seed/factories.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { importBmf } from '../../src/server/modules/subordinates/import-bmf.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { adminAccountsContracts } from '../../src/shared/contracts/admin-accounts.ts';
import { extensionContracts } from '../../src/shared/contracts/extensions.ts';
import { publicProfileContracts } from '../../src/shared/contracts/public-profile.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';

/**
 * Form 8868 extensions (docs/irs-standing.md "Extensions", docs/roles.md "Form 8868 extensions"):
 * GET and POST /api/account/extensions, DELETE /api/admin/accounts/:id/extensions/:extensionId, as
 * a client sees them, and the standing they move. The organizations are real rows of the IRS's
 * April 2026 EO BMF (eo_ok.csv, eo_ak.csv), loaded as that release, recorded by its month; the
 * requests are made on 28 November 2026.
 */

const BMF_HEADER =
  'EIN,NAME,ICO,STREET,CITY,STATE,ZIP,GROUP,SUBSECTION,AFFILIATION,CLASSIFICATION,RULING,DEDUCTIBILITY,FOUNDATION,ACTIVITY,ORGANIZATION,STATUS,TAX_PERIOD,ASSET_CD,INCOME_CD,FILING_REQ_CD,PF_FILING_REQ_CD,ACCT_PD,ASSET_AMT,INCOME_AMT,REVENUE_AMT,NTEE_CD,SORT_NAME';
const BMF_ROWS = {
  // GEN 5271, June year end, latest return June 2024, FILING_REQ_CD 01: the June 2025 Form 990 or
  // 990-EZ was due 17 November 2025 (the 15th was a Saturday), before the release: missed unless
  // extended to 15 May 2026, after it.
  btwCheer:
    '824433738,PARENT BOOSTER USA INC,% ANGELO ARGO,1514 E ZION ST,TULSA,OK,74106-4011,5271,03,9,2100,200510,1,16,000000000,1,01,202406,0,0,01,0,06,0,0,0,B112,BTW CHEER BOOSTER CLUB INC',
  // June year end, latest return June 2022: June 2023 and 2024 missed; the third, June 2025, was due
  // 17 November 2025: its revocation date, or 15 May 2026 had it been extended.
  juneau:
    '920038549,JUNEAU YOUTH SERVICES INC,,2075 JORDAN AVE,JUNEAU,AK,99801-8095,0000,03,3,1000,196403,1,15,999000000,1,01,202206,7,6,01,0,06,7118535,4337713,4251526,F300,',
  // FILING_REQ_CD 02: a Form 990-N filer.
  ponca:
    '204166939,PARENT BOOSTER USA INC,% TIFFANY HERREN,927 N 5TH ST,PONCA CITY,OK,74601-3302,5271,03,9,2100,200510,1,16,000000000,1,01,202506,0,0,02,0,06,0,0,0,,PONCA CITY DUGOUT CLUB',
  // FILING_REQ_CD 06: a church, no annual return.
  chapel:
    '010534483,COVENANT CHAPEL,% REV JANE E DIBDEN SCHWAB,PO BOX 312,FORGAN,OK,73938-0312,1619,03,9,7000,196402,1,10,001030059,5,01,,0,0,06,0,12,,,,,',
  // PF_FILING_REQ_CD 1: a Form 990-PF every year, December year end.
  hall: '010693374,RONALD E AND ELEANOR J HALL FOUNDATION,% AMERITRUST CORPORATION,4506 S HARVARD AVE,TULSA,OK,74135-2906,0000,03,3,1000,200403,1,04,000000000,2,01,202412,5,4,00,1,12,541830,222028,,T20,',
  // FILING_REQ_CD 04: a black lung benefit trust (eo_ct.csv), December year end, ruled September 2025,
  // no return on file: it owes Form 990-BL, which Form 8868 extends (return code 02).
  blackLung:
    '736219080,CLOUD PEAK ENERGY BLACK LUNG BENEFITS TRUST,% CLOUD PEAK ENERGY RESOURCES LLC,606 POST RD STE 624,WESTPORT,CT,06880-4540,0000,21,3,1000,202509,2,00,265264000,2,01,,0,0,04,0,12,,,,,',
};

const STAFF = { email: 'extensions.staff@example.com', password: 'Staff-extensions-2026' };
const BEA = { email: 'bea.btw@example.com', password: 'Bea-extensions-2026' };
const JUNO = { email: 'juno.juneau@example.com', password: 'Juno-extensions-2026' };

let t: TestApp;
let dir: string;
const db = () => t.database.db;
const ids = {} as Record<keyof typeof BMF_ROWS, number>;
let staff: Agent;
let bea: Agent;
let juno: Agent;
let beaId: number;
let staffId: number;

/**
 * `f` on 28 November 2026 (or `day`), as the server's clock reads it: just after midnight UTC, never
 * later than the sessions were opened (a clock hours ahead of them would end them as idle).
 */
async function on<T>(f: () => Promise<T>, day = '2026-11-28'): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${day}T00:00:30Z`) });
  try {
    return await f();
  } finally {
    vi.useRealTimers();
  }
}

/** The payload that records BTW Cheer's June 2025 extension. */
const JUNE_2025 = { period_end: '2025-06', return_form: '990-EZ', filed_on: '2025-11-10', extended_due: '2026-05-15' };

const extensionCount = async () => (await db().select({ id: filingExtensions.id }).from(filingExtensions)).length;

beforeAll(async () => {
  t = await createTestApp();
  // Customer accounts with these EINs: the BMF load fills in their IRS columns.
  ids.btwCheer = (await createAccount(db(), { name: 'BTW Cheer Booster Club', ein: '824433738' })).id;
  ids.juneau = (await createAccount(db(), { name: 'Juneau Youth Services', ein: '920038549' })).id;
  dir = await mkdtemp(path.join(tmpdir(), 'gs-extensions-'));
  const file = path.join(dir, 'eo-extensions.csv');
  await writeFile(file, [BMF_HEADER, ...Object.values(BMF_ROWS), ''].join('\n'));
  // The other rows are IRS-imported accounts (as the seed or a roster import makes them); the BMF
  // release then fills in everyone's IRS facts (docs/irs-data.md "IRS facts").
  await importBmf(db(), file);
  const loaded = await loadIrsRelease(db(), { dataset: 'bmf', file, releasedOn: '2026-04' });
  expect(loaded).toMatchObject({ status: 'loaded', rows: 6, loaded: 6 });
  const byEin = await db().select({ id: accounts.id, ein: accounts.ein }).from(accounts);
  const idOf = (ein: string) => byEin.find((a) => a.ein === ein)!.id;
  ids.ponca = idOf('204166939');
  ids.chapel = idOf('010534483');
  ids.hall = idOf('010693374');
  ids.blackLung = idOf('736219080');
  expect([idOf('824433738'), idOf('920038549')]).toEqual([ids.btwCheer, ids.juneau]);

  staffId = (await createUser(db(), { ...STAFF, isAdmin: true, firstName: 'Sam' })).id;
  // Bea is a user of BTW Cheer, not its primary user: any user of the account may record.
  beaId = (await createUser(db(), { ...BEA, accountId: ids.btwCheer, firstName: 'Bea' })).id;
  await createUser(db(), { ...JUNO, accountId: ids.juneau, firstName: 'Juno' });
  staff = await signedIn(t.app, STAFF);
  bea = await signedIn(t.app, BEA);
  juno = await signedIn(t.app, JUNO);
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a group records its Form 8868 extension and its standing uses it', () => {
  it('BTW Cheer Booster Club: missed unless extended, then awaiting the data once the extension is recorded', async () => {
    const before = (await on(() => bea.call(accountOverviewContracts.account))).json().account.standing;
    expect(before).toMatchObject({ state: 'unless_extended', label: 'Due date passed: missed unless extended' });
    expect(before.irs).toMatchObject({ unless_extended_tax_years: [2025], revocation_date: '2027-11-15' });
    expect(before.irs.returns).toEqual([
      {
        period_end: '2025-06',
        due: '2025-11-17',
        extended_due: '2026-05-15',
        extension: 'possible',
        status: 'missed_unless_extended',
      },
      {
        period_end: '2026-06',
        due: '2026-11-16',
        extended_due: '2027-05-17',
        extension: 'possible',
        status: 'awaiting_data',
      },
    ]);

    // What the form offers: its periods that have ended and were due in the last three years.
    const offered = (await on(() => bea.call(extensionContracts.list))).json();
    expect(offered).toEqual({
      today: '2026-11-28',
      extensions: [],
      refusal: null,
      return_forms: ['990-EZ', '990'],
      periods: [
        { period_end: '2026-06', due: '2026-11-16', extended_due: '2027-05-17' },
        { period_end: '2025-06', due: '2025-11-17', extended_due: '2026-05-15' },
        { period_end: '2024-06', due: '2024-11-15', extended_due: '2025-05-15' },
      ],
      can_remove: false,
    });

    const res = await on(() =>
      bea.call(extensionContracts.record, { body: { ...JUNE_2025, unknown_field: 'ignored' } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'The Form 8868 extension was recorded: the return for the period ending June 2025 is due May 15, 2026.',
      extension: {
        period_end: '2025-06',
        form: '8868',
        return_form: '990-EZ',
        filed_on: '2025-11-10',
        extended_due: '2026-05-15',
        recorded_as: 'account',
        recorded_by: 'Bea',
      },
    });

    const after = (await on(() => bea.call(accountOverviewContracts.account))).json().account.standing;
    expect(after).toMatchObject({ state: 'good', label: 'In good standing' });
    expect(after.irs).toMatchObject({ unless_extended_tax_years: [], awaiting_data_tax_years: [2025, 2026] });
    expect(after.irs.returns[0]).toEqual({
      period_end: '2025-06',
      due: '2025-11-17',
      extended_due: '2026-05-15',
      extension: 'recorded',
      status: 'awaiting_data',
    });

    // Everyone reads the same standing on the public profile.
    const visitor = await new Agent(t.app).start();
    const profile = (
      await on(() => visitor.call(publicProfileContracts.show, { params: { id: ids.btwCheer } }))
    ).json();
    expect(profile).toMatchObject({ standing: 'good' });
    expect(profile.irs.returns[0]).toMatchObject({ extension: 'recorded', status: 'awaiting_data' });

    const list = (await on(() => bea.call(extensionContracts.list))).json();
    expect(list.extensions).toHaveLength(1);
    expect(list.periods.map((p: { period_end: string }) => p.period_end)).toEqual(['2026-06', '2024-06']);

    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'filing_extension.recorded'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({
      actorUserId: beaId,
      accountId: ids.btwCheer,
      details: {
        extensionId: res.json().extension.id,
        periodEnd: '2025-06',
        returnForm: '990-EZ',
        filedOn: '2025-11-10',
        extendedDue: '2026-05-15',
        recordedAs: 'account',
        onBehalf: false,
      },
    });
  });

  it('a second extension for the same period is refused, naming the one recorded', async () => {
    const before = await extensionCount();
    const res = await on(() =>
      bea.call(extensionContracts.record, { body: { ...JUNE_2025, return_form: '990', filed_on: '2025-11-12' } }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      period_end: ['A Form 8868 extension for the period ending June 2025 is already recorded (due May 15, 2026).'],
    });
    expect(await extensionCount()).toBe(before);
  });

  it('staff record one for Juneau Youth Services on its behalf: its revocation date moves to the extended date', async () => {
    const shown = async () =>
      (await on(() => staff.call(adminAccountsContracts.show, { params: { id: ids.juneau } }))).json().standing;
    const before = await shown();
    expect(before.state).toBe('past_revocation_date');
    expect(before.irs).toMatchObject({
      missed_tax_years: [2023, 2024],
      unless_extended_tax_years: [2025],
      revocation_date: '2025-11-17',
      revocation_date_if_extended: '2026-05-15',
    });

    // June 2023's return was due 15 November 2023: more than three years ago.
    const old = await on(() =>
      staff.call(extensionContracts.record, {
        body: {
          account_id: ids.juneau,
          period_end: '2023-06',
          return_form: '990',
          filed_on: '2023-11-01',
          extended_due: '2024-05-15',
        },
      }),
    );
    expect(old.statusCode).toBe(422);
    expect(old.json().errors).toEqual({
      period_end: [
        'The return for the period ending June 2023 was due November 15, 2023, more than 3 years ago: extensions are recorded for returns due in the last 3 years.',
      ],
    });

    const res = await on(() =>
      staff.call(extensionContracts.record, {
        body: {
          account_id: ids.juneau,
          period_end: '2025-06',
          return_form: '990',
          filed_on: '2025-11-14',
          extended_due: '2026-05-15',
        },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().extension).toMatchObject({ recorded_as: 'staff', recorded_by: 'Sam' });

    const after = await shown();
    expect(after.state).toBe('past_revocation_date');
    expect(after.irs).toMatchObject({ revocation_date: '2026-05-15', revocation_date_if_extended: null });
    expect(after.irs.returns[2]).toMatchObject({
      period_end: '2025-06',
      extension: 'recorded',
      status: 'awaiting_data',
    });

    // The group sees it recorded by staff, without the staff member's name.
    const theirs = (await on(() => juno.call(extensionContracts.list))).json();
    expect(theirs.extensions).toEqual([
      expect.objectContaining({ period_end: '2025-06', recorded_as: 'staff', recorded_by: null }),
    ]);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'filing_extension.recorded'), eq(auditLog.accountId, ids.juneau)));
    expect(audit).toMatchObject({ actorUserId: staffId, details: { recordedAs: 'staff', onBehalf: true } });
  });

  it('a Form 990-PF is extended as a 990-PF', async () => {
    const payload = {
      account_id: ids.hall,
      period_end: '2025-12',
      return_form: '990',
      filed_on: '2026-05-01',
      extended_due: '2026-11-16',
    };
    const wrong = await on(() => staff.call(extensionContracts.record, { body: payload }));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({
      return_form: ['This organization files Form 990-PF: choose the return that was extended.'],
    });
    const offered = (await on(() => staff.call(extensionContracts.list, { query: { account_id: ids.hall } }))).json();
    expect(offered).toMatchObject({ refusal: null, return_forms: ['990-PF'], can_remove: true });
    const res = await on(() => staff.call(extensionContracts.record, { body: { ...payload, return_form: '990-PF' } }));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('a Form 990-BL is extended as a 990-BL (Form 8868 return code 02)', async () => {
    const offered = (
      await on(() => staff.call(extensionContracts.list, { query: { account_id: ids.blackLung } }))
    ).json();
    expect(offered).toMatchObject({ refusal: null, return_forms: ['990-BL'] });
    const res = await on(() =>
      staff.call(extensionContracts.record, {
        body: {
          account_id: ids.blackLung,
          period_end: '2025-12',
          return_form: '990-BL',
          filed_on: '2026-05-01',
          extended_due: '2026-11-16',
        },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(
      'The Form 8868 extension was recorded: the return for the period ending December 2025 is due November 16, 2026.',
    );
  });
});

describe('every rule answers 422 with the field and the words, and writes nothing', () => {
  const refused = async (agent: Agent, body: Record<string, unknown>, day?: string) => {
    const before = await extensionCount();
    const res = await on(() => agent.call(extensionContracts.record, { body: body }), day);
    expect(res.statusCode, res.body).toBe(422);
    expect(await extensionCount()).toBe(before);
    return res.json().errors as Record<string, string[]>;
  };
  const first = (errors: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v[0]]));

  it('each field is required', async () => {
    expect(first(await refused(bea, {}))).toEqual({
      period_end: 'The return period field is required.',
      return_form: 'The return extended field is required.',
      filed_on: 'The Form 8868 filing date field is required.',
      extended_due: 'The extended due date field is required.',
    });
  });

  it('malformed values, control characters included, are refused on their field', async () => {
    expect(
      first(
        await refused(bea, { period_end: '2025-6', return_form: '990-N', filed_on: '2025-02-30', extended_due: 7 }),
      ),
    ).toMatchObject({
      period_end: 'The return period field format is invalid.',
      return_form: 'The selected return extended is invalid.',
      filed_on: 'The Form 8868 filing date field must be a valid date.',
    });
    expect(first(await refused(bea, { ...JUNE_2025, period_end: '2025-\u202E06' }))).toEqual({
      period_end: 'The return period field must be a single line without control characters.',
    });
  });

  it('Form 8868 is filed by the original due date, and not before the tax year began', async () => {
    expect(
      await refused(bea, { ...JUNE_2025, period_end: '2024-06', filed_on: '2024-11-18', extended_due: '2025-05-15' }),
    ).toEqual({
      filed_on: [
        "Form 8868 must be filed by the return's due date: November 15, 2024 for the period ending June 2024. One filed later does not extend it.",
      ],
    });
    expect(
      await refused(bea, { ...JUNE_2025, period_end: '2024-06', filed_on: '2023-06-30', extended_due: '2025-05-15' }),
    ).toEqual({
      filed_on: ['The Form 8868 filing date must be in or after the tax year it extends: on or after July 1, 2023.'],
    });
  });

  it('the extended due date must be the one Form 8868 gives, and the message names it', async () => {
    expect(
      await refused(bea, { ...JUNE_2025, period_end: '2024-06', filed_on: '2024-11-01', extended_due: '2025-05-17' }),
    ).toEqual({
      extended_due: [
        'The extended due date of the return for the period ending June 2024 is May 15, 2025: Form 8868 gives six months from the original due date.',
      ],
    });
  });

  it('the filing date is not in the future', async () => {
    // On 10 November 2026 the June 2026 return is due on the 16th: a Form 8868 "filed" on the 12th has not been yet.
    expect(
      await refused(
        bea,
        { period_end: '2026-06', return_form: '990', filed_on: '2026-11-12', extended_due: '2027-05-17' },
        '2026-11-10',
      ),
    ).toEqual({ filed_on: ['The Form 8868 filing date must not be in the future.'] });
  });

  it("the period is one of the organization's own that has ended", async () => {
    expect(
      await refused(bea, {
        period_end: '2025-12',
        return_form: '990',
        filed_on: '2026-05-01',
        extended_due: '2026-11-16',
      }),
    ).toEqual({
      period_end: ["The return period must end in the organization's fiscal year end month, June."],
    });
    expect(
      await refused(bea, {
        period_end: '2027-06',
        return_form: '990',
        filed_on: '2026-11-20',
        extended_due: '2028-05-15',
      }),
    ).toEqual({
      period_end: ['The period ending June 2027 has not ended yet: record its extension once it has.'],
    });
  });

  it('a Form 990-N filer and a church owe no return Form 8868 extends', async () => {
    const body = { period_end: '2025-06', return_form: '990', filed_on: '2025-11-10', extended_due: '2026-05-15' };
    expect(await refused(staff, { ...body, account_id: ids.ponca })).toEqual({
      return_form: [
        'Form 8868 does not apply to the Form 990-N: its due date cannot be extended, and a late 990-N carries no penalty and still counts.',
      ],
    });
    expect(
      await refused(staff, {
        account_id: ids.chapel,
        period_end: '2025-12',
        return_form: '990',
        filed_on: '2026-05-01',
        extended_due: '2026-11-16',
      }),
    ).toEqual({
      return_form: [
        'Form 8868 does not apply here: the organization owes no annual return (Not required to file (church)).',
      ],
    });
    // The form says so instead of offering periods.
    const offered = (await on(() => staff.call(extensionContracts.list, { query: { account_id: ids.ponca } }))).json();
    expect(offered).toMatchObject({
      refusal: expect.stringMatching(/^Form 8868 does not apply to the Form 990-N/),
      periods: [],
      return_forms: [],
    });
  });
});

describe('who may call each route (docs/roles.md "Form 8868 extensions")', () => {
  it('visitors get 401 on every route', async () => {
    const visitor = await new Agent(t.app).start();
    expect((await visitor.call(extensionContracts.list)).statusCode).toBe(401);
    expect((await visitor.call(extensionContracts.record, { body: JUNE_2025 })).statusCode).toBe(401);
    expect(
      (await visitor.call(extensionContracts.remove, { params: { id: ids.btwCheer, extensionId: 1 } })).statusCode,
    ).toBe(401);
  });

  it("a user of another account gets 404 for this account's extensions, as for one that does not exist, and writes nothing", async () => {
    const before = await extensionCount();
    const read = await on(() => juno.call(extensionContracts.list, { query: { account_id: ids.btwCheer } }));
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain('2025-11-10');
    const write = await on(() =>
      juno.call(extensionContracts.record, {
        body: {
          ...JUNE_2025,
          account_id: ids.btwCheer,
          period_end: '2024-06',
          filed_on: '2024-11-01',
          extended_due: '2025-05-15',
        },
      }),
    );
    expect(write.statusCode).toBe(404);
    expect(write.json()).toEqual({ message: 'The account could not be found.' });
    expect(await extensionCount()).toBe(before);
  });

  it('only staff remove an extension: a user of the account gets 403, and nothing is removed', async () => {
    const [row] = await db()
      .select({ id: filingExtensions.id })
      .from(filingExtensions)
      .where(eq(filingExtensions.accountId, ids.btwCheer));
    const before = await extensionCount();
    const res = await bea.call(extensionContracts.remove, { params: { id: ids.btwCheer, extensionId: row.id } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'You are not allowed to do that.' });
    expect(await extensionCount()).toBe(before);
  });

  it('staff remove one after a mistake (audited), and the standing counts the original due date again', async () => {
    const [row] = await db()
      .select({ id: filingExtensions.id })
      .from(filingExtensions)
      .where(eq(filingExtensions.accountId, ids.btwCheer));
    // Another account's path does not reach it.
    const elsewhere = await staff.call(extensionContracts.remove, { params: { id: ids.juneau, extensionId: row.id } });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ message: 'The extension could not be found.' });

    const res = await staff.call(extensionContracts.remove, { params: { id: ids.btwCheer, extensionId: row.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'The Form 8868 extension for the period ending June 2025 was removed.' });
    expect(
      (await staff.call(extensionContracts.remove, { params: { id: ids.btwCheer, extensionId: row.id } })).statusCode,
    ).toBe(404);

    const standing = (await on(() => bea.call(accountOverviewContracts.account))).json().account.standing;
    expect(standing.state).toBe('unless_extended');
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'filing_extension.removed'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({
      actorUserId: staffId,
      accountId: ids.btwCheer,
      details: { extensionId: row.id, periodEnd: '2025-06', returnForm: '990-EZ', recordedAs: 'account' },
    });
  });
});
