import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accounts, groups } from '../../src/server/db/schema.ts';
import { createAccount } from '../../src/server/db/seed/factories.ts';
import { GEN_5271_EXTRACT } from '../../src/server/db/seed/seed.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { importBmf } from '../../src/server/modules/subordinates/import-bmf.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Subordinate search (docs/requirements/product.md tool 16, docs/requirements/entities.md "Search results page", docs/requirements/calls.md GET search action, docs/requirements/constants.md
 * pagination) over the real IRS extract shipped with the project, and public profiles.
 * Expected totals are computed here from the CSV, independently of the server.
 */

const WY_FILE = '/work/shared/data/irs-eo-bmf/eo_wy.csv';
const PER_PAGE = 15;

interface Row {
  EIN: string;
  NAME: string;
  SORT_NAME: string;
  AFFILIATION: string;
  CITY: string;
  STATE: string;
  GROUP: string;
}

/** The CSV as the IRS wrote it, one record per EIN (the last wins, as an import would). */
function readCsv(file: string): Row[] {
  const records = parse(fs.readFileSync(file), { columns: true, bom: true, skip_empty_lines: true }) as Row[];
  const byEin = new Map<string, Row>();
  for (const r of records) if (/^\d{9}$/.test(r.EIN.trim())) byEin.set(r.EIN.trim(), r);
  return [...byEin.values()];
}

/** What the listing shows as a name: a subordinate's own name is its secondary name line. */
const shownName = (r: Row) => (r.AFFILIATION === '9' && r.SORT_NAME.trim() ? r.SORT_NAME.trim() : r.NAME.trim());

/**
 * Rows matching every word of `keyword`, ignoring case, in the shown name, the secondary name or
 * the city. A subordinate's NAME is its central organization's (PARENT BOOSTER USA INC on every
 * GEN 5271 row), so it is not searched for subordinates (import-bmf.ts searchTextParts).
 */
function expectedMatches(rows: Row[], keyword: string): Row[] {
  const words = keyword.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((r) => {
    const isSubordinate = r.AFFILIATION === '9' && r.SORT_NAME.trim() !== '';
    const fields = (isSubordinate ? [shownName(r), r.CITY] : [r.NAME, r.SORT_NAME, r.CITY]).map((s) =>
      s.trim().toLowerCase(),
    );
    return words.every((w) => fields.some((f) => f.includes(w)));
  });
}

const tuple = (r: { name: string; city: string; state: string }) => `${r.name}|${r.city}|${r.state}`;

let t: TestApp;
let a: Agent;
let csv: Row[];

const search = (params: Record<string, string>) => a.get(`/search?${new URLSearchParams(params)}`);
const searchFor = (keyword: string, page?: number) =>
  search({ search: 'verify-501c3', keyword, ...(page ? { page: String(page) } : {}) });

/** Follows next_page_url from page 1 to the end, as the pagination does, and returns every row. */
async function allPages(keyword: string) {
  const rows: { id: number; name: string; city: string; state: string }[] = [];
  let url: string | null = `/search?${new URLSearchParams({ search: 'verify-501c3', keyword })}`;
  let pages = 0;
  while (url) {
    const res = await a.get(url);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    rows.push(...page.data);
    url = page.next_page_url;
    pages++;
    expect(pages).toBeLessThan(200);
  }
  return { rows, pages };
}

const accountCount = async () => (await t.database.db.select({ n: count() }).from(accounts))[0].n;

beforeAll(async () => {
  t = await createTestApp();
  csv = readCsv(GEN_5271_EXTRACT);
  // The GEN's roster becomes listed accounts (as the seed and a confirmed roster import make them),
  // then the April 2026 BMF release is loaded as an operator loads it, its day not known, so recorded
  // by its month (docs/irs-data.md "Releases", "IRS facts").
  await importBmf(t.database.db, GEN_5271_EXTRACT);
  const result = await loadIrsRelease(t.database.db, {
    dataset: 'bmf',
    file: GEN_5271_EXTRACT,
    releasedOn: '2026-04',
  });
  expect(result).toMatchObject({ status: 'loaded', rows: 806, loaded: 806, skipped: 0 });
  a = await new Agent(t.app).start();
});
afterAll(async () => {
  await t?.close();
});

