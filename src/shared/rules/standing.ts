import { daysBetween, form990DueDate, parseIsoDate } from './compliance-calendar.ts';

/**
 * A group's standing with the IRS, from the IRS's own data and the filings staff recorded
 * (docs/irs-standing.md). Pure and browser-safe.
 *
 * Tax years follow src/shared/rules/compliance-calendar.ts: the calendar year the fiscal year ENDS
 * in (the BMF TAX_PERIOD year); fiscal year end months are 1-based (1 = January), as ACCT_PD.
 */

/**
 * BMF STATUS codes and their meaning (IRS "EO BMF Extract" data dictionary). Every code the
 * extract carries is an exemption in force: a revoked organization leaves the file and appears on
 * the Automatic Revocation List instead.
 */
const IRS_STATUS_MEANINGS: Record<string, string> = {
  '01': 'Unconditional exemption',
  '02': 'Conditional exemption',
  '12': 'Trust described in section 4947(a)(2) of the Internal Revenue Code',
  '25': 'Organization terminating its private foundation status under section 507(b)(1)(B)',
};

/** The meaning of a BMF STATUS code; a code the data dictionary does not list is shown as such. */
export function irsStatusMeaning(code: string | null): string {
  if (!code) return '';
  return IRS_STATUS_MEANINGS[code] ?? `Status code ${code} (not in the IRS's published list)`;
}

/**
 * BMF FILING_REQ_CD codes and the annual return each requires (IRS "EO BMF Extract" data
 * dictionary). `required: false` codes owe no annual return, so no filing can be missed.
 */
export const FILING_REQUIREMENTS: Record<string, { label: string; required: boolean }> = {
  '00': { label: 'Not required to file (all others)', required: false },
  '01': { label: 'Form 990 or 990-EZ', required: true },
  '02': { label: 'Form 990-N (e-Postcard): gross receipts normally $50,000 or less', required: true },
  '03': { label: 'Included in a group return', required: false },
  '04': { label: 'Form 990-BL (black lung trust)', required: true },
  '06': { label: 'Not required to file (church)', required: false },
  '07': { label: 'Government 501(c)(1)', required: false },
  '13': { label: 'Not required to file (religious organization)', required: false },
  '14': { label: 'Not required to file (instrumentality of a state or political subdivision)', required: false },
};

/** The state of a group's exemption, most urgent last. */
export type StandingState =
  | 'not_listed'
  | 'not_required'
  | 'good'
  | 'no_return_seen'
  | 'missed_one'
  | 'missed_two'
  | 'past_revocation_date'
  | 'revoked'
  | 'reinstated';

const STANDING_LABELS: Record<StandingState, string> = {
  not_listed: 'Not yet on the IRS list',
  not_required: 'In good standing (no annual return required)',
  good: 'In good standing',
  no_return_seen: 'No return in the IRS data yet',
  missed_one: 'One year missed',
  missed_two: 'Two years missed: IRS notice expected',
  past_revocation_date: 'Past its revocation date: revoked unless a return was filed',
  revoked: 'Revoked',
  reinstated: 'Reinstated',
};

/** The states a good-standing letter can be issued in (docs/irs-standing.md "Letter"). */
export const LETTER_STATES: readonly StandingState[] = ['good', 'not_required', 'reinstated'];

/** One entry of the IRS Automatic Revocation List for the organization (dates 'YYYY-MM-DD'). */
interface RevocationEntry {
  revokedOn: string;
  postedOn: string | null;
  reinstatedOn: string | null;
}

