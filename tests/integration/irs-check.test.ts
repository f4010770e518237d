import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accounts } from '../../src/server/db/schema.ts';
import { findOrganizations, NAME_WALK } from '../../src/server/modules/irs-data/check-organization.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { irsCheckContracts } from '../../src/shared/contracts/irs-check.ts';
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
      const res = await visitor.call(irsCheckContracts.lookup, { query: { query: query } });
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
        next: null,
        previous: null,
        not_found: null,
      });
    }
  });

  it('the walk in name order and the pg_trgm index give the same pages, forward and back, for common and rare words, first and deep pages', async () => {
    // The 22,200 real Oklahoma rows; the reference is every matching row in name order, paged by hand.
    const reference = async (words: string[]) =>
      (
        (
          await t.database.db.execute(sql`SELECT ein FROM irs_organizations
          WHERE ${sql.join(
            words.map((w) => sql`search_text LIKE ${`%${w}%`}`),
            sql` AND `,
          )} ORDER BY name, ein`)
        ).rows as { ein: string }[]
      ).map((r) => r.ein);
    // Small probes and walks fall back to the pg_trgm index for all but the commonest words, and a
    // probe's density may be wrong for the page (a walk too short): every plan must answer as the
    // reference does.
    const walks = [NAME_WALK, { probe: 300, spare: 1, max: 5_000 }, { probe: 20, spare: 1, max: 400 }];
    const pageOf = (found: { data: { ein: string }[]; next: string | null; previous: string | null }) => ({
      eins: found.data.map((r) => r.ein),
      next: found.next,
      previous: found.previous,
    });
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
      const all = await reference(query.split(' '));
      const from = (page - 1) * 10;
      const eins = all.slice(from, from + 10);
      // The page after the last organization of the page before it, as the previous answer's `next` gives it.
      const after = page > 1 ? all[from - 1] : undefined;
      for (const walk of walks) {
        const found = await findOrganizations(t.database.db, query, { after }, walk);
        expect(pageOf(found), `${query} p${page} ${walk.probe}`).toEqual({
          eins,
          next: all.length > from + 10 ? eins.at(-1) : null,
          previous: page > 1 ? eins[0] : null,
        });
        if (page === 1) continue;
        // And back: the page before, ending before this page's first organization.
        const back = await findOrganizations(t.database.db, query, { before: eins[0] }, walk);
        expect(pageOf(back), `${query} p${page} back ${walk.probe}`).toEqual({
          eins: all.slice(from - 10, from),
          next: all[from - 1],
          previous: from - 10 > 0 ? all[from - 10] : null,
        });
      }
    }
  });

  it('finds by the words of a name in any order, 10 a page, with links to the next page and back', async () => {
    const first = (await visitor.call(irsCheckContracts.lookup, { query: { query: 'football broken arrow' } })).json();
    expect(first.data.map((r: { ein: string }) => r.ein)).toContain('841973353');
    const booster = (await visitor.call(irsCheckContracts.lookup, { query: { query: 'booster' } })).json();
    expect(booster.data).toHaveLength(10);
    expect(booster.previous).toBeNull();
    expect(booster.next).toBe(booster.data[9].ein);
    const second = (
      await visitor.call(irsCheckContracts.lookup, { query: { query: 'booster', after: booster.next } })
    ).json();
    expect(second.data).toHaveLength(10);
    expect(second.data[0].name >= booster.data[9].name).toBe(true);
    expect(second.data.map((r: { ein: string }) => r.ein)).not.toContain(booster.data[9].ein);
    expect(second.previous).toBe(second.data[0].ein);
    const back = (
      await visitor.call(irsCheckContracts.lookup, { query: { query: 'booster', before: second.previous } })
    ).json();
    expect(back).toEqual(booster);
  });

  it('gives the first page for a page link whose organization left the data, and 422 for a link that is not an EIN', async () => {
    const booster = (await visitor.call(irsCheckContracts.lookup, { query: { query: 'booster' } })).json();
    const gone = (
      await visitor.call(irsCheckContracts.lookup, { query: { query: 'booster', after: '12-3456789' } })
    ).json();
    expect(gone).toEqual(booster);
    const bad = await visitor.call(irsCheckContracts.lookup, { query: { query: 'booster', after: 'abc' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.after).toEqual(['A page link names an organization by its 9-digit EIN.']);
    const both = await visitor.call(irsCheckContracts.lookup, {
      query: { query: 'booster', after: booster.next, before: booster.next },
    });
    expect(both.statusCode).toBe(422);
    expect(both.json().errors.before).toEqual(['A page link goes either after or before an organization, not both.']);
  });

  it('finds a revoked organization that left the BMF on the Automatic Revocation List', async () => {
    const res = (await visitor.call(irsCheckContracts.lookup, { query: { query: '99-0000004' } })).json();
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
      const res = (await visitor.call(irsCheckContracts.lookup, { query: { query: query } })).json();
      expect(res.data).toEqual([]);
      expect(res.not_found).toContain('a new organization may not be in it yet');
      expect(res.not_found).toContain('Churches need not apply for recognition');
      expect(res.not_found).toContain('listed only under its central organization');
    }
  });

  it('answers 422 with the message when the query is too short', async () => {
    const res = await visitor.call(irsCheckContracts.lookup, { query: { query: 'a' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.query).toEqual(['Type an EIN or at least two letters of the name.']);
  });
});

describe('GET /api/irs/organizations/:ein (the instant answer)', () => {
  it('gives the standing, the return owed, what lateness costs and what to do next, citing the release by its month', async () => {
    at('2026-11-28');
    const res = await visitor.call(irsCheckContracts.check, { params: { ein: '84-1973353' } });
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
    const check = (await visitor.call(irsCheckContracts.check, { params: { ein: 990000004 } })).json();
    expect(check).toMatchObject({
      name: 'TEST REVOKED BOOSTERS INC',
      deductible: 'No: the exemption is revoked',
      standing: { state: 'revoked', irs: { revoked_on: '2026-05-15' } },
    });
    expect(check.next_steps.join(' ')).toContain('Rev. Proc. 2014-11');
  });

  it('answers 404 for an EIN in none of the IRS data, and for one that is not an EIN', async () => {
    for (const ein of ['123456789', 'abc', '12345']) {
      const res = await visitor.call(irsCheckContracts.check, { params: { ein: ein } });
      expect(res.statusCode, ein).toBe(404);
      expect(res.json().message).toBe('The organization could not be found.');
    }
  });
});
