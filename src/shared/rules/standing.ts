// Longer than 400 lines: the IRS standing rules in one place (the return owed by filing code, the due dates
// and extensions, the revocation countdown, the next steps), since each step reads the one before
// (docs/irs-standing.md).
import { MONTH_NAMES } from '../lists/months.ts';
import { daysBetween, form990DueDate, longDate, nextBusinessDay, parseIsoDate } from './compliance-calendar.ts';
import { formatCurrency } from './formats.ts';

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
 * BMF FILING_REQ_CD codes as the IRS's "EO BMF Extract" data dictionary words them (IRM 25.7.1,
 * exhibit "BMF Filing Requirements"). `required: false` codes owe no annual return of their own.
 * What is owed is decided by {@link returnOwed}, which also reads PF_FILING_REQ_CD.
 */
export const FILING_REQUIREMENTS: Record<string, { label: string; required: boolean }> = {
  '00': { label: 'Not required to file (all others)', required: false },
  '01': { label: 'Form 990 or 990-EZ', required: true },
  '02': { label: 'Form 990-N (e-Postcard): gross receipts normally $50,000 or less', required: true },
  '03': { label: "Included in its central organization's group return", required: false },
  '04': { label: 'Form 990-BL (black lung trust)', required: true },
  '06': { label: 'Not required to file (church)', required: false },
  '07': { label: 'Not required to file (governmental unit)', required: false },
  '13': { label: 'Not required to file (religious organization)', required: false },
  '14': { label: 'Not required to file (instrumentality of a state or political subdivision)', required: false },
};

/** The annual returns the product tracks. */
export type ReturnForm = '990-N' | '990-EZ or 990' | '990-PF' | '990-BL';

/** The form as a sentence names it. */
export const RETURN_FORM_LABELS: Record<ReturnForm, string> = {
  '990-N': 'Form 990-N (e-Postcard)',
  '990-EZ or 990': 'Form 990-EZ or 990',
  '990-PF': 'Form 990-PF',
  '990-BL': 'Form 990-BL',
};

/**
 * What an organization owes the IRS each year (docs/irs-standing.md "Returns owed"):
 * - `return`: its own annual return, the form named; `extension`: Form 8868 can extend its due date
 *   by six months (not the 990-N); `latePenalty`: a late return is penalised per day under IRC
 *   §6652(c)(1)(A) (not the 990-N, which carries no penalty);
 * - `group_return`: nothing of its own, its central organization's group return includes it (03);
 * - `none`: no annual return (churches, governmental units, ...), with the IRS's words;
 * - `unknown`: a code the IRS's dictionary does not publish; nothing is made up.
 */
export type Obligation =
  | { kind: 'return'; form: ReturnForm; extension: boolean; latePenalty: boolean }
  | { kind: 'group_return' }
  | { kind: 'none'; label: string }
  | { kind: 'unknown'; label: string };

/**
 * The return an organization owes from its BMF codes (IRS "EO BMF Extract" data dictionary;
 * DOMAIN facts in docs/irs-standing.md "Returns owed"). PF_FILING_REQ_CD 1 is a Form 990-PF every
 * year whatever FILING_REQ_CD says (private foundations carry 00 there): a private foundation is
 * never "no return required".
 * @param filingRequirement FILING_REQ_CD, two digits, or null when unknown
 * @param pfFilingRequirement PF_FILING_REQ_CD, one digit, or null when unknown
 * @returns null when FILING_REQ_CD is unknown (not on the BMF)
 */
export function returnOwed(filingRequirement: string | null, pfFilingRequirement: string | null): Obligation | null {
  if (pfFilingRequirement === '1') return { kind: 'return', form: '990-PF', extension: true, latePenalty: true };
  if (!filingRequirement) return null;
  if (pfFilingRequirement && pfFilingRequirement !== '0' && filingRequirement === '00') {
    return {
      kind: 'unknown',
      label: `990-PF filing code ${pfFilingRequirement} (not in the IRS's published list): the return owed is not known`,
    };
  }
  switch (filingRequirement) {
    case '01':
      return { kind: 'return', form: '990-EZ or 990', extension: true, latePenalty: true };
    case '02':
      return { kind: 'return', form: '990-N', extension: false, latePenalty: false };
    case '04':
      return { kind: 'return', form: '990-BL', extension: true, latePenalty: true };
    case '03':
      return { kind: 'group_return' };
  }
  const known = FILING_REQUIREMENTS[filingRequirement];
  if (known && !known.required) return { kind: 'none', label: known.label };
  return {
    kind: 'unknown',
    label: `Filing code ${filingRequirement} (not in the IRS's published list): the return owed is not known`,
  };
}

