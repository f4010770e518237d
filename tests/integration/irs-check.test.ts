import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accounts } from '../../src/server/db/schema.ts';
import { findOrganizations, NAME_WALK } from '../../src/server/modules/irs-data/check-organization.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The instant revocation-risk check (docs/irs-standing.md "Instant check"): a visitor types an EIN
 * or a name and reads, at once, any organization's standing from the IRS data loaded, each fact
 * citing its data set and release, with no personal name. Real rows: eo_ok.csv (April 2026, its
 * day not known).
 */

const EO_OK = path.resolve('../shared/data/irs-eo-bmf/eo_ok.csv');
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'irs');

let t: TestApp;
let visitor: Agent;

beforeAll(async () => {
  t = await createTestApp();
  visitor = await new Agent(t.app).start();
  const accountsBefore = (await t.database.db.select({ n: count() }).from(accounts))[0].n;
  expect(await loadIrsRelease(t.database.db, { dataset: 'bmf', file: EO_OK, releasedOn: '2026-04' })).toMatchObject({
    status: 'loaded',
  });
  // The Automatic Revocation List: 99-0000004 is revoked and no longer in the BMF.
  await loadIrsRelease(t.database.db, {
    dataset: 'revocations',
    file: path.join(FIXTURES, 'revocations-2026-10.txt'),
    releasedOn: '2026-10-14',
  });
  // Checking organizations needs no account: the BMF load created none for them.
  expect((await t.database.db.select({ n: count() }).from(accounts))[0].n).toBe(accountsBefore);
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const at = (iso: string) => vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${iso}T12:00:00Z`) });

describe('GET /api/irs/organizations (find by EIN or name)', () => {
  it('finds an organization by its EIN, with or without the dash, under its own name', async () => {
    for (const query of ['84-1973353', '841973353']) {
      const res = await visitor.get(`/api/irs/organizations?query=${query}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: [
          {
            ein: '841973353',
            ein_formatted: '84-1973353',
            name: 'BROKEN ARROW VARSITY FOOTBALL BSTR',
            other_name: 'PARENT BOOSTER USA INC',
            city: 'BROKEN ARROW',
            state: 'OK',
            revoked_only: false,
          },
        ],
        page: 1,
        has_more: false,
        not_found: null,
      });
    }
  });

  it('the walk in name order and the pg_trgm index give the same pages, for common and rare words, first and deep pages', async () => {
    // The 22,200 real Oklahoma rows; the reference is every matching row in name order, paged by hand.
    const reference = async (words: string[], page: number) => {
      const rows = (
        await t.database.db.execute(sql`SELECT ein FROM irs_organizations
          WHERE ${sql.join(
            words.map((w) => sql`search_text LIKE ${`%${w}%`}`),
            sql` AND `,
          )} ORDER BY name, ein`)
      ).rows as { ein: string }[];
      const from = (page - 1) * 10;
      return { eins: rows.slice(from, from + 10).map((r) => r.ein), has_more: rows.length > from + 10 };
    };
    // Small probes and walks fall back to the pg_trgm index for all but the commonest words, and a
    // probe's density may be wrong for the page (a walk too short): every plan must answer as the
    // reference does.
    const walks = [NAME_WALK, { probe: 300, spare: 1, max: 5_000 }, { probe: 20, spare: 1, max: 400 }];
    for (const [query, page] of [
      ['church', 1],
      ['church', 7],
      ['booster', 1],
      ['booster', 3],
      ['foundation', 40],
      ['tulsa', 2],
      ['baptist church', 1],
      ['zzqx', 1],
      ['a', 300],
    ] as [string, number][]) {
      const expected = await reference(query.split(' '), page);
      for (const walk of walks) {
        const found = await findOrganizations(t.database.db, query, page, walk);
        expect(
          { eins: found.data.map((r) => r.ein), has_more: found.has_more },
          `${query} p${page} ${walk.probe}`,
        ).toEqual(expected);
      }
    }
  });

  it('finds by the words of a name in any order, 10 a page, and says whether more follow', async () => {
    const first = (await visitor.get('/api/irs/organizations?query=football+broken+arrow')).json();
    expect(first.data.map((r: { ein: string }) => r.ein)).toContain('841973353');
    const booster = (await visitor.get('/api/irs/organizations?query=booster')).json();
    expect(booster.data).toHaveLength(10);
    expect(booster.has_more).toBe(true);
    const second = (await visitor.get('/api/irs/organizations?query=booster&page=2')).json();
    expect(second.page).toBe(2);
    expect(second.data[0].ein).not.toBe(booster.data[0].ein);
  });

  it('finds a revoked organization that left the BMF on the Automatic Revocation List', async () => {
    const res = (await visitor.get('/api/irs/organizations?query=99-0000004')).json();
    expect(res.data).toEqual([
      {
        ein: '990000004',
        ein_formatted: '99-0000004',
        name: 'TEST REVOKED BOOSTERS INC',
        other_name: '',
        city: '',
        state: '',
        revoked_only: true,
      },
    ]);
  });

  it('says why an organization may not be found', async () => {
    for (const query of ['12-3456789', 'zzqq nothing like it']) {
      const res = (await visitor.get(`/api/irs/organizations?query=${encodeURIComponent(query)}`)).json();
      expect(res.data).toEqual([]);
      expect(res.not_found).toContain('a new organization may not be in it yet');
      expect(res.not_found).toContain('Churches need not apply for recognition');
      expect(res.not_found).toContain('listed only under its central organization');
    }
  });

  it('answers 422 with the message when the query is too short', async () => {
    const res = await visitor.get('/api/irs/organizations?query=a');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.query).toEqual(['Type an EIN or at least two letters of the name.']);
  });
});

