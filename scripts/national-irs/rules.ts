/**
 * The rules the national-size IRS test files are made by (scripts/build-national-irs-files.ts,
 * docs/irs-data.md "National-size test files"). Each is a pure function of its inputs (the random
 * draws come in as numbers or as a seeded generator), so a seed gives the same files every time.
 */
import {
  addDays,
  daysBetween,
  daysInMonth,
  form990StatutoryDueDate,
  nextBusinessDay,
} from '../../src/shared/rules/compliance-calendar.ts';
import { returnOwed } from '../../src/shared/rules/standing.ts';
import type { BmfRecord } from '../../src/server/modules/subordinates/import-bmf.ts';

/** The BMF fields the rules read, as the extract writes them (e.g. ACCT_PD '06', TAX_PERIOD '202506'). */
export type BmfFacts = Pick<
  BmfRecord,
  | 'STATE'
  | 'GROUP'
  | 'SUBSECTION'
  | 'AFFILIATION'
  | 'RULING'
  | 'DEDUCTIBILITY'
  | 'FOUNDATION'
  | 'STATUS'
  | 'TAX_PERIOD'
  | 'FILING_REQ_CD'
  | 'PF_FILING_REQ_CD'
  | 'ACCT_PD'
>;

// ---------------------------------------------------------------------------------------------
// Random draws
// ---------------------------------------------------------------------------------------------

/**
 * A seeded pseudo-random generator (mulberry32, seeded with the FNV-1a hash of `seed:stream`):
 * numbers in [0, 1), the same sequence for the same seed and stream name, independent streams for
 * different names. Deterministic output for a seed is a requirement of the files.
 */
