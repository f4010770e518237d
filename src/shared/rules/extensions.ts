import { MONTH_NAMES } from '../lists/months.ts';
import { daysInMonth, longDate, parseIsoDate } from './compliance-calendar.ts';
import { periodDueDate, periodText, type Obligation } from './standing.ts';

/**
 * Which Form 8868 extensions can be recorded (docs/irs-standing.md "Extensions"). Pure and
 * browser-safe: the server judges a request with these rules and the form offers what they allow.
 * Periods are 'YYYY-MM' (month 1-based), the end of the accounting period a return covers, as the
 * standing counts them (src/shared/rules/standing.ts).
 */

/** The returns a recorded extension can be for: what filing_extensions.return_form holds. */
export const EXTENSION_RETURN_FORMS = ['990-EZ', '990', '990-PF', '990-BL'] as const;
export type ExtensionReturnForm = (typeof EXTENSION_RETURN_FORMS)[number];

/**
 * How far back an extension can be recorded: for a return whose original due date is at most this
 * many years before today. Automatic revocation counts three consecutive returns (IRC §6033(j)), so
 * an older return's due date no longer moves a revocation date still ahead.
 */
const EXTENSION_LOOKBACK_YEARS = 3;

/** Who recorded an extension: a user of the account (the group) or the provider's staff. */
export const EXTENSION_RECORDERS = ['account', 'staff'] as const;

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Whether `period` is a 'YYYY-MM' period end. */
export function isPeriod(period: string): boolean {
  return PERIOD.test(period);
}

