import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accounts,
  groups,
  irsEpostcards,
  irsOrganizations,
  irsPub78,
  irsReleases,
  irsRevocations,
} from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { GEN_5271_EXTRACT } from '../../src/server/db/seed/seed.ts';
import { IrsFileError } from '../../src/server/modules/irs-data/irs-files.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { importBmf } from '../../src/server/modules/subordinates/import-bmf.ts';
import { accountOverviewContracts } from '../../src/shared/contracts/account-overview.ts';
import { adminAccountsContracts } from '../../src/shared/contracts/admin-accounts.ts';
import { publicProfileContracts } from '../../src/shared/contracts/public-profile.ts';
import { subordinateSearchContract } from '../../src/shared/contracts/subordinate-search.ts';
import { npmRun } from '../helpers/commands.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * IRS data releases (docs/irs-data.md) and the standing they give (docs/irs-standing.md), as the
 * public profile shows it: the real GEN 5271 rows of the April 2026 BMF, and small Form 990-N and
 * Automatic Revocation List files written in the IRS's pipe-delimited layouts
 * (tests/fixtures/irs). "Today" is fixed at 25 November 2026.
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'irs');
const EPOSTCARD = path.join(FIXTURES, 'epostcard-2026-10.txt');
const REVOCATIONS = path.join(FIXTURES, 'revocations-2026-10.txt');
const POWERHOUSE_EIN = '873240715';

let t: TestApp;
let visitor: Agent;
let tmp: string;