export function rngFor(seed: number, stream: string): () => number {
  let h = 0x811c9dc5;
  for (const ch of `${seed}:${stream}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A whole number from `min` to `max`, both included, from one draw `u` in [0, 1). */
export const drawInt = (u: number, min: number, max: number): number => min + Math.floor(u * (max - min + 1));

/** Puts `items` in a random order, in place (Fisher–Yates), with the draws of `rng`. */
export function shuffle(items: Uint32Array, rng: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}

/**
 * Selection sampling (Knuth's algorithm S): whether to take the current item when `needed` more are
 * wanted from the `remaining` items left (this one included). Taking exactly `needed` of them, each
 * with the same chance, in one streaming pass: the row counts of the files are exact.
 */
export const takesItem = (u: number, needed: number, remaining: number): boolean => u * remaining < needed;

// ---------------------------------------------------------------------------------------------
// EINs and regions
// ---------------------------------------------------------------------------------------------

/**
 * EIN prefixes the IRS does not assign (IRS, "How EINs are assigned and valid EIN prefixes"), none of
 * which any of the 326,224 real rows uses: a new EIN is never a real organization's. The generated
 * BMF's organizations take theirs from the first list (08 and 09 keep a leading zero), the revoked
 * organizations that left the BMF from the second; 07 stays with `npm run seed:scale`.
 */
export const BMF_EIN_PREFIXES = ['08', '09', '17', '18', '19'] as const;
export const REVOKED_EIN_PREFIXES = ['28', '29', '49', '79', '89'] as const;
/** EINs under one 2-digit prefix. */
export const EINS_PER_PREFIX = 10_000_000;

/**
 * The EIN at `offset` (0-based) of the numbers under `prefixes`, in order: 9 digits, leading zeros
 * kept (docs/irs-data.md: the EIN is 9 digits).
 * @throws RangeError past the last prefix
 */
export function einAt(prefixes: readonly string[], offset: number): string {
  const prefix = prefixes[Math.floor(offset / EINS_PER_PREFIX)];
  if (prefix === undefined || offset < 0) throw new RangeError(`No EIN at offset ${offset} of ${prefixes.join(',')}`);
  return prefix + String(offset % EINS_PER_PREFIX).padStart(7, '0');
}

/**
 * The largest step between consecutive new EINs (1–9) so that `count` of them, each 1 to that many
 * after the one before, fit in `size` numbers. Steps make the EINs ascending (the IRS files are in
 * EIN order) and unique, without being consecutive.
 * @throws RangeError when `count` is more than `size`
 */
export function einStep(count: number, size: number): number {
  if (count > size) throw new RangeError(`${count} EINs do not fit in ${size} numbers`);
  return Math.max(1, Math.min(9, Math.floor(size / Math.max(count, 1))));
}

const REGION_STATES: readonly (readonly string[])[] = [
  ['CT', 'MA', 'ME', 'NH', 'NJ', 'NY', 'RI', 'VT'],
  ['DC', 'DE', 'IA', 'IL', 'IN', 'KY', 'MD', 'MI', 'MN', 'NC', 'ND', 'NE', 'OH', 'PA', 'SC', 'SD', 'VA', 'WI', 'WV'],
  [
    'AK',
    'AL',
    'AR',
    'AZ',
    'CA',
    'CO',
    'FL',
    'GA',
    'HI',
    'ID',
    'KS',
    'LA',
    'MO',
    'MS',
    'MT',
    'NM',
    'NV',
    'OK',
    'OR',
    'TN',
    'TX',
    'UT',
    'WA',
    'WY',
  ],
];

/**
 * The EO BMF extract file an organization is listed in, by its STATE (IRS, "EO BMF Extract":
 * eo1 Northeast, eo2 Mid-Atlantic and Great Lakes, eo3 Gulf Coast and Pacific Coast, eo4 all
 * other areas: Puerto Rico, the other territories, military post offices, abroad).
 * @returns 1–4, the number in eoN.csv
 */
export function bmfRegion(state: string): 1 | 2 | 3 | 4 {
  const i = REGION_STATES.findIndex((states) => states.includes(state));
  return i < 0 ? 4 : ((i + 1) as 1 | 2 | 3);
}

/**
 * Splits `total` rows over groups in proportion to their `weights` (largest remainders), so the
 * parts add up to exactly `total`; a group of weight 0 gets none.
 */
export function proportionalCounts(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (sum ? (total * w) / sum : 0));
  const counts = exact.map(Math.floor);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0, left = total - counts.reduce((a, b) => a + b, 0); left > 0; k++, left--) counts[order[k][1]]++;
  return counts;
}

/**
 * One row of the BMF extract as the IRS writes it: fields joined by commas, RFC 4180 quoting only
 * where a field holds a comma, a quote or a line break (as "VANCOUVER,BC,V6A 4G2" in eo4.csv).
 */
export function csvLine(fields: readonly string[]): string {
  return fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(',');
}

/**
 * One row of a pipe-delimited IRS file (docs/irs-data.md "Data sets": no quoting), with any `|` or
 * line break inside a field turned into a space so the row keeps its field count.
 */
export function pipeLine(fields: readonly string[]): string {
  return fields.map((f) => f.replace(/[|\r\n]/g, ' ')).join('|');
}

/** "NEW ENGLAND SECTION OF THE NINETY-NINES INC" → "New England Section Of The Ninety-Nines Inc", as Publication 78 writes names. */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[\s\-/&(.])([a-z])/g, (_, before: string, c: string) => before + c.toUpperCase());
}

// ---------------------------------------------------------------------------------------------
// Form 990-N data
// ---------------------------------------------------------------------------------------------

/** The 990-N began with tax years beginning after 31 December 2006 (IRC §6033(i), Pension Protection Act of 2006). */
const FIRST_990N_BEGIN = '2007-01-01';

/** An ACCT_PD as the month its fiscal year ends (1–12), or null when it is not one ('00'). */
export function fiscalMonth(acctPd: string): number | null {
  const m = Number(acctPd);
  return Number.isInteger(m) && m >= 1 && m <= 12 ? m : null;
}

/** One 990-N period: the 990-N data's own "Tax Year" (the year the period begins), and its first and last days. */
export interface EpostcardPeriod {
  taxYear: number;
  begin: string;
  end: string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The fiscal year ending in month `month` (1–12) of `endYear`: it begins the day after the one
 * before ends. Its 990-N "Tax Year" is the year it begins (docs/irs-data.md "Tax years": a July
 * 2025 – June 2026 year is "2025" there).
 */
export function epostcardPeriod(month: number, endYear: number): EpostcardPeriod {
  const taxYear = month === 12 ? endYear : endYear - 1;
  return {
    taxYear,
    begin: `${taxYear}-${pad2((month % 12) + 1)}-01`,
    end: `${endYear}-${pad2(month)}-${pad2(daysInMonth(endYear, month))}`,
  };
}

/**
 * The 990-N years an organization of the BMF can have filed, consistent with its BMF row
 * (docs/irs-standing.md "Returns owed" and "Rules"): only an organization that owes the 990-N
 * (returnOwed: FILING_REQ_CD 02, no 990-PF) with a valid ACCT_PD and a TAX_PERIOD; its periods end
 * in its ACCT_PD month, the latest on or before its TAX_PERIOD (the end of the latest return the
 * IRS processed) and `asOf`; none begins before FIRST_990N_BEGIN or ends before its own RULING
 * month (a subordinate's RULING is its group's, so not used).
 * @returns the end year of the latest period and how many periods back to FIRST_990N_BEGIN there
 *   are (count 0: the organization has no 990-N rows)
 */
export function epostcardYears(f: BmfFacts, asOf: string): { lastEndYear: number; count: number } {
  const month = fiscalMonth(f.ACCT_PD);
  const owed = returnOwed(f.FILING_REQ_CD, f.PF_FILING_REQ_CD);
  if (owed?.kind !== 'return' || owed.form !== '990-N' || !month || !/^\d{6}$/.test(f.TAX_PERIOD))
    return { lastEndYear: 0, count: 0 };
  // Periods by the year and month they end, YYYYMM: the latest ends by TAX_PERIOD and by asOf.
  const asOfMonth = Number(asOf.slice(0, 4) + asOf.slice(5, 7));
  const asOfDay = Number(asOf.slice(8, 10));
  const latest = Math.min(
    Number(f.TAX_PERIOD),
    asOfDay < daysInMonth(Math.floor(asOfMonth / 100), asOfMonth % 100) ? asOfMonth - 1 : asOfMonth,
  );
  const lastEndYear = Math.floor(latest / 100) - (month > latest % 100 ? 1 : 0);
  const firstByLaw = Number(FIRST_990N_BEGIN.slice(0, 4)) + (month === 12 ? 0 : 1);
  const ruling = /^(19|20)\d{2}(0[1-9]|1[0-2])$/.test(f.RULING) && f.AFFILIATION !== '9' ? Number(f.RULING) : 0;
  const firstByRuling = Math.floor(ruling / 100) + (month < ruling % 100 ? 1 : 0);
  return { lastEndYear, count: Math.max(0, lastEndYear - Math.max(firstByLaw, firstByRuling) + 1) };
}

/**
 * Gross receipts ceiling of a 990-N, the 990-N data's "Gross receipts not greater than": $50,000
 * for tax years beginning on or after 1 January 2010, $25,000 before (Rev. Proc. 2011-15).
 */
export const grossReceiptsCeiling = (begin: string): string => (begin >= '2010-01-01' ? '50000' : '25000');

/**
 * How many years of 990-N rows the `index`-th filer (0-based, of `filers`) gets: its own draw
 * `wanted` (several years), raised when the rows so far (`written`) fall behind an even share of the
 * `minimumRows` the file must reach, and never more than the `available` years (epostcardYears).
 */
export function epostcardYearCount(p: {
  wanted: number;
  written: number;
  index: number;
  filers: number;
  minimumRows: number;
  available: number;
}): number {
  const due = Math.ceil((p.minimumRows * (p.index + 1)) / p.filers) - p.written;
  return Math.max(1, Math.min(p.available, Math.max(p.wanted, due)));
}

/** Years of 990-N rows an organization wants before the minimum is applied: 1 to this many, evenly. */
export const EPOSTCARD_MAX_WANTED_YEARS = 6;
/** Share of the 990-N filers whose latest notice says the organization has terminated (T). */
export const TERMINATED_SHARE = 0.015;

/** First names of the synthetic principal officers (common US given names). */
const FIRST_NAMES = [
  'JAMES', 'MARY', 'ROBERT', 'PATRICIA', 'JOHN', 'JENNIFER', 'MICHAEL', 'LINDA', 'DAVID', 'ELIZABETH',
  'WILLIAM', 'BARBARA', 'RICHARD', 'SUSAN', 'JOSEPH', 'JESSICA', 'THOMAS', 'SARAH', 'CHRISTOPHER', 'KAREN',
  'CHARLES', 'LISA', 'DANIEL', 'NANCY', 'MATTHEW', 'BETTY', 'ANTHONY', 'SANDRA', 'MARK', 'MARGARET',
  'DONALD', 'ASHLEY', 'STEVEN', 'KIMBERLY', 'ANDREW', 'EMILY', 'PAUL', 'DONNA', 'JOSHUA', 'MICHELLE',
  'KENNETH', 'CAROL', 'KEVIN', 'AMANDA', 'BRIAN', 'MELISSA', 'TIMOTHY', 'DEBORAH', 'RONALD', 'STEPHANIE',
  'JASON', 'REBECCA', 'GEORGE', 'SHARON', 'EDWARD', 'LAURA', 'JEFFREY', 'CYNTHIA', 'RYAN', 'DOROTHY',
]; // prettier-ignore

/** Surnames of the synthetic principal officers (common US surnames). */
const LAST_NAMES = [
  'SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', 'RODRIGUEZ', 'MARTINEZ',
  'HERNANDEZ', 'LOPEZ', 'GONZALEZ', 'WILSON', 'ANDERSON', 'THOMAS', 'TAYLOR', 'MOORE', 'JACKSON', 'MARTIN',
  'LEE', 'PEREZ', 'THOMPSON', 'WHITE', 'HARRIS', 'SANCHEZ', 'CLARK', 'RAMIREZ', 'LEWIS', 'ROBINSON',
  'WALKER', 'YOUNG', 'ALLEN', 'KING', 'WRIGHT', 'SCOTT', 'TORRES', 'NGUYEN', 'HILL', 'FLORES',
  'GREEN', 'ADAMS', 'NELSON', 'BAKER', 'HALL', 'RIVERA', 'CAMPBELL', 'MITCHELL', 'CARTER', 'ROBERTS',
  'GOMEZ', 'PHILLIPS', 'EVANS', 'TURNER', 'DIAZ', 'PARKER', 'CRUZ', 'EDWARDS', 'COLLINS', 'REYES',
  'STEWART', 'MORRIS', 'MORALES', 'MURPHY', 'COOK', 'ROGERS', 'GUTIERREZ', 'ORTIZ', 'MORGAN', 'COOPER',
]; // prettier-ignore

const STREET_NAMES = ['OAK', 'MAPLE', 'CEDAR', 'PINE', 'ELM', 'WALNUT', 'HICKORY', 'WILLOW', 'BIRCH', 'ASPEN', 'SPRUCE', 'POPLAR', 'MAGNOLIA', 'DOGWOOD', 'CHESTNUT', 'SYCAMORE']; // prettier-ignore
const STREET_KINDS = ['ST', 'AVE', 'DR', 'LN', 'RD', 'CT', 'WAY', 'PL'];

/**
 * The "FIRST LAST" pairs of FIRST_NAMES × LAST_NAMES that one in-care-of name (BMF ICO, a real
 * person, never shown: docs/irs-standing.md "States") holds, first name then surname, at most a
 * middle initial between.
 * A principal officer is never given such a name.
 */
export function icoNamePairs(ico: string): string[] {
  const words = ico
    .toUpperCase()
    .split(/[^A-Z']+/)
    .filter(Boolean);
  const pairs: string[] = [];
  for (let i = 0; i < words.length - 1; i++) {
    if (!FIRST_NAMES.includes(words[i])) continue;
    const last = words[i + 1].length === 1 ? words[i + 2] : words[i + 1];
    if (last && LAST_NAMES.includes(last)) pairs.push(`${words[i]} ${last}`);
  }
  return pairs;
}

/**
 * A synthetic principal officer for the 990-N data (docs/irs-data.md: never the BMF's in-care-of
 * name): a first name, sometimes a middle initial, a surname, from draws in [0, 1); a pair in
 * `banned` (icoNamePairs of every real ICO) is drawn again.
 * @throws Error when no pair is free after many draws (the lists and the ICOs leave none)
 */
export function officerName(rng: () => number, banned: ReadonlySet<string>): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const first = FIRST_NAMES[drawInt(rng(), 0, FIRST_NAMES.length - 1)];
    const last = LAST_NAMES[drawInt(rng(), 0, LAST_NAMES.length - 1)];
    const initial = rng() < 0.4 ? `${String.fromCharCode(65 + drawInt(rng(), 0, 25))} ` : '';
    if (!banned.has(`${first} ${last}`)) return `${first} ${initial}${last}`;
  }
  throw new Error('No synthetic officer name is free of the in-care-of names');
}

/** A synthetic street address for a principal officer: "1234 MAPLE AVE", from three draws in [0, 1). */
export function officerStreet(u1: number, u2: number, u3: number): string {
  return `${drawInt(u1, 1, 9999)} ${STREET_NAMES[drawInt(u2, 0, STREET_NAMES.length - 1)]} ${STREET_KINDS[drawInt(u3, 0, STREET_KINDS.length - 1)]}`;
}

/** A website under the reserved example.org domain (RFC 2606), never a real organization's: "www.copper-river-wrestling.example.org". */
export function websiteOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `www.${slug || 'organization'}.example.org`;
}

// ---------------------------------------------------------------------------------------------
// Automatic Revocation List
// ---------------------------------------------------------------------------------------------

/**
 * Whether automatic revocation can reach the organization (docs/irs-standing.md "Rules",
 * "Revocation date", IRC §6033(j)(1)): it owes a return or notice of its own each year (returnOwed:
 * a Form 990, 990-EZ, 990-N, 990-PF or 990-BL; not a church, a governmental unit or a group-return
 * member) and it has an exemption to lose (not a §4947(a)(2) trust, STATUS 12). Its ACCT_PD must be
 * a month, for the revocation date.
 */
export function subjectToAutoRevocation(f: BmfFacts): boolean {
  return (
    returnOwed(f.FILING_REQ_CD, f.PF_FILING_REQ_CD)?.kind === 'return' &&
    f.STATUS !== '12' &&
    fiscalMonth(f.ACCT_PD) !== null
  );
}

/**
 * The revocation date of an organization whose third missed return is for the fiscal year ending in
 * `month` (1–12) that begins in `beginYear`: the due date of that return, the 15th day of the 5th
 * month after the year ends, as the IRS lists it (not moved to a business day; docs/irs-standing.md
 * "Rules", "Revocation list dates"). December years of 2009 → 2010-05-15; June years → November.
 */
export function revocationDate(month: number, beginYear: number): string {
  return form990StatutoryDueDate(month, month === 12 ? beginYear : beginYear + 1);
}

/** The first revocations: the returns for the years beginning in 2007, 2008 and 2009 (the 990-N's first three years). */
export const FIRST_WAVE_BEGIN_YEAR = 2009;
/**
 * Share of the list revoked in the first wave. The IRS's first list (IR-2011-63, 8 June 2011) held
 * about 275,000 organizations of the little over a million listed since: about a quarter.
 */
export const FIRST_WAVE_SHARE = 0.25;
/** The day the IRS first posted the list (IR-2011-63): no posting date is earlier. */
const FIRST_POSTING = '2011-06-08';
/** Share of the list's rows that were reinstated: organizations back in the BMF (an assumption: the IRS publishes no figure). */
export const REINSTATED_SHARE = 0.05;

/**
 * The latest `beginYear` (from FIRST_WAVE_BEGIN_YEAR) whose revocation date is at least `daysBefore`
 * days before `asOf`, for a fiscal year ending in `month`: a row's later dates must fit before the
 * file's date.
 */
export function lastRevocationBeginYear(month: number, asOf: string, daysBefore: number): number {
  let y = Number(asOf.slice(0, 4));
  while (y > FIRST_WAVE_BEGIN_YEAR && daysBetween(revocationDate(month, y), asOf) < daysBefore) y--;
  return y;
}

/**
 * The list's "Revocation Posting Date": `lagDays` after the revocation date, never before the first
 * posting (FIRST_POSTING), moved to the next IRS business day, never after `asOf`.
 */
export function postingDate(revokedOn: string, lagDays: number, asOf: string): string {
  const day = addDays(revokedOn, lagDays);
  const posted = nextBusinessDay(day < FIRST_POSTING ? FIRST_POSTING : day, 'irs');
  return posted > asOf ? asOf : posted;
}

/**
 * The list's "Exemption Reinstatement Date" of a reinstated organization: `lagDays` after its
 * posting date (a new application, Rev. Proc. 2014-11: its 15 months run from the posting date),
 * moved to the next IRS business day, never after `asOf`.
 */
export function reinstatementDate(postedOn: string, lagDays: number, asOf: string): string {
  const day = nextBusinessDay(addDays(postedOn, lagDays), 'irs');
  return day > asOf ? asOf : day;
}

// ---------------------------------------------------------------------------------------------
// Publication 78 data
// ---------------------------------------------------------------------------------------------

/**
 * The Publication 78 deductibility codes (src/shared/rules/deductibility.ts) of an organization of
 * the BMF, from its real codes: none unless contributions to it are deductible (DEDUCTIBILITY 1, or
 * 4 by treaty: FORGN). A 501(c)(3) by its FOUNDATION code: 02/03 POF, 04/25 PF, 10–16 PC, 17 SOUNK,
 * 21–23 SO, 24 SONFI, 18 none (testing for public safety), other UNKWN; a fraternal society (501(c)(8),
 * (10)) EO,LODGE; any other 170(c) organization EO. A central organization of a group exemption
 * (AFFILIATION 6 or 8) adds GROUP; a foreign address (no STATE) adds FORGN.
 * @returns the codes in the file's order, [] when the organization is not listed
 */
export function pub78Codes(f: BmfFacts): string[] {
  if (f.DEDUCTIBILITY === '4') return ['FORGN'];
  if (f.DEDUCTIBILITY !== '1') return [];
  let codes: string[];
  if (f.SUBSECTION === '03') {
    const fc = Number(f.FOUNDATION);
    if (fc === 18) return [];
    codes = [
      fc === 2 || fc === 3
        ? 'POF'
        : fc === 4 || fc === 25
          ? 'PF'
          : fc >= 10 && fc <= 16
            ? 'PC'
            : fc === 17
              ? 'SOUNK'
              : fc >= 21 && fc <= 23
                ? 'SO'
                : fc === 24
                  ? 'SONFI'
                  : 'UNKWN',
    ];
  } else codes = f.SUBSECTION === '08' || f.SUBSECTION === '10' ? ['EO', 'LODGE'] : ['EO'];
  if ((f.AFFILIATION === '6' || f.AFFILIATION === '8') && f.GROUP !== '0000') codes.push('GROUP');
  if (!f.STATE) codes.push('FORGN');
  return codes;
}