describe('importBmf with the shipped GEN 5271 extract', () => {
  it('holds one listed account per EIN of the file', async () => {
    expect(csv).toHaveLength(806);
    expect(await accountCount()).toBe(806);
  });

  it('is idempotent: a second run keeps the same accounts and groups', async () => {
    const [{ g: groupsBefore }] = await t.database.db.select({ g: count() }).from(groups);
    const again = await importBmf(t.database.db, GEN_5271_EXTRACT, { batchSize: 97 });
    expect(again).toEqual({ read: 806, imported: 806, skipped: 0 });
    expect(await accountCount()).toBe(806);
    const [{ g: groupsAfter }] = await t.database.db.select({ g: count() }).from(groups);
    expect(groupsAfter).toBe(groupsBefore);
    expect((await searchFor('')).json().total).toBe(806);
  });

  it('filters on a GEN when asked', async () => {
    const other = await importBmf(t.database.db, GEN_5271_EXTRACT, { gen: '9999' });
    expect(other).toEqual({ read: 806, imported: 0, skipped: 806 });
    expect(await accountCount()).toBe(806);
  });

  it('refuses a file that is not a BMF extract', async () => {
    const bad = `${process.env.TMPDIR ?? '/tmp'}/not-bmf-${process.pid}.csv`;
    fs.writeFileSync(bad, 'a,b,c\n1,2,3\n');
    try {
      await expect(importBmf(t.database.db, bad)).rejects.toThrow(/is not an IRS EO BMF extract/);
    } finally {
      fs.rmSync(bad, { force: true });
    }
    expect(await accountCount()).toBe(806);
  });
});