/** What the standing is computed from. */
export interface StandingFacts {
  /** The organization is in the latest IRS EO BMF release loaded. */
  onBmf: boolean;
  /** BMF STATUS, two digits. */
  irsStatus: string | null;
  /** BMF FILING_REQ_CD, two digits. */
  filingRequirement: string | null;
  /** Fiscal year end month, 1-12 (BMF ACCT_PD or the group's own answer). */
  fiscalYearEndMonth: number | null;
  /** BMF RULING, 'YYYYMM': the month the exemption was recognized. */
  ruling: string | null;
  /**
   * The RULING is the group exemption's, not the organization's own: a subordinate in a group
   * ruling (BMF AFFILIATION 9). It tells when the GEN was granted, not when this subordinate
   * joined it, so it cannot start the count of returns owed.
   */
  groupRuling?: boolean;
  /** BMF TAX_PERIOD of the latest return the IRS processed, 'YYYYMM'. */
  bmfTaxPeriod: string | null;
  /** Tax years with a return seen elsewhere: the Form 990-N data, filings staff recorded. */
  filedTaxYears: number[];
  /** The organization's entries on the Automatic Revocation List. */
  revocations: RevocationEntry[];
  /**
   * The release date of the newest IRS data the filings were read from, 'YYYY-MM-DD': a return due
   * after it cannot be in that data yet, so it is not counted as missed. Null: today.
   */
  dataAsOf: string | null;
}

export interface Standing {
  state: StandingState;
  label: string;
  /** The latest tax year with a return on file (BMF, 990-N data or recorded), or null. */
  latestTaxYearFiled: number | null;
  /** Tax years whose due date has passed with no return, oldest first (consecutive, after the latest filed). */
  missedTaxYears: number[];
  /** Tax years due since the IRS data was released (between `dataAsOf` and today): not known yet. */
  awaitingDataTaxYears: number[];
  /** The next return due on or after today, or null when none is required or the date is unknown. */
  nextDue: { taxYear: number; due: string; daysLeft: number } | null;
  /**
   * The day the exemption is revoked by law if nothing more is filed: the due date of the third
   * consecutive missed return (IRC §6033(j)). Past when `state` is 'past_revocation_date'. Null when no
   * return is required or the fiscal year end is unknown.
   */
  revocationDate: string | null;
  /** Days from today to revocationDate (negative once passed). */
  daysToRevocation: number | null;
  /** The latest revocation list entry, when the organization is on the list. */
  revocation: RevocationEntry | null;
}

/** The tax year of a 'YYYYMM' tax period: the year the fiscal year ends in. */
function taxYearOfPeriod(period: string | null): number | null {
  if (!period || !/^\d{6}$/.test(period)) return null;
  const year = Number(period.slice(0, 4));
  return year > 1900 ? year : null;
}

/**
 * The first tax year a return was due for an organization recognized in `ruling` ('YYYYMM'): the
 * first fiscal year ending in or after the ruling month.
 */
function firstTaxYear(ruling: string | null, fiscalYearEndMonth: number): number | null {
  if (!ruling || !/^\d{6}$/.test(ruling)) return null;
  const year = Number(ruling.slice(0, 4));
  const month = Number(ruling.slice(4, 6));
  if (year < 1900 || month < 1 || month > 12) return null;
  return month <= fiscalYearEndMonth ? year : year + 1;
}

/**
 * Computes a group's standing on `today` (docs/irs-standing.md "States").
 * - On the revocation list with no later reinstatement: 'revoked' (the list's date); reinstated
 *   since: 'reinstated' while no return has been missed after it.
 * - Not in the BMF: 'not_listed'. A FILING_REQ_CD that owes no return: 'not_required'.
 * - Otherwise the returns due after the latest one on file and after the ruling
 *   whose due date came before the data's release (`dataAsOf`) are missed: none 'good', one
 *   'missed_one', two 'missed_two' (the IRS writes after two). Once the third one's due date has
 *   passed, 'past_revocation_date': revoked by law that day unless a return was filed that the
 *   data does not show yet (the revocation list shows it months later).
 * - A subordinate of a group ruling with no return on file: 'no_return_seen'. Its RULING is the
 *   GEN's (often decades old), not the day it joined, so the years it owes are not known; the next
 *   due date is given, no missed years and no revocation date are made up.
 * A late return still counts: a return filed after its due date removes that year from the missed.
 * @param today 'YYYY-MM-DD'
 * @throws RangeError when `today` is not a calendar date
 */
