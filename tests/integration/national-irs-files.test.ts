import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNationalIrsFiles, NATIONAL_FILES, SHARED_BMF } from '../../scripts/build-national-irs-files.ts';
import {
  bmfRegion,
  csvLine,
  einAt,
  epostcardPeriod,
  epostcardYearCount,
  epostcardYears,
  grossReceiptsCeiling,
  icoNamePairs,
  postingDate,
  proportionalCounts,
  pub78Codes,
  revocationDate,
  subjectToAutoRevocation,
  type BmfFacts,
} from '../../scripts/national-irs/rules.ts';
import {
  BMF_HEADER,
  checkIrsFile,
  irsFileRows,
  IRS_FIELDS,
  type IrsDataset,
} from '../../src/server/modules/irs-data/irs-files.ts';
import { loadIrsRelease } from '../../src/server/modules/irs-data/load-release.ts';
import { pub78Listing } from '../../src/shared/rules/deductibility.ts';
import { npmRun } from '../helpers/commands.ts';
import { createTestApp } from '../helpers/test-app.ts';

/**
 * The national-size IRS test files (docs/irs-data.md "National-size test files",
 * scripts/build-national-irs-files.ts), made small from the 326,224 real rows of
 * ../shared/data/irs-eo-bmf: 8,000 BMF rows, 5,000 rows of the revocation list and of the
 * Publication 78 data, at least 5,000 of the 990-N data. Each file passes the product's own checker
 * and loads as a release; the generated rows keep the real distributions and carry no real EIN and
 * no in-care-of name.
 */

const BMF_ROWS = 8_000;
const ROWS = 5_000;
const SEED = 7;
const AS_OF = '2026-04-30';
const F = Object.fromEntries(IRS_FIELDS.bmf.map((name, i) => [name, i]));

let dir: string;
let cliOutput: string;
/** The real rows: EINs, their lines after the EIN as the IRS wrote them, FILING_REQ_CD counts, in-care-of names. */
const real = {
  eins: new Set<string>(),
  rests: new Set<string>(),
  filing: new Map<string, number>(),
  icos: [] as string[],
};
/** The generated files, read with the product's reader: rows of fields, by data set (the BMF's four files together). */
const made: Record<IrsDataset, string[][]> = { bmf: [], epostcard: [], revocations: [], pub78: [] };
const bmfByEin = new Map<string, string[]>();

const fileOf = (name: string) => path.join(dir, name);
/** A BMF row's fields by name (every field: the rules read some of them). */
const facts = (f: string[]) => Object.fromEntries(IRS_FIELDS.bmf.map((name, i) => [name, f[i]])) as unknown as BmfFacts;
/** 'MM-DD-YYYY' or 'DD-MON-YYYY' to 'YYYY-MM-DD'. */
const isoOfUs = (d: string) => `${d.slice(6)}-${d.slice(0, 2)}-${d.slice(3, 5)}`;
const MON = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const isoOfMon = (d: string) =>
  `${d.slice(7)}-${String(MON.indexOf(d.slice(3, 6)) + 1).padStart(2, '0')}-${d.slice(0, 2)}`;