describe('GET /search?search=verify-501c3', () => {
  it('answers the docs/requirements/entities.md page object', async () => {
    const res = await searchFor('wrestling');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(Object.keys(page).sort()).toEqual([
      'current_page',
      'data',
      'from',
      'last_page',
      'next_page_url',
      'per_page',
      'prev_page_url',
      'to',
      'total',
    ]);
    const expected = expectedMatches(csv, 'wrestling');
    expect(expected.length).toBe(18);
    expect(page).toMatchObject({
      current_page: 1,
      from: 1,
      to: PER_PAGE,
      per_page: PER_PAGE,
      total: expected.length,
      last_page: Math.ceil(expected.length / PER_PAGE),
      prev_page_url: null,
      next_page_url: '/search?search=verify-501c3&keyword=wrestling&page=2',
    });
    expect(page.data).toHaveLength(PER_PAGE);
    for (const row of page.data) {
      expect(Object.keys(row).sort()).toEqual(['city', 'id', 'name', 'state']);
      expect(row.name.toLowerCase()).toContain('wrestling');
    }
  });

  it.each([
    'wrestling',
    'WRESTLING',
    'Booster',
    'football',
    'band',
    'parent',
    'chs',
    'high school',
    'booster club inc',
    'club booster',
    '4-h',
    '&',
    'track & field',
    'palmer',
    'soldotna track',
  ])(
    'totals for %j equal the count computed from the CSV, and every page together lists exactly those rows',
    async (keyword) => {
      const expected = expectedMatches(csv, keyword);
      const first = (await searchFor(keyword)).json();
      expect(first.total).toBe(expected.length);
      expect(first.last_page).toBe(Math.max(1, Math.ceil(expected.length / PER_PAGE)));
      const { rows, pages } = await allPages(keyword);
      expect(pages).toBe(first.last_page);
      expect(rows.map(tuple).sort()).toEqual(
        expected.map((r) => tuple({ name: shownName(r), city: r.CITY.trim(), state: r.STATE.trim() })).sort(),
      );
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    },
  );

  it('matches multi-word keywords in any order, ignoring extra spaces', async () => {
    const ab = (await searchFor('wrestling booster')).json();
    const ba = (await searchFor('  BOOSTER    wrestling ')).json();
    expect(ab.total).toBe(expectedMatches(csv, 'wrestling booster').length);
    expect(ba.total).toBe(ab.total);
    expect(ba.data).toEqual(ab.data);
    expect(ab.total).toBeLessThan((await searchFor('wrestling')).json().total);
  });

  it('orders rows by name', async () => {
    const { rows } = await allPages('booster');
    expect(rows.length).toBe(expectedMatches(csv, 'booster').length);
    // Collations differ on spaces and punctuation, but never on the order of leading letters.
    const initials = rows.map((r) => r.name[0]).filter((c) => /[A-Z]/.test(c));
    expect(initials.length).toBeGreaterThan(100);
    expect(initials).toEqual([...initials].sort());
  });

  it('pages to the last page and past the end', async () => {
    const expected = expectedMatches(csv, 'booster').length;
    const lastPage = Math.ceil(expected / PER_PAGE);
    const last = (await searchFor('booster', lastPage)).json();
    expect(last).toMatchObject({
      current_page: lastPage,
      from: (lastPage - 1) * PER_PAGE + 1,
      to: expected,
      total: expected,
      last_page: lastPage,
      next_page_url: null,
      prev_page_url: `/search?search=verify-501c3&keyword=booster&page=${lastPage - 1}`,
    });
    expect(last.data).toHaveLength(expected - (lastPage - 1) * PER_PAGE);

    const past = (await searchFor('booster', lastPage + 10)).json();
    expect(past).toMatchObject({
      current_page: lastPage + 10,
      data: [],
      from: null,
      to: null,
      total: expected,
      last_page: lastPage,
      next_page_url: null,
      prev_page_url: `/search?search=verify-501c3&keyword=booster&page=${lastPage}`,
    });
  });

  it('lists everything for an empty keyword, and answers one empty page when nothing matches', async () => {
    const all = (await searchFor('')).json();
    expect(all).toMatchObject({ total: 806, last_page: Math.ceil(806 / PER_PAGE), from: 1, to: PER_PAGE });
    const none = (await searchFor('zzzqqqxxx')).json();
    expect(none).toEqual({
      current_page: 1,
      data: [],
      from: null,
      to: null,
      last_page: 1,
      per_page: PER_PAGE,
      total: 0,
      next_page_url: null,
      prev_page_url: null,
    });
  });

  it('treats % and _ in the keyword literally', async () => {
    for (const keyword of ['%', '_', '%booster', 'b_oster', 'wrest%ing', '\\', '\\%']) {
      const res = await searchFor(keyword);
      expect(res.statusCode, keyword).toBe(200);
      expect(res.json().total, keyword).toBe(expectedMatches(csv, keyword).length);
      expect(res.json().total, keyword).toBe(0);
    }
  });

  it('reads a bad page number as page 1', async () => {
    for (const page of ['0', '-3', 'abc', '2.5', '']) {
      const res = await search({ search: 'verify-501c3', keyword: 'booster', page });
      expect(res.statusCode, page).toBe(200);
      expect(res.json().current_page, page).toBe(1);
    }
  });

  it('answers 422 on search when the search parameter is missing or different', async () => {
    for (const params of [
      { keyword: 'booster' },
      { search: 'verify', keyword: 'booster' },
      { search: '', keyword: 'x' },
    ]) {
      const res = await search(params as Record<string, string>);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.search[0]).toBe('The selected search is invalid.');
    }
    const twice = await a.get('/search?search=verify-501c3&search=verify-501c3&keyword=x');
    expect(twice.statusCode).toBe(422);
  });

  it('never answers 5xx to odd keywords', async () => {
    const wrestling = (await searchFor('wrestling')).json().total;
    const nul = await a.get('/search?search=verify-501c3&keyword=wrest%00ling');
    expect(nul.statusCode).toBe(200);
    expect(nul.json().total).toBe(wrestling);
    for (const raw of [
      '%00',
      '%ED%A0%80',
      '%FF%FE',
      `${'x'.repeat(5000)}`,
      "'%20OR%201=1%20--",
      '%E2%80%AE',
      'a%0Ab',
      '%C0%AF',
    ]) {
      const res = await a.get(`/search?search=verify-501c3&keyword=${raw}`);
      expect(res.statusCode, raw).toBeLessThan(500);
    }
    const nulSearch = await a.get('/search?search=verify-501c3%00&keyword=x');
    expect(nulSearch.statusCode).toBe(422);
    const manyWords = await searchFor(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '));
    expect(manyWords.statusCode).toBe(200);
  });

  it('does not list accounts that are not listed', async () => {
    await t.database.db
      .insert(accounts)
      .values({ name: 'Hidden Wrestling Booster Club', searchText: 'hidden wrestling booster club', isListed: false });
    const res = (await searchFor('hidden wrestling')).json();
    expect(res.total).toBe(0);
  });
});