describe('GET /api/irs/organizations/:ein (the instant answer)', () => {
  it('gives the standing, the return owed, what lateness costs and what to do next, citing the release by its month', async () => {
    at('2026-11-28');
    const res = await visitor.get('/api/irs/organizations/84-1973353');
    expect(res.statusCode).toBe(200);
    const check = res.json();
    expect(check).toMatchObject({
      ein: '841973353',
      name: 'BROKEN ARROW VARSITY FOOTBALL BSTR',
      other_name: 'PARENT BOOSTER USA INC',
      gen: '5271',
      ruling_year: '2005',
      ruling_is_group: true,
      deductible: 'Yes',
      standing: {
        state: 'unless_extended',
        label: 'Due date passed: missed unless extended',
        irs: { return_owed: 'Form 990-EZ or 990 every year', latest_period_filed: '2024-12' },
      },
      sources: [
        { dataset: 'EO Business Master File extract', released_on: '2026-04' },
        { dataset: 'Automatic Revocation List', released_on: '2026-10-14' },
      ],
    });
    expect(check.next_steps[0]).toContain('If Form 8868 was filed by the due date for the period ending June 2025');
    expect(check.next_steps[1]).toContain('IRC §6652(c)(1)(A)');
    // The BMF's in-care-of name for this row is "% LISA RUTLEDGE": never kept, never shown.
    expect(JSON.stringify(check)).not.toContain('RUTLEDGE');
  });

  it('a revoked organization is told it is revoked, not deductible, and how to get its exemption back', async () => {
    at('2026-11-28');
    const check = (await visitor.get('/api/irs/organizations/990000004')).json();
    expect(check).toMatchObject({
      name: 'TEST REVOKED BOOSTERS INC',
      deductible: 'No: the exemption is revoked',
      standing: { state: 'revoked', irs: { revoked_on: '2026-05-15' } },
    });
    expect(check.next_steps.join(' ')).toContain('Rev. Proc. 2014-11');
  });

  it('answers 404 for an EIN in none of the IRS data, and for one that is not an EIN', async () => {
    for (const ein of ['123456789', 'abc', '12345']) {
      const res = await visitor.get(`/api/irs/organizations/${ein}`);
      expect(res.statusCode, ein).toBe(404);
      expect(res.json().message).toBe('The organization could not be found.');
    }
  });
});