async function readRows(file: string, dataset: IrsDataset): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const [f] of irsFileRows(file, dataset)) rows.push(f);
  return rows;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-national-irs-'));
  const run = await npmRun(
    'irs:national-files',
    ['--out', dir, '--bmf-rows', String(BMF_ROWS), '--rows', String(ROWS), '--seed', String(SEED)],
    process.env,
    { timeoutMs: 170_000 },
  );
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.code).toBe(0);
  cliOutput = run.stdout;
  for (const file of fs.readdirSync(SHARED_BMF).filter((f) => f.endsWith('.csv'))) {
    // Each line of the extracts is one row (no line breaks inside fields): its bytes after the EIN.
    for (const line of fs.readFileSync(path.join(SHARED_BMF, file), 'latin1').split('\r\n').slice(1)) {
      if (line) real.rests.add(line.slice(9));
    }
    for await (const [f] of irsFileRows(path.join(SHARED_BMF, file), 'bmf')) {
      real.eins.add(f[F.EIN]);
      real.filing.set(f[F.FILING_REQ_CD], (real.filing.get(f[F.FILING_REQ_CD]) ?? 0) + 1);
      if (f[F.ICO].trim()) real.icos.push(f[F.ICO]);
    }
  }
  for (const file of NATIONAL_FILES.bmf) made.bmf.push(...(await readRows(fileOf(file), 'bmf')));
  for (const f of made.bmf) bmfByEin.set(f[F.EIN], f);
  made.epostcard = await readRows(fileOf(NATIONAL_FILES.epostcard), 'epostcard');
  made.revocations = await readRows(fileOf(NATIONAL_FILES.revocations), 'revocations');
  made.pub78 = await readRows(fileOf(NATIONAL_FILES.pub78), 'pub78');
}, 240_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the rules', () => {
  it('lists each organization in the region file of its state', () => {
    expect([bmfRegion('NY'), bmfRegion('OH'), bmfRegion('TX'), bmfRegion('PR'), bmfRegion('')]).toEqual([
      1, 2, 3, 4, 4,
    ]);
  });

  it('gives 9-digit EINs under prefixes the IRS does not assign, leading zeros kept', () => {
    expect(einAt(['08', '17'], 0)).toBe('080000000');
    expect(einAt(['08', '17'], 10_000_005)).toBe('170000005');
    expect(() => einAt(['08'], 10_000_000)).toThrow(RangeError);
  });

  it('splits rows over files in proportion, exactly', () => {
    expect(proportionalCounts(10, [1, 1, 1, 0])).toEqual([4, 3, 3, 0]);
  });

  it('writes a BMF line with the IRS quoting: only a field with a comma or a quote is quoted', () => {
    expect(csvLine(['A', 'VANCOUVER,BC', 'SAY "HI"', ''])).toBe('A,"VANCOUVER,BC","SAY ""HI""",');
  });

  it('dates a 990-N period by its ACCT_PD, its "Tax Year" the year it begins', () => {
    expect(epostcardPeriod(6, 2026)).toEqual({ taxYear: 2025, begin: '2025-07-01', end: '2026-06-30' });
    expect(epostcardPeriod(12, 2024)).toEqual({ taxYear: 2024, begin: '2024-01-01', end: '2024-12-31' });
    expect(epostcardPeriod(2, 2024)).toEqual({ taxYear: 2023, begin: '2023-03-01', end: '2024-02-29' });
    expect([grossReceiptsCeiling('2009-07-01'), grossReceiptsCeiling('2010-01-01')]).toEqual(['25000', '50000']);
  });

  it('gives a 990-N filer the years up to its TAX_PERIOD, none before 2007 or its own ruling', () => {
    const filer = { ...facts(new Array(28).fill('')), FILING_REQ_CD: '02', ACCT_PD: '12', TAX_PERIOD: '202512' };
    expect(epostcardYears({ ...filer, RULING: '201506', AFFILIATION: '3' }, AS_OF)).toEqual({
      lastEndYear: 2025,
      count: 11,
    });
    // A subordinate's RULING is its group's: not a bound.
    expect(epostcardYears({ ...filer, RULING: '201506', AFFILIATION: '9' }, AS_OF)).toEqual({
      lastEndYear: 2025,
      count: 19,
    });
    // A June year whose latest return ended June 2025; the first 990-N June year began July 2007.
    expect(epostcardYears({ ...filer, ACCT_PD: '06', TAX_PERIOD: '202506' }, AS_OF)).toEqual({
      lastEndYear: 2025,
      count: 18,
    });
    // A December year's return cannot be for a year ending after TAX_PERIOD 202603.
    expect(epostcardYears({ ...filer, TAX_PERIOD: '202603' }, AS_OF).lastEndYear).toBe(2025);
    expect(epostcardYears({ ...filer, FILING_REQ_CD: '01' }, AS_OF).count).toBe(0);
    expect(epostcardYears({ ...filer, TAX_PERIOD: '' }, AS_OF).count).toBe(0);
  });

  it("raises a filer's years only when the file falls behind its minimum, within the years available", () => {
    const base = { wanted: 2, written: 0, index: 0, filers: 10, minimumRows: 40, available: 19 };
    expect(epostcardYearCount(base)).toBe(4);
    expect(epostcardYearCount({ ...base, written: 10 })).toBe(2);
    expect(epostcardYearCount({ ...base, available: 3 })).toBe(3);
  });

  it('revokes only an organization that owes a return of its own and has an exemption to lose', () => {
    const org = { ...facts(new Array(28).fill('')), ACCT_PD: '12', STATUS: '01', PF_FILING_REQ_CD: '0' };
    const revocable = (over: Partial<BmfFacts>) => subjectToAutoRevocation({ ...org, ...over });
    expect([revocable({ FILING_REQ_CD: '01' }), revocable({ FILING_REQ_CD: '02' })]).toEqual([true, true]);
    expect(revocable({ FILING_REQ_CD: '00', PF_FILING_REQ_CD: '1' })).toBe(true);
    // A church, a group-return member, a trust described in §4947(a)(2), an ACCT_PD that is no month.
    expect(revocable({ FILING_REQ_CD: '06' })).toBe(false);
    expect(revocable({ FILING_REQ_CD: '03' })).toBe(false);
    expect(revocable({ FILING_REQ_CD: '01', STATUS: '12' })).toBe(false);
    expect(revocable({ FILING_REQ_CD: '01', ACCT_PD: '00' })).toBe(false);
  });

  it('dates a revocation on the 15th day of the 5th month after the third missed year, posted later', () => {
    expect(revocationDate(12, 2009)).toBe('2010-05-15');
    expect(revocationDate(6, 2009)).toBe('2010-11-15');
    expect(revocationDate(1, 2020)).toBe('2021-06-15');
    expect(postingDate('2010-05-15', 120, AS_OF)).toBe('2011-06-08');
    expect(postingDate('2020-05-15', 100, AS_OF)).toBe('2020-08-24');
    expect(postingDate('2026-03-15', 100, AS_OF)).toBe(AS_OF);
  });

  it('codes Publication 78 entries from the BMF codes', () => {
    const c3 = {
      ...facts(new Array(28).fill('')),
      DEDUCTIBILITY: '1',
      SUBSECTION: '03',
      AFFILIATION: '3',
      STATE: 'OK',
      GROUP: '0000',
    };
    expect(pub78Codes({ ...c3, FOUNDATION: '15' })).toEqual(['PC']);
    expect(pub78Codes({ ...c3, FOUNDATION: '04' })).toEqual(['PF']);
    expect(pub78Codes({ ...c3, FOUNDATION: '03' })).toEqual(['POF']);
    expect(pub78Codes({ ...c3, FOUNDATION: '16', AFFILIATION: '6', GROUP: '5271' })).toEqual(['PC', 'GROUP']);
    expect(pub78Codes({ ...c3, SUBSECTION: '10' })).toEqual(['EO', 'LODGE']);
    expect(pub78Codes({ ...c3, SUBSECTION: '19' })).toEqual(['EO']);
    expect(pub78Codes({ ...c3, DEDUCTIBILITY: '2' })).toEqual([]);
  });

  it('finds the first-and-last-name pairs of an in-care-of name', () => {
    expect(icoNamePairs('% JOHN A SMITH TREAS')).toEqual(['JOHN SMITH']);
    expect(icoNamePairs('% MARY JONES OR DAVID LEE')).toEqual(['MARY JONES', 'DAVID LEE']);
    expect(icoNamePairs('% TREASURER')).toEqual([]);
  });
});