describe('GET /api/accounts/:id/public', () => {
  /** Finds an account's id through the search, as a click on a result row does. */
  async function idOf(keyword: string, name: string) {
    const page = (await searchFor(keyword)).json();
    const row = page.data.find((r: { name: string }) => r.name === name);
    expect(row, `${keyword} -> ${name}`).toBeDefined();
    return row.id as number;
  }

  it('shows the EIN as 12-3456789, the ruling year, the subsection and the standing', async () => {
    const id = await idOf('lady knights flag', 'CHS LADY KNIGHTS FLAG FOOTBALL');
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-26T12:00:00Z') });
    const res = await a.get(`/api/accounts/${id}/public`).finally(() => vi.useRealTimers());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id,
      name: 'CHS LADY KNIGHTS FLAG FOOTBALL',
      legal_name: 'PARENT BOOSTER USA INC',
      city: 'PALMER',
      state: 'AK',
      ein: '33-2182308',
      gen: '5271',
      ruling_year: '2005',
      // A subordinate (AFFILIATION 9): the RULING is the group exemption's, not its own.
      ruling_is_group: true,
      subsection: '501(c)(3)',
      deductible: 'Yes',
      standing: 'good',
      standing_label: 'In good standing',
      // eo_ak.csv: TAX_PERIOD 202506, ACCT_PD 06, FILING_REQ_CD 02. The 2026 return was due on
      // 16 November 2026, after the April release: not yet known, so not missed, and listed.
      irs: {
        status_code: '01',
        status_meaning: 'Unconditional exemption',
        fiscal_year_end_month: 6,
        filing_requirement: 'Form 990-N (e-Postcard): gross receipts normally $50,000 or less',
        return_owed: 'Form 990-N (e-Postcard) every year',
        late_cost: 'No penalty for a late Form 990-N, and a late one still counts.',
        latest_tax_year_filed: 2025,
        latest_period_filed: '2025-06',
        missed_tax_years: [],
        unless_extended_tax_years: [],
        awaiting_data_tax_years: [2026],
        returns: [
          { period_end: '2026-06', due: '2026-11-16', extended_due: null, extension: 'none', status: 'awaiting_data' },
        ],
        next_due: { tax_year: 2027, due: '2027-11-15', days_left: 354 },
        revocation_date: '2028-11-15',
        revocation_date_if_extended: null,
        days_to_revocation: 720,
        revoked_on: null,
        reinstated_on: null,
        // No Publication 78 data is loaded: nothing is said about it.
        pub78: null,
        // The April 2026 release, whose day is not known: cited by its month.
        sources: { bmf: '2026-04', epostcard: null, revocations: null, pub78: null },
      },
      public_profile_image: '',
    });
  });

  it('keeps the leading zeros of an EIN', async () => {
    await createAccount(t.database.db, {
      name: 'Zero Lead Boosters',
      ein: '012345678',
      city: 'Casper',
      state: 'WY',
      isListed: true,
    });
    const id = await idOf('zero lead', 'Zero Lead Boosters');
    expect((await a.get(`/api/accounts/${id}/public`)).json()).toMatchObject({
      ein: '01-2345678',
      gen: '',
      ruling_year: '',
      subsection: '',
      city: 'Casper',
      state: 'WY',
    });
  });

  it('answers 404 for an unknown or non-numeric id', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '1e3', '99999999999', '%00']) {
      const res = await a.get(`/api/accounts/${id}/public`);
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().message).toBe('The organization could not be found.');
    }
  });
});