const yearOf = (period: string) => Number(period.slice(0, 4));
const monthOf = (period: string) => Number(period.slice(5, 7));
const periodOf = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}`;

/** The last day of the period ending in `period` ('YYYY-MM'), 'YYYY-MM-DD'. */
function periodLastDay(period: string): string {
  return `${period}-${String(daysInMonth(yearOf(period), monthOf(period))).padStart(2, '0')}`;
}

/**
 * The first day of the twelve months that end with `period`, 'YYYY-MM-DD': the start of a full
 * tax year (a short period starts later; this is the earliest day a Form 8868 for it is taken as filed).
 */
export function periodFirstDay(period: string): string {
  const month = monthOf(period) + 1;
  return month > 12 ? `${yearOf(period)}-01-01` : `${periodOf(yearOf(period) - 1, month)}-01`;
}

/** 'YYYY-MM-DD' `years` calendar years before `iso` (29 February becomes the 28th). */
function yearsBefore(iso: string, years: number): string {
  const d = parseIsoDate(iso);
  const year = d.year - years;
  return `${year}-${String(d.month).padStart(2, '0')}-${String(Math.min(d.day, daysInMonth(year, d.month))).padStart(2, '0')}`;
}

/** The earliest original due date an extension can still be recorded for on `today` ('YYYY-MM-DD'). */
export function earliestExtendableDue(today: string): string {
  return yearsBefore(today, EXTENSION_LOOKBACK_YEARS);
}

/**
 * The returns Form 8868 extends for an organization that owes `obligation` (Form 8868, Rev.
 * January 2020, its return codes 01 "Form 990 or Form 990-EZ", 02 "Form 990-BL", 04 "Form
 * 990-PF"): a Form 990 or 990-EZ for FILING_REQ_CD 01, a Form 990-PF for PF_FILING_REQ_CD 1, a Form
 * 990-BL for FILING_REQ_CD 04; none otherwise (see {@link extensionRefusal}).
 */
export function extendableForms(obligation: Obligation | null): ExtensionReturnForm[] {
  if (obligation?.kind !== 'return' || !obligation.extension) return [];
  if (obligation.form === '990-EZ or 990') return ['990-EZ', '990'];
  if (obligation.form === '990-PF') return ['990-PF'];
  if (obligation.form === '990-BL') return ['990-BL'];
  return [];
}

/**
 * Why no Form 8868 extension can be recorded for an organization that owes `obligation`, in words,
 * or null when one can (docs/irs-standing.md "Extensions").
 */
export function extensionRefusal(obligation: Obligation | null): string | null {
  if (!obligation)
    return 'The IRS data loaded does not show which annual return this organization owes, so no Form 8868 extension can be recorded.';
  switch (obligation.kind) {
    case 'group_return':
      return "Form 8868 does not apply here: the organization files no return of its own, its central organization's group return includes it.";
    case 'none':
      return `Form 8868 does not apply here: the organization owes no annual return (${obligation.label}).`;
    case 'unknown':
      return `No Form 8868 extension can be recorded: ${obligation.label}.`;
    case 'return':
      if (obligation.form === '990-N')
        return 'Form 8868 does not apply to the Form 990-N: its due date cannot be extended, and a late 990-N carries no penalty and still counts.';
      return null;
  }
}

/**
 * The latest short period of an organization: its BMF TAX_PERIOD when that month is not its fiscal
 * year end month (the return of a changed accounting period), as 'YYYY-MM'; null otherwise.
 * @param taxPeriod BMF TAX_PERIOD 'YYYYMM', or null
 * @param fye fiscal year end month, 1-12
 */
export function shortPeriodOf(taxPeriod: string | null, fye: number): string | null {
  if (!taxPeriod || !/^\d{6}$/.test(taxPeriod)) return null;
  const period = `${taxPeriod.slice(0, 4)}-${taxPeriod.slice(4, 6)}`;
  return isPeriod(period) && monthOf(period) !== fye ? period : null;
}

/**
 * Why an extension cannot be recorded for the return of `period` on `today`, in words, or null when
 * it can: the period must be one of the organization's (it ends in its fiscal year end month, or is
 * its latest short period), must have ended, and its original due date must be at most
 * {@link EXTENSION_LOOKBACK_YEARS} years before today.
 * @param period 'YYYY-MM'
 * @param fye fiscal year end month, 1-12
 * @param shortPeriod the latest short period ({@link shortPeriodOf}), or null
 * @param today 'YYYY-MM-DD'
 */
export function periodRefusal(period: string, fye: number, shortPeriod: string | null, today: string): string | null {
  if (!isPeriod(period)) return 'The return period field format is invalid.';
  if (monthOf(period) !== fye && period !== shortPeriod) {
    return (
      `The return period must end in the organization's fiscal year end month, ${MONTH_NAMES[fye - 1]}` +
      (shortPeriod
        ? ` (or be the short period ending ${MONTH_NAMES[monthOf(shortPeriod) - 1]} ${yearOf(shortPeriod)}).`
        : '.')
    );
  }
  if (periodLastDay(period) >= today)
    return `The ${periodText(period)} has not ended yet: record its extension once it has.`;
  const due = periodDueDate(period);
  if (due < earliestExtendableDue(today)) {
    return `The return for the ${periodText(period)} was due ${longDate(due)}, more than ${EXTENSION_LOOKBACK_YEARS} years ago: extensions are recorded for returns due in the last ${EXTENSION_LOOKBACK_YEARS} years.`;
  }
  return null;
}

/**
 * The periods an extension can be recorded for on `today`, newest first (each passes
 * {@link periodRefusal}): what the form offers.
 * @param fye fiscal year end month, 1-12
 * @param shortPeriod the latest short period, or null
 * @param today 'YYYY-MM-DD'
 */
export function extendablePeriods(fye: number, shortPeriod: string | null, today: string): string[] {
  const year = parseIsoDate(today).year;
  const candidates = [
    shortPeriod,
    ...Array.from({ length: EXTENSION_LOOKBACK_YEARS + 2 }, (_, i) => periodOf(year - i, fye)),
  ];
  return [...new Set(candidates.filter((p): p is string => !!p && !periodRefusal(p, fye, shortPeriod, today)))].sort(
    (a, b) => (a < b ? 1 : -1),
  );
}