describe('npm run irs:national-files at 8,000 and 5,000 rows', () => {
  it("writes each file in the IRS layout, passing the product's checker, with the rows asked for", async () => {
    const checked = {
      bmf: await Promise.all(NATIONAL_FILES.bmf.map((f) => checkIrsFile(fileOf(f), 'bmf'))),
      epostcard: await checkIrsFile(fileOf(NATIONAL_FILES.epostcard), 'epostcard'),
      revocations: await checkIrsFile(fileOf(NATIONAL_FILES.revocations), 'revocations'),
      pub78: await checkIrsFile(fileOf(NATIONAL_FILES.pub78), 'pub78'),
    };
    expect(checked.bmf.reduce((n, c) => n + c.rows, 0)).toBe(BMF_ROWS);
    expect(checked.epostcard.rows).toBeGreaterThanOrEqual(ROWS);
    expect(checked.revocations.rows).toBe(ROWS);
    expect(checked.pub78.rows).toBe(ROWS);
    for (const file of [
      ...NATIONAL_FILES.bmf,
      NATIONAL_FILES.epostcard,
      NATIONAL_FILES.revocations,
      NATIONAL_FILES.pub78,
    ]) {
      const text = fs.readFileSync(fileOf(file), 'latin1');
      expect(text.split('\r\n').length - 1, `${file}: every line ends with CRLF`).toBe(text.split('\n').length - 1);
    }
    expect(fs.readFileSync(fileOf(NATIONAL_FILES.bmf[0]), 'latin1').startsWith(`${BMF_HEADER}\r\n`)).toBe(true);
    // The summary: rows, size, time and peak memory of each file.
    expect(cliOutput).toMatch(/bmf\/eo1\.csv +[\d,]+ +[\d.]+ +[\d.]+ +[\d,]+/);
    expect(cliOutput).toMatch(/^total .*$/m);
  });

  it("resamples the real rows: each BMF line is a real one, byte for byte, with a new EIN, in its region's file, and the FILING_REQ_CD mix is the real one", async () => {
    const notReal: string[] = [];
    for (const file of NATIONAL_FILES.bmf) {
      for (const line of fs.readFileSync(fileOf(file), 'latin1').split('\r\n').slice(1)) {
        if (line && !real.rests.has(line.slice(9))) notReal.push(line);
      }
    }
    expect(notReal).toEqual([]);
    for (const [i, file] of NATIONAL_FILES.bmf.entries()) {
      const regions = new Set((await readRows(fileOf(file), 'bmf')).map((f) => bmfRegion(f[F.STATE])));
      expect([...regions]).toEqual([i + 1]);
    }
    const madeFiling = new Map<string, number>();
    for (const f of made.bmf) madeFiling.set(f[F.FILING_REQ_CD], (madeFiling.get(f[F.FILING_REQ_CD]) ?? 0) + 1);
    const realTotal = [...real.filing.values()].reduce((a, b) => a + b, 0);
    for (const [code, n] of real.filing) {
      const realShare = (100 * n) / realTotal;
      const madeShare = (100 * (madeFiling.get(code) ?? 0)) / made.bmf.length;
      expect(
        Math.abs(madeShare - realShare),
        `FILING_REQ_CD ${code}: ${madeShare} % against ${realShare} %`,
      ).toBeLessThan(2);
    }
  });

  it("uses no real EIN: BMF EINs are new and unique, the derived files' EINs are the BMF's or new ones", () => {
    const bmfEins = made.bmf.map((f) => f[F.EIN]);
    expect(new Set(bmfEins).size).toBe(BMF_ROWS);
    const all = [
      ...bmfEins,
      ...made.epostcard.map((f) => f[0]),
      ...made.revocations.map((f) => f[0]),
      ...made.pub78.map((f) => f[0]),
    ];
    expect(all.filter((ein) => !/^\d{9}$/.test(ein))).toEqual([]);
    expect(all.filter((ein) => real.eins.has(ein))).toEqual([]);
    expect(made.epostcard.filter((f) => !bmfByEin.has(f[0]))).toEqual([]);
    expect(made.pub78.filter((f) => !bmfByEin.has(f[0]))).toEqual([]);
    expect(new Set(made.pub78.map((f) => f[0])).size).toBe(ROWS);
    expect(new Set(made.revocations.map((f) => f[0])).size).toBe(ROWS);
    // Revoked organizations left the BMF; those in it were reinstated.
    const inBmf = made.revocations.filter((f) => bmfByEin.has(f[0]));
    expect(inBmf.length).toBeGreaterThan(0);
    expect(inBmf.length).toBeLessThan(ROWS / 10);
    expect(inBmf.filter((f) => !f[11])).toEqual([]);
    expect(made.revocations.filter((f) => !bmfByEin.has(f[0]) && f[11])).toEqual([]);
  });

  it('990-N data: every FILING_REQ_CD 02 filer, several consecutive years by its ACCT_PD up to its TAX_PERIOD, a few terminated', () => {
    const byEin = new Map<string, string[][]>();
    for (const f of made.epostcard) byEin.set(f[0], [...(byEin.get(f[0]) ?? []), f]);
    const filers = made.bmf.filter((f) => epostcardYears(facts(f), AS_OF).count > 0);
    expect([...byEin.keys()].sort()).toEqual(filers.map((f) => f[F.EIN]).sort());
    for (const [ein, rows] of byEin) {
      const bmf = bmfByEin.get(ein)!;
      expect(bmf[F.FILING_REQ_CD]).toBe('02');
      const month = Number(bmf[F.ACCT_PD]);
      const years = epostcardYears(facts(bmf), AS_OF);
      expect(rows.length).toBeLessThanOrEqual(years.count);
      rows.forEach((f, i) => {
        const p = epostcardPeriod(month, years.lastEndYear - (rows.length - 1 - i));
        expect([f[1], isoOfUs(f[5]), isoOfUs(f[6]), f[3]]).toEqual([
          String(p.taxYear),
          p.begin,
          p.end,
          grossReceiptsCeiling(p.begin),
        ]);
        expect(f[4]).toBe(f[4] === 'T' && i === rows.length - 1 ? 'T' : 'F');
      });
      expect(`${years.lastEndYear}${String(month).padStart(2, '0')}` <= bmf[F.TAX_PERIOD]).toBe(true);
    }
    expect(made.epostcard.length / byEin.size).toBeGreaterThan(2.5);
    const terminated = made.epostcard.filter((f) => f[4] === 'T').length / byEin.size;
    expect(terminated).toBeGreaterThan(0.005);
    expect(terminated).toBeLessThan(0.05);
  });

  it('990-N data: principal officers are synthetic, never an in-care-of name of the BMF', () => {
    const officers = new Set(made.epostcard.map((f) => f[8]));
    // Each officer's first name and surname, without a middle initial.
    const officerPairs = new Set([...officers].map((n) => n.replace(/ [A-Z] /, ' ')));
    const found: string[] = [];
    for (const ico of real.icos) {
      const words = ico
        .toUpperCase()
        .split(/[^A-Z']+/)
        .filter(Boolean);
      if (officers.has(words.join(' '))) found.push(ico);
      for (let i = 0; i + 1 < words.length; i++) {
        const pair = `${words[i]} ${words[i + 1].length === 1 && words[i + 2] ? words[i + 2] : words[i + 1]}`;
        if (officerPairs.has(pair) || officers.has(words.slice(i, i + 3).join(' '))) found.push(ico);
      }
    }
    expect(found).toEqual([]);
    // Nor is an organization's own in-care-of name anywhere in its principal officer's fields.
    for (const f of made.epostcard) {
      const ico = bmfByEin.get(f[0])![F.ICO].replace(/^%\s*/, '').trim();
      if (ico.includes(' ')) expect(f.slice(8, 16).join('|')).not.toContain(ico);
    }
  });

  it('revocation list: revoked on the 15th of the 5th month after a year ending in the ACCT_PD, posted after, reinstated after that', () => {
    for (const f of made.revocations) {
      const [revoked, posted] = [isoOfMon(f[9]), isoOfMon(f[10])];
      expect(revoked.slice(8)).toBe('15');
      expect(revoked >= '2010-05-15').toBe(true);
      expect(posted > revoked && posted <= AS_OF && posted >= '2011-06-08').toBe(true);
      if (f[11]) expect(isoOfMon(f[11]) > posted && isoOfMon(f[11]) <= AS_OF).toBe(true);
      const bmf = bmfByEin.get(f[0]);
      if (bmf) {
        const month = Number(bmf[F.ACCT_PD]);
        expect(((month + 5 - 1) % 12) + 1).toBe(Number(revoked.slice(5, 7)));
      }
    }
    const firstWave = made.revocations.filter((f) => f[9] === '15-MAY-2010').length / ROWS;
    expect(firstWave).toBeGreaterThan(0.1);
  });

  it('Publication 78 data: deductible organizations of the BMF, with the codes the product knows, in the real mix', () => {
    const mix = new Map<string, number>();
    for (const f of made.pub78) {
      const bmf = bmfByEin.get(f[0])!;
      expect(['1', '4']).toContain(bmf[F.DEDUCTIBILITY]);
      expect(f[5]).toBe(pub78Codes(facts(bmf)).join(','));
      for (const { code, meaning } of pub78Listing(f[5].split(','), null).codes)
        expect(meaning, code).not.toMatch(/^Code /);
      mix.set(f[5], (mix.get(f[5]) ?? 0) + 1);
    }
    expect((mix.get('PC') ?? 0) / ROWS).toBeGreaterThan(0.7);
    for (const code of ['PF', 'POF', 'EO,LODGE', 'PC,GROUP']) expect(mix.get(code), code).toBeGreaterThan(0);
  });

  it('gives the same bytes for the same seed', async () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-national-irs-again-'));
    try {
      const report = await buildNationalIrsFiles({
        out: again,
        bmfRows: BMF_ROWS,
        rows: ROWS,
        seed: SEED,
        log: () => {},
      });
      expect(report.files.map((f) => f.file)).toEqual([
        ...NATIONAL_FILES.bmf,
        NATIONAL_FILES.epostcard,
        NATIONAL_FILES.revocations,
        NATIONAL_FILES.pub78,
      ]);
      for (const f of report.files)
        expect(fs.readFileSync(path.join(again, f.file)).equals(fs.readFileSync(fileOf(f.file))), f.file).toBe(true);
    } finally {
      fs.rmSync(again, { recursive: true, force: true });
    }
  }, 120_000);

  it("loads into the product's database as IRS releases, every row", async () => {
    const t = await createTestApp({ seed: false });
    try {
      for (const file of NATIONAL_FILES.bmf) {
        const result = await loadIrsRelease(t.database.db, {
          dataset: 'bmf',
          file: fileOf(file),
          releasedOn: '2026-04',
        });
        expect(result).toMatchObject({ status: 'loaded', skipped: 0 });
        expect(result.loaded).toBe(result.rows);
      }
      for (const [dataset, releasedOn] of [
        ['epostcard', '2026-04-27'],
        ['revocations', '2026-04-28'],
        ['pub78', '2026-04-29'],
      ] as const) {
        const result = await loadIrsRelease(t.database.db, {
          dataset,
          file: fileOf(NATIONAL_FILES[dataset]),
          releasedOn,
        });
        expect(result).toMatchObject({
          status: 'loaded',
          rows: made[dataset].length,
          loaded: made[dataset].length,
          skipped: 0,
        });
      }
    } finally {
      await t.close();
    }
  }, 180_000);
});