describe('importBmf with a full state file from ../shared (when present)', () => {
  it('imports every row of eo_wy.csv, updating the GEN 5271 rows already there', async () => {
    if (!fs.existsSync(WY_FILE)) {
      console.log(`${WY_FILE} is not on this machine; the full-file import check did not run.`);
      return;
    }
    const wyRecords = parse(fs.readFileSync(WY_FILE), { columns: true, bom: true, skip_empty_lines: true }) as Row[];
    const wy = readCsv(WY_FILE);
    const known = new Set(csv.map((r) => r.EIN.trim()));
    const newEins = wy.filter((r) => !known.has(r.EIN.trim())).length;
    const hidden = 1; // the unlisted account added above
    const listed = 1; // the leading-zero account added above

    const result = await importBmf(t.database.db, WY_FILE);
    expect(result.read).toBe(wyRecords.length);
    expect(result.skipped).toBe(wyRecords.length - wyRecords.filter((r) => /^\d{9}$/.test(r.EIN.trim())).length);
    expect(await accountCount()).toBe(806 + hidden + listed + newEins);
    expect((await searchFor('')).json().total).toBe(806 + listed + newEins);

    // A return from 2013, but recognized again in September 2025 (RULING 202509, June year end):
    // returns are owed from the year ending June 2026, due 16 November 2026.
    const peace = (await searchFor('wyoming peace officers association')).json();
    expect(peace.total).toBe(expectedMatches(wy, 'wyoming peace officers association').length);
    const row = peace.data.find((r: { name: string }) => r.name === 'WYOMING PEACE OFFICERS ASSOCIATION');
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-25T12:00:00Z') });
    const profile = (await a.get(`/api/accounts/${row.id}/public`).finally(() => vi.useRealTimers())).json();
    expect(profile).toMatchObject({
      ein: '74-2462506',
      city: 'ROCK SPRINGS',
      state: 'WY',
      ruling_year: '2025',
      ruling_is_group: false,
      subsection: '501(c)(3)',
      gen: '',
      deductible: 'Yes',
      // FILING_REQ_CD 01: the June 2026 Form 990 or 990-EZ was due 16 November 2026, and Form 8868
      // could extend it to 17 May 2027: missed only unless extended.
      standing: 'unless_extended',
      standing_label: 'Due date passed: missed unless extended',
      irs: {
        latest_tax_year_filed: 2013,
        missed_tax_years: [],
        unless_extended_tax_years: [2026],
        revocation_date: '2028-11-15',
        revocation_date_if_extended: '2029-05-15',
        filing_requirement: 'Form 990 or 990-EZ',
        return_owed: 'Form 990-EZ or 990 every year',
      },
    });

    // A subordinate of another group, shown under its own name, with a leading-zero EIN.
    const legion = (await searchFor('blackmore memorial')).json();
    const post = legion.data.find((r: { name: string }) => r.name === '0017 E A BLACKMORE MEMORIAL');
    // TAX_PERIOD 202506, June year end: good until the 2026 return's due date, 16 November 2026.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-10T12:00:00Z') });
    const legionProfile = (await a.get(`/api/accounts/${post.id}/public`).finally(() => vi.useRealTimers())).json();
    expect(legionProfile).toMatchObject({
      ein: '01-0631747',
      legal_name: 'AMERICAN LEGION',
      gen: '0925',
      ruling_year: '1946',
      subsection: '501(c)(19)',
      standing: 'good',
    });

    // Status 12, a §4947(a)(2) trust, FILING_REQ_CD 00 but PF_FILING_REQ_CD 1: it owes a Form 990-PF
    // every year (latest on file: December 2022). Not exempt under §501(a), so no revocation date.
    const trust = (await searchFor('russ beamer educational trust')).json();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T12:00:00Z') });
    const trustProfile = (
      await a.get(`/api/accounts/${trust.data[0].id}/public`).finally(() => vi.useRealTimers())
    ).json();
    expect(trustProfile).toMatchObject({
      ein: '83-0257010',
      standing: 'missed_two',
      irs: {
        status_code: '12',
        status_meaning: 'Trust described in section 4947(a)(2) of the Internal Revenue Code',
        return_owed: 'Form 990-PF every year',
        missed_tax_years: [2023, 2024, 2025],
        revocation_date: null,
      },
    });
    expect(trustProfile.irs.late_cost).toContain('IRC §6652(c)(1)(A)');
  });
});
