/**
 * The annual GEN update of a central organization (Rev. Proc. 2026-8; docs/irs-gen-duties.md):
 * when it may be submitted, which accounting period it is for, when staff are reminded, which
 * supervision year and which BMF FOUNDATION codes count. Pure and browser-safe; dates are ISO
 * 'YYYY-MM-DD' strings and months 1-based, as in ./compliance-calendar.ts.
 */
import { addDays, daysBetween, daysInMonth, fiscalYearEnd, parseIsoDate } from './compliance-calendar.ts';

/** Earliest submission: this many days before the close of the central organization's annual accounting period. */
const GEN_UPDATE_MAX_DAYS_BEFORE = 90;
/** Latest submission: this many days before the close of the accounting period. */
const GEN_UPDATE_MIN_DAYS_BEFORE = 30;
/** Staff get the "closing" reminder this many days (or fewer) before the window closes. */
const GEN_REMINDER_CLOSING_DAYS = 7;
/** Rev. Proc. 2026-8 was published on this day; updates recorded since then are under it. */
export const REV_PROC_2026_8_PUBLISHED = '2026-01-20';
/** The end of the transition relief for group exemptions that existed on 20 January 2026. */
export const GEN_TRANSITION_DEADLINE = '2027-01-22';

/** The submission window of one accounting period; every date 'YYYY-MM-DD', both ends included. */
export interface GenUpdateWindow {
  /** The last day of the central organization's annual accounting period. */
  periodEnd: string;
  /** First day a submission counts: 90 days before periodEnd. */
  opensOn: string;
  /** Last day a submission counts: 30 days before periodEnd. */
  closesOn: string;
}

/** Where `today` stands against a window: before it opens, inside it, or after it closed. */
export type GenWindowState = 'upcoming' | 'open' | 'closed';

/** The last day of the accounting period ending in `month` (1-12) of `year`: a month end, 29 February in leap years. */
export function accountingPeriodEnd(month: number, year: number): string {
  return fiscalYearEnd(month, year);
}

/**
 * The window of the accounting period ending `periodEnd`: submitted at least 30 and at most 90
 * days before the close of the accounting period (docs/requirements/tax-rules.md "Group exemption"). A December 31
 * period opens on October 2 and closes on December 1.
 * @throws RangeError when `periodEnd` is not a calendar date
 */
export function genUpdateWindow(periodEnd: string): GenUpdateWindow {
  parseIsoDate(periodEnd);
  return {
    periodEnd,
    opensOn: addDays(periodEnd, -GEN_UPDATE_MAX_DAYS_BEFORE),
    closesOn: addDays(periodEnd, -GEN_UPDATE_MIN_DAYS_BEFORE),
  };
}

/** Whether a submission on `date` falls in the window of the period ending `periodEnd` (both ends count). */
export function isInGenWindow(date: string, periodEnd: string): boolean {
  const before = daysBetween(date, periodEnd);
  return before >= GEN_UPDATE_MIN_DAYS_BEFORE && before <= GEN_UPDATE_MAX_DAYS_BEFORE;
}

/** Whether `periodEnd` is the last day of month `month` (1-12) of some year: a period end of that accounting period. */
export function isPeriodEndOf(month: number, periodEnd: string): boolean {
  try {
    const d = parseIsoDate(periodEnd);
    return d.month === month && d.day === daysInMonth(d.year, d.month);
  } catch {
    return false;
  }
}

/**
 * The accounting period the builder works on, on `today`: the first period (ending in `month`)
 * whose window has not closed yet. From the day after a window closes, that is next year's period.
 * @returns its period end, 'YYYY-MM-DD'
 */
export function currentGenPeriodEnd(month: number, today: string): string {
  const year = parseIsoDate(today).year;
  const thisYear = accountingPeriodEnd(month, year);
  return genUpdateWindow(thisYear).closesOn >= today ? thisYear : accountingPeriodEnd(month, year + 1);
}

/** The period end one year before `periodEnd` (same month; 29 February becomes 28 February). */
export function previousPeriodEnd(periodEnd: string): string {
  const d = parseIsoDate(periodEnd);
  return accountingPeriodEnd(d.month, d.year - 1);
}