async function profileOf(ein: string) {
  const [a] = await t.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.ein, ein));
  const res = await visitor.call(publicProfileContracts.show, { params: { id: a.id } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** An account as a December-year 990-N filer in the BMF, exempt since October 2005. */
async function bmfAccount(ein: string, over: Partial<typeof accounts.$inferInsert> = {}) {
  await t.database.db.insert(accounts).values({
    name: `Test ${ein}`,
    ein,
    irsStatus: '01',
    filingRequirement: '02',
    fiscalYearEndMonth: 12,
    ruling: '200510',
    taxPeriod: '202212',
    isListed: true,
    ...over,
  });
}

const releaseCount = async () => (await t.database.db.select({ n: count() }).from(irsReleases))[0].n;

beforeAll(async () => {
  t = await createTestApp();
  visitor = await new Agent(t.app).start();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-irs-'));
  // The GEN's roster as listed accounts (the seed's way), then the BMF release that fills their IRS facts.
  await importBmf(t.database.db, GEN_5271_EXTRACT);
  const bmf = await loadIrsRelease(t.database.db, { dataset: 'bmf', file: GEN_5271_EXTRACT, releasedOn: '2026-04-01' });
  expect(bmf).toMatchObject({ status: 'loaded', rows: 806, loaded: 806, skipped: 0 });
  await bmfAccount('990000002');
  await bmfAccount('990000003', { fiscalYearEndMonth: 6, taxPeriod: '202406' });
  await bmfAccount('990000004', { irsStatus: null, taxPeriod: '201912' });
  await bmfAccount('990000005', { taxPeriod: '202512' });
});
afterAll(async () => {
  fs.rmSync(tmp, { recursive: true, force: true });
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const onNov25 = () => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-25T15:00:00Z') });

describe('standing from the BMF alone', () => {
  it('Powerhouse Academy Cheer Booster: latest return 2022, past its revocation date of 15 May 2026', async () => {
    onNov25();
    const p = await profileOf(POWERHOUSE_EIN);
    expect(p.standing).toBe('past_revocation_date');
    expect(p.standing_label).toBe('Past its revocation date: revoked unless a return was filed');
    expect(p.irs).toMatchObject({
      status_code: '01',
      status_meaning: 'Unconditional exemption',
      fiscal_year_end_month: 12,
      filing_requirement: 'Form 990-N (e-Postcard): gross receipts normally $50,000 or less',
      latest_tax_year_filed: 2022,
      missed_tax_years: [2023, 2024],
      // Due 15 May 2026, after the April release: the data cannot show whether it was filed.
      awaiting_data_tax_years: [2025],
      revocation_date: '2026-05-15',
      days_to_revocation: -194,
      next_due: { tax_year: 2026, due: '2027-05-17', days_left: 173 },
      revoked_on: null,
      sources: { bmf: '2026-04-01', epostcard: null, revocations: null },
    });
  });

  it('never shows the in-care-of name or any other personal name', async () => {
    onNov25();
    const text = JSON.stringify(await profileOf(POWERHOUSE_EIN));
    expect(text).not.toContain('HOUSEMAN');
    expect(text).not.toContain('TRICIA');
  });
});

describe('IRS facts in their own table (docs/irs-data.md "IRS facts")', () => {
  it('a BMF release of a whole state keeps every organization in irs_organizations, creates no account and lists no one', async () => {
    const WY = path.resolve('../shared/data/irs-eo-bmf/eo_wy.csv');
    const db = t.database.db;
    const accountsBefore = (await db.select({ n: count() }).from(accounts))[0].n;
    const listedBefore = (
      await visitor.call(subordinateSearchContract, { query: { search: 'verify-501c3', keyword: '' } })
    ).json().total;
    // A customer that joined with its EIN before the release: the release fills in its IRS facts.
    const [customer] = await db
      .insert(accounts)
      .values({ name: 'Wyoming Peace Officers', ein: '742462506', source: 'app' })
      .returning({ id: accounts.id });
    const result = await loadIrsRelease(db, { dataset: 'bmf', file: WY, releasedOn: '2026-04' });
    expect(result).toMatchObject({ status: 'loaded', rows: 5985, loaded: 5985 });

    expect(
      (
        await db.select({ n: count() }).from(irsOrganizations).where(eq(irsOrganizations.releaseId, result.release.id))
      )[0].n,
    ).toBe(5985);
    expect((await db.select({ n: count() }).from(accounts))[0].n).toBe(accountsBefore + 1);
    expect(
      (await visitor.call(subordinateSearchContract, { query: { search: 'verify-501c3', keyword: '' } })).json().total,
    ).toBe(listedBefore);
    const [peace] = await db.select().from(irsOrganizations).where(eq(irsOrganizations.ein, '742462506'));
    expect(peace).toMatchObject({
      name: 'WYOMING PEACE OFFICERS ASSOCIATION',
      filingRequirement: '01',
      fiscalYearEndMonth: 6,
      ruling: '202509',
    });
    // The in-care-of name (a person's) is not kept anywhere: "% RANDALL WEBSTER" in the file.
    expect(JSON.stringify(peace)).not.toContain('RANDALL');
    const [own] = await db.select().from(accounts).where(eq(accounts.id, customer.id));
    expect(own).toMatchObject({
      name: 'Wyoming Peace Officers',
      filingRequirement: '01',
      taxPeriod: '201308',
      bmfReleaseId: result.release.id,
    });
  });
});

describe('Form 990-N data', () => {
  it('loads the returns, counts a late one, and skips a row whose EIN is not 9 digits', async () => {
    onNov25();
    expect((await profileOf('990000002')).standing).toBe('past_revocation_date');
    const result = await loadIrsRelease(t.database.db, {
      dataset: 'epostcard',
      file: EPOSTCARD,
      releasedOn: '2026-10-06',
    });
    expect(result).toMatchObject({ status: 'loaded', rows: 4, loaded: 3, skipped: 1 });
    expect(result.release).toMatchObject({
      dataset: 'epostcard',
      fileName: 'epostcard-2026-10.txt',
      releasedOn: '2026-10-06',
      rowCount: 4,
      loadedCount: 3,
    });
    expect(result.release.sha256).toMatch(/^[0-9a-f]{64}$/);

    // The return for 2025 came late (due 15 May 2026) but counts: the countdown starts again.
    const late = await profileOf('990000002');
    expect(late.standing).toBe('good');
    expect(late.irs).toMatchObject({
      latest_tax_year_filed: 2025,
      missed_tax_years: [],
      revocation_date: '2029-05-15',
      sources: { epostcard: '2026-10-06' },
    });
    // The IRS's "tax year" is the year the period begins; the product's is the year it ends.
    const june = await profileOf('990000003');
    expect(june.irs.latest_tax_year_filed).toBe(2026);
    expect(june.standing).toBe('good');
  });

  it('loading the same file again changes nothing', async () => {
    const before = await releaseCount();
    const again = await loadIrsRelease(t.database.db, {
      dataset: 'epostcard',
      file: EPOSTCARD,
      releasedOn: '2026-10-06',
    });
    expect(again.status).toBe('unchanged');
    expect(await releaseCount()).toBe(before);
    expect((await t.database.db.select({ n: count() }).from(irsEpostcards))[0].n).toBe(3);
  });

  it('refuses a release older than the one loaded, and changes nothing', async () => {
    const older = path.join(tmp, 'epostcard-old.txt');
    fs.writeFileSync(older, fs.readFileSync(EPOSTCARD, 'utf8').replace('TEST LATE FILER', 'TEST RENAMED'));
    const before = await releaseCount();
    await expect(
      loadIrsRelease(t.database.db, { dataset: 'epostcard', file: older, releasedOn: '2026-09-01' }),
    ).rejects.toThrow(
      'epostcard-old.txt (released 2026-09-01) is older than the Form 990-N (e-Postcard) data already loaded (epostcard-2026-10.txt, released 2026-10-06): nothing was changed.',
    );
    expect(await releaseCount()).toBe(before);
  });
});

describe('Automatic Revocation List', () => {
  it('shows a listed organization as revoked with its date, and a reinstated one as reinstated', async () => {
    onNov25();
    await loadIrsRelease(t.database.db, { dataset: 'revocations', file: REVOCATIONS, releasedOn: '2026-10-14' });
    const revoked = await profileOf('990000004');
    expect(revoked.standing).toBe('revoked');
    expect(revoked.irs).toMatchObject({ revoked_on: '2026-05-15', sources: { revocations: '2026-10-14' } });
    const reinstated = await profileOf('990000005');
    expect(reinstated.standing).toBe('reinstated');
    expect(reinstated.irs).toMatchObject({
      revoked_on: '2020-05-15',
      reinstated_on: '2021-03-01',
      latest_tax_year_filed: 2025,
    });
    expect((await t.database.db.select({ n: count() }).from(irsRevocations))[0].n).toBe(2);
  });
});

describe('bad files are refused with a readable message and change nothing', () => {
  const write = (name: string, content: string | Buffer) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, content);
    return file;
  };
  const cases: [string, () => string, 'bmf' | 'epostcard' | 'revocations', RegExp][] = [
    [
      'a BMF extract given as 990-N data',
      () => GEN_5271_EXTRACT,
      'epostcard',
      /Line 1 has 1 fields where the Form 990-N \(e-Postcard\) data has 26/,
    ],
    ['990-N data given as the BMF', () => EPOSTCARD, 'bmf', /not an IRS EO BMF extract/],
    [
      'a download cut short',
      () => write('cut.txt', fs.readFileSync(REVOCATIONS, 'utf8').slice(0, -40)),
      'revocations',
      /does not end with a line break/,
    ],
    [
      'a row cut short',
      () => write('short.txt', '990000009|NAME|15-MAY-2026\n'),
      'revocations',
      /Line 1 has 3 fields where the Automatic Revocation List has 12/,
    ],
    [
      'a wrong date format',
      () => write('dates.txt', fs.readFileSync(REVOCATIONS, 'utf8').replace('15-MAY-2026', '2026-05-15')),
      'revocations',
      /Line 1 .*DD-MON-YYYY/,
    ],
    [
      'not text',
      () =>
        write(
          'latin1.txt',
          Buffer.concat([Buffer.from('990000009|CAF'), Buffer.from([0xc9, 0xff]), Buffer.from('|x\n')]),
        ),
      'revocations',
      /not plain text/,
    ],
    ['an empty file', () => write('empty.txt', ''), 'epostcard', /empty/],
  ];
  it.each(cases)('%s', async (_name, file, dataset, message) => {
    const before = await releaseCount();
    const error = await loadIrsRelease(t.database.db, { dataset, file: file(), releasedOn: '2026-11-01' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IrsFileError);
    expect((error as Error).message).toMatch(message);
    expect(await releaseCount()).toBe(before);
  });

  it('refuses a release date that is not a date', async () => {
    await expect(
      loadIrsRelease(t.database.db, { dataset: 'revocations', file: REVOCATIONS, releasedOn: 'October' }),
    ).rejects.toThrow(
      'The release date must be a date as YYYY-MM-DD (or YYYY-MM when only the month is known), not "October".',
    );
    await expect(
      loadIrsRelease(t.database.db, { dataset: 'revocations', file: REVOCATIONS, releasedOn: '2026-02-30' }),
    ).rejects.toThrow(
      'The release date must be a date as YYYY-MM-DD (or YYYY-MM when only the month is known), not "2026-02-30".',
    );
  });
});

describe('the group and staff see the same standing', () => {
  it('on /api/account for the group and /api/admin/accounts/:id for staff; a visitor and another group get neither', async () => {
    onNov25();
    const db = t.database.db;
    const [a] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.ein, POWERHOUSE_EIN));
    await createUser(db, {
      email: 'powerhouse.treasurer@example.com',
      password: 'Treasurer-pass-2026',
      accountId: a.id,
    });
    await createUser(db, { email: 'irs.staff@example.com', password: 'Staff-pass-2026x', isAdmin: true });
    const holder = await new Agent(t.app).start();
    expect((await holder.login('powerhouse.treasurer@example.com', 'Treasurer-pass-2026')).statusCode).toBe(200);
    const staff = await new Agent(t.app).start();
    expect((await staff.login('irs.staff@example.com', 'Staff-pass-2026x')).statusCode).toBe(200);

    const own = (await holder.call(accountOverviewContracts.account)).json().account.standing;
    // The 990-N data released 6 October 2026 (loaded above) shows no return for 2025: now missed too.
    expect(own).toMatchObject({
      state: 'past_revocation_date',
      irs: { revocation_date: '2026-05-15', missed_tax_years: [2023, 2024, 2025], awaiting_data_tax_years: [] },
    });
    const seenByStaff = await staff.call(adminAccountsContracts.show, { params: { id: a.id } });
    expect(seenByStaff.statusCode).toBe(200);
    expect(seenByStaff.json().standing).toEqual(own);

    expect((await visitor.call(adminAccountsContracts.show, { params: { id: a.id } })).statusCode).toBe(401);
    expect((await holder.call(adminAccountsContracts.show, { params: { id: a.id } })).statusCode).toBe(403);
    expect((await visitor.call(accountOverviewContracts.account)).statusCode).toBe(401);
  });
});

describe('good-standing letter', () => {
  /** The text of a PDF, as a reader's viewer shows it. */
  async function pdfText(body: Buffer) {
    const { extractText, getDocumentProxy } = await import('unpdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(body)), { mergePages: true });
    return text.replace(/\s+/g, ' ');
  }

  it('a group in good standing downloads a PDF that cites the IRS releases; a group that is not gets the reason', async () => {
    onNov25();
    const db = t.database.db;
    // CHS Lady Knights Flag Football (GEN 5271): TAX_PERIOD 202506, June year end.
    const [knights] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.ein, '332182308'));
    await createUser(db, {
      email: 'knights.secretary@example.com',
      password: 'Secretary-pass-2026',
      accountId: knights.id,
    });
    const holder = await new Agent(t.app).start();
    expect((await holder.login('knights.secretary@example.com', 'Secretary-pass-2026')).statusCode).toBe(200);

    const res = await holder.call(accountOverviewContracts.standingLetter);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="good-standing-332182308-2026-11-25.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Statement of good standing with the IRS');
    expect(text).toContain('CHS LADY KNIGHTS FLAG FOOTBALL');
    expect(text).toContain('EIN 33-2182308');
    expect(text).toContain('group exemption number (GEN) 5271 of PARENT BOOSTER USA INC');
    expect(text).toContain('Latest return on file: Tax period ending June 2025');
    expect(text).toContain('Not in the IRS data yet: the return for tax year 2026, due after these releases');
    expect(text).toContain('EO Business Master File extract: irs-eo-bmf-gen-5271.csv, released April 1, 2026');
    expect(text).toContain('Form 990-N (e-Postcard) data: epostcard-2026-10.txt, released October 6, 2026');
    expect(text).toContain('not an IRS determination letter');
    expect(text).not.toContain('MCCLAY'); // the BMF's in-care-of name

    // Powerhouse is past its revocation date: no letter, and the reason.
    const powerhouse = await new Agent(t.app).start();
    expect((await powerhouse.login('powerhouse.treasurer@example.com', 'Treasurer-pass-2026')).statusCode).toBe(200);
    const refused = await powerhouse.call(accountOverviewContracts.standingLetter);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'A good-standing letter needs the IRS data to show the group in good standing. It shows: Past its revocation date: revoked unless a return was filed.',
    );

    // Staff download any group's letter; a visitor and a group user cannot use the staff address.
    const staff = await new Agent(t.app).start();
    expect((await staff.login('irs.staff@example.com', 'Staff-pass-2026x')).statusCode).toBe(200);
    expect((await staff.call(adminAccountsContracts.standingLetter, { params: { id: knights.id } })).statusCode).toBe(
      200,
    );
    expect((await visitor.call(adminAccountsContracts.standingLetter, { params: { id: knights.id } })).statusCode).toBe(
      401,
    );
    expect((await holder.call(adminAccountsContracts.standingLetter, { params: { id: knights.id } })).statusCode).toBe(
      403,
    );
    expect((await visitor.call(accountOverviewContracts.standingLetter)).statusCode).toBe(401);
  });
});