/** The return owed in words, as the standing card's "Annual return owed" shows it. */
export function returnOwedText(obligation: Obligation | null): string {
  if (!obligation) return '';
  if (obligation.kind === 'return') return RETURN_FORM_LABELS[obligation.form] + ' every year';
  if (obligation.kind === 'group_return') return "None of its own: its central organization's group return includes it";
  return obligation.label;
}

/**
 * The IRC §6652(c)(1)(A) figures for returns due in one calendar year, as staff copied them from
 * the IRS instructions that print them (docs/irs-standing.md "What being late costs"). Amounts in
 * integer cents; the small maximum applies as "the lesser of it and 5% of gross receipts".
 */
export interface LatePenaltyFigures {
  dueYear: number;
  dailyCents: number;
  maximumCents: number;
  largeReceiptsOverCents: number;
  largeDailyCents: number;
  largeMaximumCents: number;
  /** The IRS text they come from: instructions, tax year, section. */
  source: string;
  sourceUrl: string;
}

/**
 * What being late costs, in words, for an obligation (docs/irs-standing.md "What being late
 * costs"): nothing for the 990-N; for the others the daily penalty of IRC §6652(c)(1)(A), whose
 * amounts the IRS adjusts for inflation each year and prints in the return's instructions for that
 * year. With staff's figures for the year the return is due, the amounts and their source are
 * stated; without them, the instructions to read are named.
 * @param dueYear the calendar year the return is due in (the instructions to read), or null when unknown
 * @param figures the figures staff entered for `dueYear`, if any (others are ignored)
 */
export function lateCostText(
  obligation: Obligation | null,
  dueYear: number | null,
  figures: LatePenaltyFigures | null = null,
): string {
  if (obligation?.kind !== 'return') return '';
  if (!obligation.latePenalty) return 'No penalty for a late Form 990-N, and a late one still counts.';
  const instructions =
    obligation.form === '990-PF'
      ? 'Instructions for Form 990-PF'
      : obligation.form === '990-BL'
        ? 'Instructions for Form 990-BL'
        : 'Instructions for Form 990';
  const rule =
    `A late ${RETURN_FORM_LABELS[obligation.form]} is penalised for each day it is late, from the due date (including any extension) until it is filed, up to a cap, ` +
    `unless the organization shows reasonable cause (IRC §6652(c)(1)(A)). The daily amount and the cap depend on the organization's gross receipts and are adjusted for inflation each year`;
  if (dueYear && figures?.dueYear === dueYear) {
    const f = figures;
    return (
      `${rule}. For a return due in ${dueYear}: ${formatCurrency(f.dailyCents)} a day, up to the lesser of ${formatCurrency(f.maximumCents)} ` +
      `or 5% of the organization's gross receipts for the year; with gross receipts over ${formatCurrency(f.largeReceiptsOverCents)}, ` +
      `${formatCurrency(f.largeDailyCents)} a day, up to ${formatCurrency(f.largeMaximumCents)} (source: ${f.source}).`
    );
  }
  return (
    rule +
    (dueYear
      ? `: for a return due in ${dueYear}, see the IRS's ${instructions} for tax year ${dueYear - 1}.`
      : `: see the IRS's ${instructions} for the year.`)
  );
}

/** The calendar year the return a standing speaks of first is due in: its oldest open return, else the next one. */
export function lateCostYear(standing: Pick<Standing, 'returns' | 'nextDue'>): number | null {
  const due = standing.returns[0]?.due ?? standing.nextDue?.due;
  return due ? Number(due.slice(0, 4)) : null;
}

/** The states of a group's exemption, most urgent last (docs/irs-standing.md "States"). */
export const STANDING_STATES = [
  'not_listed',
  'not_required',
  'group_return',
  'unknown_requirement',
  'terminated',
  'good',
  'no_return_seen',
  'unless_extended',
  'missed_one',
  'missed_two',
  'past_revocation_date',
  'revoked',
  'reinstated',
] as const;
export type StandingState = (typeof STANDING_STATES)[number];