/**
 * Where `today` stands in `window`: `state`, whole days until it opens (0 once open), and days
 * left to submit (0 on the closing day, negative once closed).
 */
export function genWindowStatus(
  window: GenUpdateWindow,
  today: string,
): { state: GenWindowState; daysUntilOpen: number; daysLeft: number } {
  const daysUntilOpen = Math.max(0, daysBetween(today, window.opensOn));
  const daysLeft = daysBetween(today, window.closesOn);
  const state: GenWindowState = today < window.opensOn ? 'upcoming' : today > window.closesOn ? 'closed' : 'open';
  return { state, daysUntilOpen, daysLeft };
}

/** The staff reminder tiers: the window opened; it closes in 7 days or fewer. */
export type GenReminderTier = 'opened' | 'closing';

/**
 * The reminder due on `today`, or null: 'closing' from 7 days before the window closes to its
 * closing day, 'opened' on the other days of the window. Only one tier is due on a day, so a job
 * that first runs late in the window sends only the closing reminder; sent once per period and
 * tier by the caller's idempotency key.
 */
export function dueGenReminder(window: GenUpdateWindow, today: string): GenReminderTier | null {
  if (today < window.opensOn || today > window.closesOn) return null;
  return daysBetween(today, window.closesOn) <= GEN_REMINDER_CLOSING_DAYS ? 'closing' : 'opened';
}

/**
 * The tax year of the supervision information the central organization should hold, as of
 * `asOf`, for a subordinate whose fiscal year ends in `fiscalYearEndMonth` (null: December): the
 * latest tax year (the calendar year the fiscal year ENDS in, as supervision_reports.tax_year)
 * whose fiscal year ended before `asOf`. The builder passes the day its window opens.
 */
export function supervisionTaxYear(fiscalYearEndMonth: number | null, asOf: string): number {
  const month = fiscalYearEndMonth && fiscalYearEndMonth >= 1 && fiscalYearEndMonth <= 12 ? fiscalYearEndMonth : 12;
  const year = parseIsoDate(asOf).year;
  return accountingPeriodEnd(month, year) < asOf ? year : year - 1;
}

/**
 * Meanings of the BMF FOUNDATION code (IRS EO BMF extract data dictionary; docs/irs-gen-duties.md).
 * 02-04 are private foundations; 10-24 are public charity classes under §509(a); 00 is every
 * organization that is not 501(c)(3).
 */
export const FOUNDATION_CODES: Record<string, string> = {
  '00': 'Not a 501(c)(3) organization',
  '02': 'Private operating foundation exempt from paying excise taxes on investment income',
  '03': 'Private operating foundation (other)',
  '04': 'Private non-operating foundation',
  '09': 'Suspense',
  '10': 'Church, 170(b)(1)(A)(i)',
  '11': 'School, 170(b)(1)(A)(ii)',
  '12': 'Hospital or medical research organization, 170(b)(1)(A)(iii)',
  '13': 'Organization for the benefit of a government-owned college or university, 170(b)(1)(A)(iv)',
  '14': 'Governmental unit, 170(b)(1)(A)(v)',
  '15': 'Publicly supported organization, 170(b)(1)(A)(vi)',
  '16': 'Publicly supported organization, 509(a)(2)',
  '17': 'Supporting organization, 509(a)(3)',
  '18': 'Organization testing for public safety, 509(a)(4)',
  '21': 'Supporting organization, 509(a)(3) Type I',
  '22': 'Supporting organization, 509(a)(3) Type II',
  '23': 'Supporting organization, 509(a)(3) Type III functionally integrated',
  '24': 'Supporting organization, 509(a)(3) Type III not functionally integrated',
};

/** Whether a BMF FOUNDATION code marks a private foundation (02, 03, 04); null when the code is unknown or missing. */
export function isPrivateFoundation(code: string | null | undefined): boolean | null {
  if (!code || !(code in FOUNDATION_CODES) || code === '09') return null;
  return code === '02' || code === '03' || code === '04';
}

/** The 501(c) paragraphs a group exemption can cover, as BMF SUBSECTION codes '01'-'29'. */
export const GEN_SUBSECTIONS = Array.from({ length: 29 }, (_, i) => String(i + 1).padStart(2, '0'));