describe('npm run import:irs', () => {
  it('loads a file as a release, says so when it is loaded again, and refuses a bad file with exit 1', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATA_DIR: path.join(tmp, 'cli-data'),
    };
    const args = ['--dataset', 'revocations', '--released', '2026-10-14'];
    const first = await npmRun('import:irs', [...args, REVOCATIONS], env, { timeoutMs: 120_000 });
    expect(first.stderr).not.toMatch(/\n\s+at /);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /revocations-2026-10\.txt: 2 rows, 2 loaded, 0 skipped, release of 2026-10-14 recorded/,
    );
    const again = await npmRun('import:irs', [...args, REVOCATIONS], env, { timeoutMs: 120_000 });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('revocations-2026-10.txt: already loaded (release of 2026-10-14); nothing changed.');
    const bad = await npmRun('import:irs', [...args, EPOSTCARD], env, { timeoutMs: 120_000 });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'epostcard-2026-10.txt: Line 1 has 26 fields where the Automatic Revocation List has 12',
    );
    const missing = await npmRun('import:irs', ['--dataset', 'revocations', REVOCATIONS], env, { timeoutMs: 60_000 });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      '--released takes the IRS release date of the files, as YYYY-MM-DD (YYYY-MM when only the month is known).',
    );
  }, 300_000);
});