export function computeStanding(facts: StandingFacts, today: string): Standing {
  parseIsoDate(today);
  const bmfYear = taxYearOfPeriod(facts.bmfTaxPeriod);
  const filed = [...facts.filedTaxYears, ...(bmfYear ? [bmfYear] : [])];
  const latestTaxYearFiled = filed.length ? Math.max(...filed) : null;
  const revocation = [...facts.revocations].sort((a, b) => (a.revokedOn < b.revokedOn ? 1 : -1))[0] ?? null;
  const base: Standing = {
    state: 'good',
    label: '',
    latestTaxYearFiled,
    missedTaxYears: [],
    awaitingDataTaxYears: [],
    nextDue: null,
    revocationDate: null,
    daysToRevocation: null,
    revocation,
  };
  const done = (state: StandingState): Standing => ({ ...base, state, label: STANDING_LABELS[state] });

  const revokedNow = revocation && !(revocation.reinstatedOn && revocation.reinstatedOn <= today);
  if (revokedNow) return done('revoked');
  if (!facts.onBmf && !revocation) return done('not_listed');
  const requirement = facts.filingRequirement ? FILING_REQUIREMENTS[facts.filingRequirement] : undefined;
  if (requirement && !requirement.required) return done('not_required');
  const fye = facts.fiscalYearEndMonth;
  if (!fye || fye < 1 || fye > 12) return done(revocation ? 'reinstated' : 'good');

  // Returns owed start after the latest one on file, and never before the exemption was recognized:
  // a ruling newer than the latest return is a new exemption (after a revocation, mostly), and so
  // is a reinstatement, from the fiscal year in which it took effect.
  if (facts.groupRuling && latestTaxYearFiled === null && !revocation) {
    // The next due date from today: the tax year whose due date is the first on or after today.
    let year = Number(today.slice(0, 4)) - 1;
    while (form990DueDate(fye, year) < today) year++;
    const due = form990DueDate(fye, year);
    return { ...done('no_return_seen'), nextDue: { taxYear: year, due, daysLeft: daysBetween(today, due) } };
  }
  const ruledYear = firstTaxYear(facts.ruling, fye);
  let from: number | null = latestTaxYearFiled !== null ? latestTaxYearFiled + 1 : ruledYear;
  if (ruledYear !== null && from !== null && ruledYear > from) from = ruledYear;
  if (revocation?.reinstatedOn) {
    const reinstatedYear = firstTaxYear(revocation.reinstatedOn.slice(0, 4) + revocation.reinstatedOn.slice(5, 7), fye);
    if (reinstatedYear !== null && (from === null || reinstatedYear > from)) from = reinstatedYear;
  }
  if (from === null) return done(revocation ? 'reinstated' : 'good');

  const known = facts.dataAsOf && facts.dataAsOf < today ? facts.dataAsOf : today;
  const missedTaxYears: number[] = [];
  const awaitingDataTaxYears: number[] = [];
  let year = from;
  for (let due = form990DueDate(fye, year); due < today; due = form990DueDate(fye, ++year)) {
    (due < known ? missedTaxYears : awaitingDataTaxYears).push(year);
  }
  const nextDueDate = form990DueDate(fye, year);
  const revocationDate = form990DueDate(fye, from + 2);
  const state: StandingState =
    revocationDate < today
      ? 'past_revocation_date'
      : missedTaxYears.length === 2
        ? 'missed_two'
        : missedTaxYears.length === 1
          ? 'missed_one'
          : revocation
            ? 'reinstated'
            : 'good';
  return {
    ...base,
    state,
    label: STANDING_LABELS[state],
    missedTaxYears,
    awaitingDataTaxYears,
    nextDue: { taxYear: year, due: nextDueDate, daysLeft: daysBetween(today, nextDueDate) },
    revocationDate,
    daysToRevocation: daysBetween(today, revocationDate),
  };
}

/** SUBSECTION code -> the section name shown on a profile, e.g. '03' -> '501(c)(3)'. */
export function subsectionLabel(code: string | null): string {
  if (!code) return '';
  const n = Number(code);
  return n > 0 ? `501(c)(${n})` : code;
}

/** DEDUCTIBILITY code -> whether gifts to the organization are tax deductible. */
export function isDeductible(code: string | null): boolean {
  return code === '1' || code === '4';
}