export const STANDING_LABELS: Record<StandingState, string> = {
  not_listed: 'Not yet on the IRS list',
  not_required: 'In good standing (no annual return required)',
  group_return: "Included in its central organization's group return",
  unknown_requirement: 'Return owed not known from the IRS data',
  terminated: 'Terminated (per its Form 990-N)',
  good: 'In good standing',
  no_return_seen: 'No return in the IRS data yet',
  unless_extended: 'Due date passed: missed unless extended',
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

/** A Form 8868 extension recorded for one return (docs/irs-standing.md "Extensions"). */
export interface RecordedExtension {
  /** The end of the period the return covers, 'YYYY-MM' (month 1-based). */
  periodEnd: string;
  /** 'YYYY-MM-DD'. */
  extendedDue: string;
}

/** What the standing is computed from. */
export interface StandingFacts {
  /** The organization is in the latest IRS EO BMF release loaded. */
  onBmf: boolean;
  /** BMF STATUS, two digits. */
  irsStatus: string | null;
  /** BMF FILING_REQ_CD, two digits. */
  filingRequirement: string | null;
  /** BMF PF_FILING_REQ_CD, one digit ('1': Form 990-PF every year). */
  pfFilingRequirement?: string | null;
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
  /** BMF TAX_PERIOD of the latest return the IRS processed, 'YYYYMM' (its month may differ from ACCT_PD: a short period). */
  bmfTaxPeriod: string | null;
  /** Tax years with a return staff recorded: the period ending in the fiscal year end month of that year. */
  filedTaxYears: number[];
  /** Ends of periods with a return in the Form 990-N data, 'YYYY-MM'. */
  filedPeriods?: string[];
  /** The end of the period of a Form 990-N that said the organization has terminated, 'YYYY-MM', or null. */
  terminatedPeriod?: string | null;
  /** Form 8868 extensions recorded. */
  extensions?: RecordedExtension[];
  /** The organization's entries on the Automatic Revocation List. */
  revocations: RevocationEntry[];
  /**
   * The release date of the newest IRS data the filings were read from, 'YYYY-MM-DD' (the 1st of
   * the month when only the month is known): a return due after it cannot be in that data yet, so
   * it is not counted as missed. Null: today.
   */
  dataAsOf: string | null;
}

/** Where one return owed stands (docs/irs-standing.md "Returns owed"). */
interface ReturnDue {
  /** The end of the period it covers, 'YYYY-MM'. */
  periodEnd: string;
  /** The calendar year the period ends in. */
  taxYear: number;
  /** Its due date, moved to a business day, 'YYYY-MM-DD'. */
  due: string;
  /** The date with a six-month Form 8868 extension (recorded, or possible when `extension` is 'possible'); null for the 990-N. */
  extendedDue: string | null;
  extension: 'recorded' | 'possible' | 'none';
  /**
   * 'missed': its due date (with a recorded extension) came before the IRS data's release and the
   * data shows no return; 'missed_unless_extended': the due date came before the release but the
   * possible extension had not run out by then; 'awaiting_data': due since the release, so the data
   * cannot show it yet; 'extended': a recorded extension runs on past today.
   */
  status: 'missed' | 'missed_unless_extended' | 'awaiting_data' | 'extended';
}

export interface Standing {
  state: StandingState;
  label: string;
  /** The return owed each year, or null when the BMF codes are not known. */
  obligation: Obligation | null;
  /** The latest period with a return on file (BMF, 990-N data or recorded), 'YYYY-MM', or null. */
  latestPeriodFiled: string | null;
  /** The latest tax year with a return on file (the year of latestPeriodFiled), or null. */
  latestTaxYearFiled: number | null;
  /** Tax years whose return is missed, oldest first (consecutive, after the latest filed). */
  missedTaxYears: number[];
  /** Tax years whose due date passed before the release while a Form 8868 extension could still run: missed unless extended. */
  unlessExtendedTaxYears: number[];
  /** Tax years due since the IRS data was released (between `dataAsOf` and today): not known yet. */
  awaitingDataTaxYears: number[];
  /** Every return owed whose due date has passed, oldest first, with where it stands. */
  returns: ReturnDue[];
  /** The next return due on or after today, or null when none is required or the date is unknown. */
  nextDue: { taxYear: number; due: string; daysLeft: number } | null;
  /**
   * The day the exemption is revoked by law if nothing more is filed: the due date, with a recorded
   * extension, of the third consecutive return not filed (IRC §6033(j); Rev. Proc. 2014-11 §3).
   * Null when no return is required or the fiscal year end is unknown.
   */
  revocationDate: string | null;
  /** The revocation date if that third return was extended with Form 8868 (none recorded); null otherwise. */
  revocationDateIfExtended: string | null;
  /** Days from today to revocationDate (negative once passed). */
  daysToRevocation: number | null;
  /** The latest revocation list entry, when the organization is on the list. */
  revocation: RevocationEntry | null;
}

/** A period end 'YYYY-MM' from a BMF 'YYYYMM', or null. */
function periodOfTaxPeriod(period: string | null): string | null {
  if (!period || !/^\d{6}$/.test(period)) return null;
  const year = Number(period.slice(0, 4));
  const month = Number(period.slice(4, 6));
  return year > 1900 && month >= 1 && month <= 12 ? `${period.slice(0, 4)}-${period.slice(4, 6)}` : null;
}

const periodOf = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}`;
const yearOf = (period: string) => Number(period.slice(0, 4));
const monthOf = (period: string) => Number(period.slice(5, 7));

/**
 * The end of the first accounting period closing in `fye` after `period` ('YYYY-MM'): after a
 * short-period return (TAX_PERIOD's month differs from ACCT_PD) the next return covers the months up
 * to the next fiscal year end, so a return for June 2025 with a December year end is followed by one
 * for December 2025.
 */
function nextPeriodEnd(period: string, fye: number): string {
  const y = yearOf(period);
  return fye > monthOf(period) ? periodOf(y, fye) : periodOf(y + 1, fye);
}

/** The first period ending in or after `yyyymm` ('YYYYMM' or 'YYYY-MM') in month `fye`. */
function firstPeriodFrom(yyyymm: string | null, fye: number): string | null {
  const period = yyyymm && /^\d{4}-?\d{2}$/.test(yyyymm) ? periodOfTaxPeriod(yyyymm.replace('-', '')) : null;
  if (!period) return null;
  return monthOf(period) <= fye ? periodOf(yearOf(period), fye) : periodOf(yearOf(period) + 1, fye);
}

/** The due date of the return for the period ending `period` ('YYYY-MM'). */
export function periodDueDate(period: string): string {
  return form990DueDate(monthOf(period), yearOf(period));
}

/**
 * The due date with Form 8868's automatic six-month extension (Instructions for Form 8868): the 15th
 * day of the 11th month after the period ends, moved to the next business day.
 * @param period 'YYYY-MM'
 */
export function extendedDueDate(period: string): string {
  return nextBusinessDay(addMonths15(yearOf(period), monthOf(period) + 11), 'irs');
}

/** 'YYYY-MM-15' of the month `month` (may exceed 12) of `year`. */
function addMonths15(year: number, month: number): string {
  const y = year + Math.floor((month - 1) / 12);
  const m = ((month - 1) % 12) + 1;
  return `${y}-${String(m).padStart(2, '0')}-15`;
}

/** The next due date: a return extended past today comes before the next period's. */
function earliestDue(returns: ReturnDue[], next: NonNullable<Standing['nextDue']>, today: string): Standing['nextDue'] {
  const extended = returns.find((r) => r.status === 'extended' && r.extendedDue);
  if (extended?.extendedDue && extended.extendedDue < next.due) {
    return { taxYear: extended.taxYear, due: extended.extendedDue, daysLeft: daysBetween(today, extended.extendedDue) };
  }
  return next;
}

/**
 * Computes a group's standing on `today` (docs/irs-standing.md "States"), for every filer type the
 * IRS publishes:
 * - On the revocation list with no later reinstatement: 'revoked'; reinstated since: 'reinstated'
 *   while no return has been missed after it.
 * - Not in the BMF: 'not_listed'. What it owes comes from {@link returnOwed}: no return
 *   'not_required', a group return 'group_return', an unpublished code 'unknown_requirement'.
 * - A Form 990-N that said the organization terminated, with nothing filed after: 'terminated'.
 * - Otherwise returns are owed for each accounting period after the latest one on file (a short
 *   period counts: the next one closes at the next fiscal year end), never before the exemption was
 *   recognized. A return whose due date (with a recorded Form 8868 extension) came before the data's
 *   release (`dataAsOf`) is missed; one whose due date came before the release while its possible
 *   extension had not run out is missed unless extended; one due since the release is awaiting data.
 *   None missed 'good', only unless-extended ones 'unless_extended', one 'missed_one', two
 *   'missed_two'. Once the third one's due date (with any recorded extension, and the possible one
 *   run out) has passed, 'past_revocation_date'. A §4947(a)(2) trust (STATUS 12) is not exempt
 *   under §501(a), so it has no revocation date.
 * - A subordinate of a group ruling with no return on file: 'no_return_seen' (its RULING is the
 *   GEN's): the returns due since the release are listed, no missed years or revocation date made up.
 * A late return still counts: a return filed after its due date removes that year from the missed.
 * @param today 'YYYY-MM-DD'
 * @throws RangeError when `today` is not a calendar date
 */
export function computeStanding(facts: StandingFacts, today: string): Standing {
  parseIsoDate(today);
  const fye =
    facts.fiscalYearEndMonth && facts.fiscalYearEndMonth >= 1 && facts.fiscalYearEndMonth <= 12
      ? facts.fiscalYearEndMonth
      : null;
  const filedPeriods = [
    ...(facts.filedPeriods ?? []),
    ...(fye ? facts.filedTaxYears.map((y) => periodOf(y, fye)) : facts.filedTaxYears.map((y) => periodOf(y, 12))),
  ];
  const bmfPeriod = periodOfTaxPeriod(facts.bmfTaxPeriod);
  if (bmfPeriod) filedPeriods.push(bmfPeriod);
  const latestPeriodFiled = filedPeriods.length ? filedPeriods.reduce((a, b) => (a > b ? a : b)) : null;
  const revocation = [...facts.revocations].sort((a, b) => (a.revokedOn < b.revokedOn ? 1 : -1))[0] ?? null;
  const obligation = returnOwed(facts.filingRequirement, facts.pfFilingRequirement ?? null);
  const base: Standing = {
    state: 'good',
    label: '',
    obligation,
    latestPeriodFiled,
    latestTaxYearFiled: latestPeriodFiled ? yearOf(latestPeriodFiled) : null,
    missedTaxYears: [],
    unlessExtendedTaxYears: [],
    awaitingDataTaxYears: [],
    returns: [],
    nextDue: null,
    revocationDate: null,
    revocationDateIfExtended: null,
    daysToRevocation: null,
    revocation,
  };
  const done = (state: StandingState): Standing => ({ ...base, state, label: STANDING_LABELS[state] });

  const revokedNow = revocation && !(revocation.reinstatedOn && revocation.reinstatedOn <= today);
  if (revokedNow) return done('revoked');
  if (!facts.onBmf && !revocation) return done('not_listed');
  if (obligation?.kind === 'none') return done('not_required');
  if (obligation?.kind === 'group_return') return done('group_return');
  if (obligation?.kind === 'unknown') return done('unknown_requirement');
  if (facts.terminatedPeriod && (!latestPeriodFiled || facts.terminatedPeriod >= latestPeriodFiled)) {
    return done('terminated');
  }
  if (!fye) return done(revocation ? 'reinstated' : 'good');
  const form = obligation?.kind === 'return' ? obligation : null;
  const known = facts.dataAsOf && facts.dataAsOf < today ? facts.dataAsOf : today;
  const extensions = new Map((facts.extensions ?? []).map((e) => [e.periodEnd, e.extendedDue]));

  /** Where the return of `period` stands, when its due date has passed or a recorded extension runs. */
  const returnDue = (period: string): ReturnDue => {
    const due = periodDueDate(period);
    const recorded = extensions.get(period);
    const possible = form?.extension ? extendedDueDate(period) : null;
    const extension = recorded ? 'recorded' : possible ? 'possible' : 'none';
    const effective = recorded ?? due;
    const status: ReturnDue['status'] =
      recorded && recorded >= today
        ? 'extended'
        : effective >= known
          ? 'awaiting_data'
          : !recorded && possible && possible >= known
            ? 'missed_unless_extended'
            : 'missed';
    return { periodEnd: period, taxYear: yearOf(period), due, extendedDue: recorded ?? possible, extension, status };
  };
  const nextDueFrom = (period: string) => {
    let p = period;
    while ((extensions.get(p) ?? periodDueDate(p)) < today) p = nextPeriodEnd(p, fye);
    const due = extensions.get(p) ?? periodDueDate(p);
    return { taxYear: yearOf(p), due, daysLeft: daysBetween(today, due) };
  };

  if (facts.groupRuling && latestPeriodFiled === null && !revocation) {
    // The returns due since the release are listed (not skipped), none before it is called missed.
    let period = periodOf(Number(known.slice(0, 4)) - 2, fye);
    while (periodDueDate(period) < known) period = nextPeriodEnd(period, fye);
    const returns: ReturnDue[] = [];
    for (; periodDueDate(period) < today; period = nextPeriodEnd(period, fye)) returns.push(returnDue(period));
    return {
      ...done('no_return_seen'),
      returns,
      awaitingDataTaxYears: returns.filter((r) => r.status === 'awaiting_data').map((r) => r.taxYear),
      nextDue: nextDueFrom(period),
    };
  }

  // Returns owed start after the latest one on file, and never before the exemption was recognized:
  // a ruling newer than the latest return is a new exemption (after a revocation, mostly), and so
  // is a reinstatement, from the fiscal year in which it took effect.
  const ruled = facts.groupRuling ? null : firstPeriodFrom(facts.ruling, fye);
  let from: string | null = latestPeriodFiled ? nextPeriodEnd(latestPeriodFiled, fye) : ruled;
  if (ruled && from && ruled > from) from = ruled;
  const reinstated = revocation?.reinstatedOn ? firstPeriodFrom(revocation.reinstatedOn.slice(0, 7), fye) : null;
  if (reinstated && (!from || reinstated > from)) from = reinstated;
  if (!from) return done(revocation ? 'reinstated' : 'good');

  const returns: ReturnDue[] = [];
  let period = from;
  for (; periodDueDate(period) < today; period = nextPeriodEnd(period, fye)) returns.push(returnDue(period));
  const years = (status: ReturnDue['status']) => returns.filter((r) => r.status === status).map((r) => r.taxYear);
  const missedTaxYears = years('missed');
  const unlessExtendedTaxYears = years('missed_unless_extended');

  let third = from;
  for (let i = 0; i < 2; i++) third = nextPeriodEnd(third, fye);
  const thirdRecorded = extensions.get(third) ?? null;
  const revocationDate = thirdRecorded ?? periodDueDate(third);
  const revocationDateIfExtended = !thirdRecorded && form?.extension ? extendedDueDate(third) : null;
  const lastChance = revocationDateIfExtended ?? revocationDate;
  // A §4947(a)(2) trust (STATUS 12) is not exempt under §501(a): it owes its return, but §6033(j)
  // revokes only an exemption, so it has no revocation date.
  const revocable = facts.irsStatus !== '12';
  const state: StandingState =
    revocable && lastChance < today
      ? 'past_revocation_date'
      : missedTaxYears.length >= 2
        ? 'missed_two'
        : missedTaxYears.length === 1
          ? 'missed_one'
          : unlessExtendedTaxYears.length
            ? 'unless_extended'
            : revocation
              ? 'reinstated'
              : 'good';
  return {
    ...base,
    state,
    label: STANDING_LABELS[state],
    missedTaxYears,
    unlessExtendedTaxYears,
    awaitingDataTaxYears: years('awaiting_data'),
    returns,
    nextDue: earliestDue(returns, nextDueFrom(period), today),
    revocationDate: revocable ? revocationDate : null,
    revocationDateIfExtended: revocable ? revocationDateIfExtended : null,
    daysToRevocation: revocable ? daysBetween(today, revocationDate) : null,
  };
}

/**
 * Whether gifts to the organization are tax deductible, in words (docs/irs-standing.md "Where it
 * shows"): the BMF DEDUCTIBILITY code, never "Yes" once the exemption may be lost: a revoked
 * organization is not exempt until reinstated (Rev. Proc. 2014-11), and past its revocation date it
 * is revoked unless a return the data does not show yet was filed.
 */
export function deductibilityText(code: string | null, state: StandingState): string {
  if (state === 'revoked') return 'No: the exemption is revoked';
  if (state === 'past_revocation_date') return 'Not assured: past its revocation date';
  return isDeductible(code) ? 'Yes' : 'No';
}

/**
 * A release date as the IRS gave it (docs/irs-data.md "Releases"): 'April 2026' for 'YYYY-MM' (only
 * the month known), 'April 1, 2026' for 'YYYY-MM-DD'.
 */
export function releaseDateText(date: string): string {
  return /^\d{4}-\d{2}$/.test(date)
    ? `${MONTH_NAMES[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`
    : longDate(date);
}

/** 'period ending December 2024' for the period end '2024-12'. */
export function periodText(period: string): string {
  return `period ending ${MONTH_NAMES[Number(period.slice(5, 7)) - 1]} ${period.slice(0, 4)}`;
}

/**
 * What an organization should do next, in words, from its standing (docs/irs-standing.md "Instant
 * check"): the returns to file and what lateness costs, the extension question, or the way back
 * after a revocation (Rev. Proc. 2014-11).
 * @param figures staff's §6652(c) figures for the year the return is due, if any (lateCostText)
 */
export function nextSteps(standing: Standing, figures: LatePenaltyFigures | null = null): string[] {
  const form =
    standing.obligation?.kind === 'return' ? RETURN_FORM_LABELS[standing.obligation.form] : 'the annual return';
  const late = lateCostText(standing.obligation, lateCostYear(standing), figures);
  const periods = (status: ReturnDue['status']) =>
    standing.returns.filter((r) => r.status === status).map((r) => periodText(r.periodEnd));
  const next = standing.nextDue ? `The next ${form} is due ${longDate(standing.nextDue.due)}.` : '';
  switch (standing.state) {
    case 'revoked':
      return [
        'The exemption is revoked: the organization is not exempt, and gifts to it are not deductible, until the IRS reinstates it.',
        'Apply for reinstatement under Rev. Proc. 2014-11: within 15 months of the later of the revocation letter and the day the IRS posted the organization on the Automatic Revocation List, the streamlined or the retroactive process may apply.',
      ];
    case 'past_revocation_date':
      return [
        `If the missing returns were filed by ${longDate(standing.revocationDateIfExtended ?? standing.revocationDate ?? '')}, nothing more is needed: the IRS data will show them.`,
        'If not, the exemption was revoked by law on that day: filing now does not undo it. Apply for reinstatement under Rev. Proc. 2014-11; the sooner, the more options remain.',
      ];
    case 'missed_one':
    case 'missed_two':
      return [
        `File the missing ${form} now for the ${periods('missed').join(' and ')}: a late return still counts.`,
        ...(standing.revocationDate
          ? [`Unless a return is filed, the exemption is revoked on ${longDate(standing.revocationDate)}.`]
          : []),
        late,
      ].filter(Boolean);
    case 'unless_extended':
      return [
        `If Form 8868 was filed by the due date for the ${periods('missed_unless_extended').join(' and ')}, file the ${form} by the extended date; if not, file it now: it is late.`,
        late,
      ].filter(Boolean);
    case 'no_return_seen':
      return [
        `The IRS data shows no return yet. File ${form} for each year the organization has existed or been in its group, including any missed: a late return still counts.`,
        next,
        late,
      ].filter(Boolean);
    case 'group_return':
      return ["Nothing to file of its own: make sure the central organization's group return includes it every year."];
    case 'not_required':
      return ['No annual return is required by the IRS data. Check again if the organization changes what it does.'];
    case 'terminated':
      return [
        'The organization told the IRS it has terminated. If it still operates, it owes its annual return again.',
      ];
    case 'unknown_requirement':
      return ['The IRS data does not say which return is owed: ask the IRS, or ask us for a review below.'];
    case 'not_listed':
      return [
        'The organization is not in the IRS data loaded: apply for recognition of exemption, or ask us for a review below.',
      ];
    default:
      return [
        next,
        ...(standing.awaitingDataTaxYears.length
          ? ['A return due since the IRS data was released is not shown in it yet.']
          : []),
      ].filter(Boolean);
  }
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