describe('Publication 78 data', () => {
  const PUB78_NOV = path.join(FIXTURES, 'pub78-2026-11.txt');
  const PUB78_DEC = path.join(FIXTURES, 'pub78-2026-12.txt');

  it("shows each group's listing, a subordinate covered through its central organization's GROUP entry, and replaces the list with each release", async () => {
    onNov25();
    // Before any Publication 78 data is loaded, the profile says nothing about it.
    expect((await profileOf('990000002')).irs.pub78).toBeNull();
    await t.database.db.update(groups).set({ centralEin: '990000099' }).where(eq(groups.gen, '5271'));

    const nov = await loadIrsRelease(t.database.db, { dataset: 'pub78', file: PUB78_NOV, releasedOn: '2026-11-10' });
    expect(nov).toMatchObject({ status: 'loaded', rows: 5, skipped: 1 });
    expect((await profileOf('990000002')).irs).toMatchObject({
      pub78: { status: 'listed', codes: [{ code: 'PC', meaning: 'A public charity' }] },
      sources: { pub78: '2026-11-10' },
    });
    // An EIN listed twice keeps the codes of both entries.
    expect((await profileOf('990000003')).irs.pub78.codes.map((c: { code: string }) => c.code)).toEqual([
      'EO',
      'LODGE',
      'PC',
    ]);
    expect((await profileOf('990000004')).irs.pub78).toEqual({ status: 'not_listed', codes: [] });
    // A subordinate of GEN 5271 is not listed on its own: its central organization's GROUP entry covers it.
    expect((await profileOf(POWERHOUSE_EIN)).irs.pub78).toEqual({ status: 'through_central', codes: [] });

    // The next release is the whole current list: an organization missing from it is no longer listed.
    const dec = await loadIrsRelease(t.database.db, { dataset: 'pub78', file: PUB78_DEC, releasedOn: '2026-12-08' });
    expect(dec).toMatchObject({ status: 'loaded', rows: 2, loaded: 2 });
    expect((await profileOf('990000002')).irs.pub78).toEqual({ status: 'not_listed', codes: [] });
    expect((await profileOf('990000003')).irs).toMatchObject({
      pub78: { status: 'listed', codes: [{ code: 'EO' }] },
      sources: { pub78: '2026-12-08' },
    });
    expect((await t.database.db.select({ n: count() }).from(irsPub78))[0].n).toBe(2);

    // The same file again changes nothing; an older release is refused.
    expect(
      (await loadIrsRelease(t.database.db, { dataset: 'pub78', file: PUB78_DEC, releasedOn: '2026-12-08' })).status,
    ).toBe('unchanged');
    const october = path.join(tmp, 'pub78-2026-10.txt');
    fs.writeFileSync(october, '990000002|TEST PUB78 BOOSTERS INC|ANYTOWN|OK|United States|PC\n');
    await expect(
      loadIrsRelease(t.database.db, { dataset: 'pub78', file: october, releasedOn: '2026-10-13' }),
    ).rejects.toThrow(
      'pub78-2026-10.txt (released 2026-10-13) is older than the Publication 78 data already loaded (pub78-2026-12.txt, released 2026-12-08): nothing was changed.',
    );
    expect((await t.database.db.select({ n: count() }).from(irsPub78))[0].n).toBe(2);
  });

  it('refuses a file whose rows are not in the Publication 78 layout, and changes nothing', async () => {
    const before = await releaseCount();
    const bad = path.join(tmp, 'pub78-bad.txt');
    fs.writeFileSync(bad, '990000002|TEST PUB78 BOOSTERS INC|ANYTOWN|OK|United States|P1\n');
    await expect(
      loadIrsRelease(t.database.db, { dataset: 'pub78', file: bad, releasedOn: '2027-01-12' }),
    ).rejects.toThrow(
      'Line 1 is not a Publication 78 data row: its last field must be deductibility codes such as PC or EO,LODGE.',
    );
    await expect(
      loadIrsRelease(t.database.db, { dataset: 'pub78', file: REVOCATIONS, releasedOn: '2027-01-12' }),
    ).rejects.toThrow(
      'Line 1 has 12 fields where the Publication 78 data has 6: this is not that file, or it is cut short.',
    );
    expect(await releaseCount()).toBe(before);
  });
});
