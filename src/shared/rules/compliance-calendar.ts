// Longer than 400 lines: the calendar arithmetic the due dates need (federal and IRS holidays by law, business
// days, Form 990 and renewal deadlines), tested as one unit (docs/irs-standing.md).
import { MONTH_NAMES } from '../lists/months.ts';
import type { Obligation, ReturnForm } from './standing.ts';
/**
 * Compliance calendar (docs/requirements/product.md "Compliance calendar"): Form 990-series due dates, renewal and state filing deadlines,
 * reminder tiers and revocation risk. Pure and browser-safe (no server imports).
 *
 * Conventions used throughout this module:
 * - Dates are calendar dates: ISO 'YYYY-MM-DD' strings or `{ year, month, day }` with `month`
 *   1-based (1 = January … 12 = December). All arithmetic goes through `Date.UTC` and the
 *   `getUTC*` accessors, so nothing shifts with the machine's time zone.
 * - A fiscal year end month is 1-based (1-12), exactly as `accounts.fiscal_year_end_month`
 *   stores it (the IRS EO BMF ACCT_PD, the application's `account___fiscal_year_end` select).
 *   The fiscal year ends on the last day of that month. (The bylaws generator's
 *   `fiscal_year_end` answer is 0-based; it is not what this module takes.)
 * - A "tax year" here is the calendar year in which the fiscal year ENDS, like the BMF
 *   TAX_PERIOD 'YYYYMM' (see standing.ts). The IRS prints the year the fiscal year BEGINS on the
 *   form itself (a July 2025 – June 2026 year files the "2025" form); for a December year end the
 *   two agree.
 * - `daysLeft` and all other day counts are whole calendar days.
 */

/** A calendar date; `month` is 1-based (1 = January). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Days since 1970-01-01 of a calendar date (month 1-based). */
function dayNumber(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** Parses 'YYYY-MM-DD' (month 1-based); throws RangeError on anything else or an impossible date. */
export function parseIsoDate(iso: string): CalendarDate {
  const m = ISO_DATE.exec(iso);
  if (!m) throw new RangeError(`Not an ISO calendar date (YYYY-MM-DD): ${iso}`);
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    throw new RangeError(`Not a calendar date: ${iso}`);
  }
  return date;
}

/** 'June 15, 2026' for '2026-06-15', as mails and letters write a date (no time zone involved). */
export function longDate(iso: string): string {
  const d = parseIsoDate(iso);
  return `${MONTH_NAMES[d.month - 1]} ${d.day}, ${d.year}`;
}

/** Formats a calendar date (month 1-based) as 'YYYY-MM-DD'; out-of-range days/months roll over. */
function toIsoDate(date: CalendarDate): string {
  return fromDayNumber(dayNumber(date.year, date.month, date.day));
}

/** Number of days in a month (month 1-based). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The ISO date `days` calendar days after `iso` (negative: before). */
export function addDays(iso: string, days: number): string {
  const d = parseIsoDate(iso);
  return fromDayNumber(dayNumber(d.year, d.month, d.day) + days);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = parseIsoDate(from);
  const b = parseIsoDate(to);
  return dayNumber(b.year, b.month, b.day) - dayNumber(a.year, a.month, a.day);
}

/** Day of the week of an ISO date: 0 = Sunday … 6 = Saturday. */
export function weekday(iso: string): number {
  const d = parseIsoDate(iso);
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

/**
 * The calendar date of an instant in a time zone (IANA name; default 'UTC'), as 'YYYY-MM-DD'.
 * Use it to turn "now" or a stored timestamp into the `today`/`due` strings this module takes,
 * e.g. `calendarDate(new Date(), 'America/New_York')`.
 */
export function calendarDate(instant: Date, timeZone = 'UTC'): string {
  // UTC needs no time-zone data; building an Intl.DateTimeFormat costs far more than the answer
  // (a tenth of the CPU of an instant check did go there), so each zone's is made once.
  if (timeZone === 'UTC') return instant.toISOString().slice(0, 10);
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** calendarDate's formatters by IANA time zone (a handful in use: the product's and the groups' zones). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

// ---------------------------------------------------------------------------------------------
// Holidays
// ---------------------------------------------------------------------------------------------

export interface Holiday {
  /** The day the holiday is observed (a weekday), 'YYYY-MM-DD'. */
  date: string;
  /** The day the holiday falls on by law, 'YYYY-MM-DD' (equals `date` unless moved). */
  actual: string;
  name: string;
}

/** The `n`-th (1-based) given weekday (0 = Sunday) of a month (1-based). */
function nthWeekday(year: number, month: number, dow: number, n: number): string {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return toIsoDate({ year, month, day: 1 + ((dow - first + 7) % 7) + 7 * (n - 1) });
}

/** The last given weekday (0 = Sunday) of a month (1-based). */
function lastWeekday(year: number, month: number, dow: number): string {
  const lastDay = daysInMonth(year, month);
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return toIsoDate({ year, month, day: lastDay - ((last - dow + 7) % 7) });
}

/** The OPM observed-day rule (5 U.S.C. 6103(b), E.O. 11582): Saturday → the Friday before, Sunday → the Monday after. */
function observed(actual: string): string {
  const dow = weekday(actual);
  return dow === 6 ? addDays(actual, -1) : dow === 0 ? addDays(actual, 1) : actual;
}

function fixed(year: number, month: number, day: number, name: string): Holiday {
  const actual = toIsoDate({ year, month, day });
  return { date: observed(actual), actual, name };
}

function floating(date: string, name: string): Holiday {
  return { date, actual: date, name };
}

/** The holidays whose actual date lies in `year`, before filtering by observed year. */
function holidaysByLaw(year: number): Holiday[] {
  const list: Holiday[] = [fixed(year, 1, 1, "New Year's Day")];
  if (year >= 1986) list.push(floating(nthWeekday(year, 1, 1, 3), 'Birthday of Martin Luther King, Jr.'));
  list.push(
    floating(nthWeekday(year, 2, 1, 3), "Washington's Birthday"),
    floating(lastWeekday(year, 5, 1), 'Memorial Day'),
  );
  if (year >= 2021) list.push(fixed(year, 6, 19, 'Juneteenth National Independence Day'));
  list.push(
    fixed(year, 7, 4, 'Independence Day'),
    floating(nthWeekday(year, 9, 1, 1), 'Labor Day'),
    floating(nthWeekday(year, 10, 1, 2), 'Columbus Day'),
    fixed(year, 11, 11, 'Veterans Day'),
    floating(nthWeekday(year, 11, 4, 4), 'Thanksgiving Day'),
    fixed(year, 12, 25, 'Christmas Day'),
  );
  return list;
}

/**
 * The US federal legal public holidays (5 U.S.C. 6103, as OPM lists them) OBSERVED in `year`,
 * with names, sorted by observed date: New Year's Day, Birthday of Martin Luther King, Jr.
 * (3rd Monday of January, from 1986), Washington's Birthday (3rd Monday of February), Memorial
 * Day (last Monday of May), Juneteenth (June 19, from 2021), Independence Day (July 4), Labor Day
 * (1st Monday of September), Columbus Day (2nd Monday of October), Veterans Day (November 11),
 * Thanksgiving Day (4th Thursday of November), Christmas Day (December 25).
 *
 * A fixed-date holiday on a Saturday is observed the Friday before, on a Sunday the Monday after.
 * A holiday is listed in the year it is OBSERVED: when January 1 of `year + 1` is a Saturday, its
 * New Year's Day is listed here on Friday December 31 of `year` (e.g. 2021 lists 2021-12-31), and
 * `year + 1`'s list has no New Year's Day at all.
 *
 * Not included: Inauguration Day (a holiday only in the Washington, DC area, January 20 every
 * four years; it cannot move a Form 990 due date, which rolls at most from the 15th to the 18th)
 * and holidays declared ad hoc by executive order.
 */
export function federalHolidayCalendar(year: number): Holiday[] {
  return [...holidaysByLaw(year), ...holidaysByLaw(year + 1).filter((h) => h.name === "New Year's Day")]
    .filter((h) => Number(h.date.slice(0, 4)) === year)
    .sort((a, b) => a.date.localeCompare(b.date));
}

/** The observed dates of {@link federalHolidayCalendar}: 'YYYY-MM-DD', sorted. */
export function federalHolidays(year: number): string[] {
  return federalHolidayCalendar(year).map((h) => h.date);
}

/**
 * District of Columbia Emancipation Day (April 16; Saturday → observed Friday April 15, Sunday →
 * observed Monday April 17), a DC legal holiday since 2005, or null before 2005.
 *
 * Why the IRS counts it: IRC §7503 moves a deadline that falls on "a legal holiday", and
 * Treas. Reg. §301.7503-1(b) defines that as a legal holiday in the District of Columbia (where
 * the IRS is seated), not only a federal one. That is why April 15 deadlines moved to April 18 in
 * 2011, 2016, 2017 and 2022.
 */
function dcEmancipationDay(year: number): Holiday | null {
  return year >= 2005 ? fixed(year, 4, 16, 'District of Columbia Emancipation Day') : null;
}

/**
 * The legal holidays for IRS deadlines (IRC §7503) observed in `year`: the federal holidays plus
 * DC Emancipation Day, sorted by observed date.
 */
export function irsHolidayCalendar(year: number): Holiday[] {
  const dc = dcEmancipationDay(year);
  return (dc ? [...federalHolidayCalendar(year), dc] : federalHolidayCalendar(year)).sort((a, b) =>
    a.date.localeCompare(b.date),
  );
}

/** Which holidays count: 'irs' (federal + DC Emancipation Day, the default) or 'federal' only. */
export type HolidayCalendar = 'irs' | 'federal';

const holidayCache = new Map<string, Set<string>>();

function holidaySet(year: number, calendar: HolidayCalendar): Set<string> {
  const key = `${calendar}:${year}`;
  let set = holidayCache.get(key);
  if (!set) {
    set = new Set((calendar === 'irs' ? irsHolidayCalendar(year) : federalHolidayCalendar(year)).map((h) => h.date));
    holidayCache.set(key, set);
  }
  return set;
}

/**
 * Whether `iso` ('YYYY-MM-DD') is a business day: not a Saturday or Sunday and not the observed
 * day of a legal holiday. By default the IRS calendar (IRC §7503: federal holidays plus DC
 * Emancipation Day); pass 'federal' for federal holidays only.
 */
export function isBusinessDay(iso: string, calendar: HolidayCalendar = 'irs'): boolean {
  const dow = weekday(iso);
  return dow !== 0 && dow !== 6 && !holidaySet(Number(iso.slice(0, 4)), calendar).has(iso);
}

/**
 * `iso` itself when it is a business day, else the next one (IRC §7503: a filing due on a
 * Saturday, Sunday or legal holiday is timely on the next day that is none of those).
 */
export function nextBusinessDay(iso: string, calendar: HolidayCalendar = 'irs'): string {
  let day = iso;
  while (!isBusinessDay(day, calendar)) day = addDays(day, 1);
  return day;
}

// ---------------------------------------------------------------------------------------------
// Form 990-series due dates
// ---------------------------------------------------------------------------------------------

function assertMonth(month: number, what: string): void {
  if (!Number.isInteger(month) || month < 1 || month > 12)
    throw new RangeError(`${what} must be a month number 1-12, got ${month}`);
}

/** The last day of the fiscal year ending in `fiscalYearEndMonth` (1-12) of `taxYear`, 'YYYY-MM-DD'. */
export function fiscalYearEnd(fiscalYearEndMonth: number, taxYear: number): string {
  assertMonth(fiscalYearEndMonth, 'fiscalYearEndMonth');
  return toIsoDate({ year: taxYear, month: fiscalYearEndMonth, day: daysInMonth(taxYear, fiscalYearEndMonth) });
}

/**
 * The statutory due date before any move: the 15th day of the 5th month after the fiscal year
 * ends (IRC §6072(e)), 'YYYY-MM-DD'. December 2025 → 2026-05-15; June 2025 → 2025-11-15.
 */
export function form990StatutoryDueDate(fiscalYearEndMonth: number, taxYear: number): string {
  assertMonth(fiscalYearEndMonth, 'fiscalYearEndMonth');
  return toIsoDate({ year: taxYear, month: fiscalYearEndMonth + 5, day: 15 });
}

/**
 * The Form 990-N / 990-EZ / 990 due date, 'YYYY-MM-DD', for the fiscal year that ends on the last
 * day of month `fiscalYearEndMonth` (1-based: 1 = January … 12 = December, as stored in
 * `accounts.fiscal_year_end_month`) of `taxYear` (the calendar year the fiscal year ENDS in):
 * the 15th day of the 5th month after, moved to the next IRS business day (weekends, federal
 * holidays, DC Emancipation Day). Extensions (Form 8868, not available for the 990-N) are not
 * applied.
 * @example form990DueDate(12, 2025) // '2026-05-15'
 * @example form990DueDate(6, 2025)  // '2025-11-17' (Nov 15, 2025 is a Saturday)
 */
export function form990DueDate(fiscalYearEndMonth: number, taxYear: number): string {
  return nextBusinessDay(form990StatutoryDueDate(fiscalYearEndMonth, taxYear), 'irs');
}

export interface Form990Deadline {
  /** The calendar year the fiscal year ends in (BMF TAX_PERIOD year). */
  taxYear: number;
  /** Last day of that fiscal year, 'YYYY-MM-DD'. */
  fiscalYearEnd: string;
  /** The due date moved to a business day, 'YYYY-MM-DD'. */
  due: string;
}

/**
 * The first Form 990-series due date on or after `today` ('YYYY-MM-DD'), with the tax year it is
 * for. On the due date itself that same deadline is returned; the day after, the next year's.
 */
export function nextForm990Deadline(fiscalYearEndMonth: number, today: string): Form990Deadline {
  assertMonth(fiscalYearEndMonth, 'fiscalYearEndMonth');
  parseIsoDate(today);
  // Due dates fall 5-12 months after the year ends: the tax year is this year or the one before.
  for (let taxYear = Number(today.slice(0, 4)) - 1; ; taxYear++) {
    const due = form990DueDate(fiscalYearEndMonth, taxYear);
    if (due >= today) return { taxYear, fiscalYearEnd: fiscalYearEnd(fiscalYearEndMonth, taxYear), due };
  }
}

/**
 * The latest tax year whose Form 990-series due date is strictly before `today` (so its return is
 * overdue if not filed), for use as `revocationRisk`'s `latestDueTaxYear`.
 */
export function latestDueTaxYear(fiscalYearEndMonth: number, today: string): number {
  // Due dates increase with the tax year, so the year before the next one (due on/after today) is it.
  return nextForm990Deadline(fiscalYearEndMonth, today).taxYear - 1;
}

// ---------------------------------------------------------------------------------------------
// Renewal and state deadlines
// ---------------------------------------------------------------------------------------------

/**
 * The renewal due date as a calendar date 'YYYY-MM-DD', plus `extensionDays` calendar days.
 * `renewalDueAt` is `accounts.renewal_due_at` (a timestamp: a Date or an ISO timestamp string) or
 * already a 'YYYY-MM-DD' date (taken as is). A timestamp is read as its calendar date in
 * `timeZone` (default 'UTC', so the result never depends on the machine's zone).
 */
export function renewalDeadline(renewalDueAt: string | Date, extensionDays = 0, timeZone = 'UTC'): string {
  const date =
    typeof renewalDueAt === 'string' && ISO_DATE.test(renewalDueAt)
      ? renewalDueAt
      : calendarDate(typeof renewalDueAt === 'string' ? new Date(renewalDueAt) : renewalDueAt, timeZone);
  return addDays(date, extensionDays);
}

export interface StateFiling {
  label: string;
  /** 1-based month (1 = January). */
  dueMonth: number;
  /** Day of the month, 1-31; clamped to the month's length (Feb 29 → Feb 28 in common years). */
  dueDay: number;
}

/** A state's filing as state_requirements keeps it (docs/requirements/product.md "Compliance calendar"); the date is both set or both null. */
export interface StateFilingRow {
  stateName: string;
  filingLabel: string | null;
  filingDueMonth: number | null;
  filingDueDay: number | null;
}

/**
 * The StateFiling of a state's row, labelled with the state's name: 'Indiana' and 'Annual report'
 * → "Indiana annual report" (the label's first letter lower-cased unless its first word is an
 * abbreviation such as 'UCC'). Null when the row keeps no complete, valid date or no label.
 */
export function stateFilingOf(row: StateFilingRow): StateFiling | null {
  const { filingDueMonth: dueMonth, filingDueDay: dueDay } = row;
  const label = (row.filingLabel ?? '').trim();
  if (dueMonth === null || dueDay === null || !label) return null;
  if (
    !Number.isInteger(dueMonth) ||
    dueMonth < 1 ||
    dueMonth > 12 ||
    !Number.isInteger(dueDay) ||
    dueDay < 1 ||
    dueDay > 31
  )
    return null;
  const firstWord = label.split(/\s/)[0];
  const shown =
    /^[A-Z][a-z]/.test(firstWord) || firstWord.length === 1 ? label.charAt(0).toLowerCase() + label.slice(1) : label;
  return { label: `${row.stateName} ${shown}`, dueMonth, dueDay };
}

/**
 * The next occurrence on or after `today` of an annual state filing date. Not moved off weekends or
 * holidays: state rules differ, so the unmoved (earlier or equal) date is the safe one to show.
 */
export function nextStateFilingDate(filing: Pick<StateFiling, 'dueMonth' | 'dueDay'>, today: string): string {
  assertMonth(filing.dueMonth, 'dueMonth');
  if (!Number.isInteger(filing.dueDay) || filing.dueDay < 1 || filing.dueDay > 31)
    throw new RangeError(`dueDay must be 1-31, got ${filing.dueDay}`);
  const on = (year: number) =>
    toIsoDate({ year, month: filing.dueMonth, day: Math.min(filing.dueDay, daysInMonth(year, filing.dueMonth)) });
  const year = parseIsoDate(today).year;
  const thisYear = on(year);
  return thisYear >= today ? thisYear : on(year + 1);
}

type DeadlineKind = 'form_990' | 'renewal' | 'state';

export interface Deadline {
  kind: DeadlineKind;
  label: string;
  /** 'YYYY-MM-DD'. */
  due: string;
  /** Calendar days from `today` to `due`; 0 on the day, negative when overdue (renewal only). */
  daysLeft: number;
  /** For 'form_990': the calendar year the fiscal year ends in. */
  taxYear?: number;
}

export interface DeadlineAccount {
  /** 1-12, as stored in accounts.fiscal_year_end_month; null when unknown (no 990 deadline). */
  fiscalYearEndMonth: number | null;
  /** accounts.renewal_due_at (timestamp string, Date, or 'YYYY-MM-DD'); null: no renewal deadline. */
  renewalDueAt: string | Date | null;
  stateFilings?: StateFiling[];
  /**
   * What the organization owes the IRS each year (standing.ts returnOwed). Undefined: not known
   * (no IRS data), so the Form 990-series deadline is shown in general terms. A church, a
   * governmental unit, a group-return member or an unpublished code has no such deadline
   * (docs/irs-standing.md "Returns owed").
   */
  returnOwed?: Obligation | null;
}

const KIND_ORDER: Record<DeadlineKind, number> = { form_990: 0, renewal: 1, state: 2 };

/**
 * "Form 990-N, 990-EZ or 990 for the fiscal year ending June 30, 2025", or with the form owed
 * named: "Form 990-PF for the fiscal year ending …".
 */
export function form990Label(fiscalYearEndMonth: number, taxYear: number, form?: ReturnForm): string {
  const forms = form ? `Form ${form}` : 'Form 990-N, 990-EZ or 990';
  return `${forms} for the fiscal year ending ${MONTH_NAMES[fiscalYearEndMonth - 1]} ${daysInMonth(taxYear, fiscalYearEndMonth)}, ${taxYear}`;
}

/**
 * The account's upcoming deadlines on `today` ('YYYY-MM-DD'), sorted by due date (then form_990,
 * renewal, state, then label): the next Form 990-series due date (when the fiscal year end month
 * is known and valid), the renewal due date (as stored, even when already past: an overdue
 * renewal has negative `daysLeft`; read in UTC, see renewalDeadline), and the next occurrence of
 * each state filing.
 */
export function deadlinesFor(account: DeadlineAccount, today: string): Deadline[] {
  parseIsoDate(today);
  const list: Deadline[] = [];
  const fye = account.fiscalYearEndMonth;
  const owed = account.returnOwed;
  const owesReturn = owed === undefined || owed === null || owed.kind === 'return';
  if (owesReturn && fye !== null && Number.isInteger(fye) && fye >= 1 && fye <= 12) {
    const next = nextForm990Deadline(fye, today);
    list.push({
      kind: 'form_990',
      label: form990Label(fye, next.taxYear, owed?.kind === 'return' ? owed.form : undefined),
      due: next.due,
      daysLeft: daysBetween(today, next.due),
      taxYear: next.taxYear,
    });
  }
  if (account.renewalDueAt !== null && account.renewalDueAt !== '') {
    const due = renewalDeadline(account.renewalDueAt);
    list.push({ kind: 'renewal', label: 'Renewal', due, daysLeft: daysBetween(today, due) });
  }
  for (const filing of account.stateFilings ?? []) {
    const due = nextStateFilingDate(filing, today);
    list.push({ kind: 'state', label: filing.label, due, daysLeft: daysBetween(today, due) });
  }
  return list.sort(
    (a, b) => a.due.localeCompare(b.due) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.label.localeCompare(b.label),
  );
}

// ---------------------------------------------------------------------------------------------
// Reminders
// ---------------------------------------------------------------------------------------------

/** Reminder tiers, in days before the due date, widest first. */
export const reminderWindows = [30, 7] as const;
/**
 * The renewal's reminder tiers (docs/renewals.md "Reminders"): 60 days before, the day renewal
 * opens (shared/rules/renewal.ts RENEWAL_OPENS_DAYS_BEFORE), then 30 and 7.
 */
const renewalReminderWindows = [60, 30, 7] as const;
export type ReminderTier = (typeof renewalReminderWindows)[number];

/** The tiers of a kind of deadline: the renewal's three, the two of every other. */
function reminderWindowsFor(kind: DeadlineKind | undefined): readonly ReminderTier[] {
  return kind === 'renewal' ? renewalReminderWindows : reminderWindows;
}

/**
 * The reminder tier due on `today` for a deadline: `[N]` for the NARROWEST tier N with
 * 0 <= daysLeft <= N, or `[]` (never more than one element). The tiers are 30 and 7, and for a
 * renewal 60, 30 and 7 (reminderWindowsFor).
 *
 * So the 30-day reminder is due while 7 < daysLeft <= 30, the 7-day one while 0 <= daysLeft <= 7,
 * and none once the deadline has passed. Each tier is due over a window of days, not one day: a
 * daily job that sends the returned tier through the outbox with the idempotency key
 * {@link reminderKey} `${accountId}:${kind}:${due}:${N}` sends each reminder exactly once even when
 * it runs late or skips days. A job that misses a tier's whole window sends only the tighter one
 * (a deadline first seen 5 days out gets only the 7-day reminder). A changed due date is a new
 * deadline with new keys.
 */
export function dueReminders(
  deadline: Pick<Deadline, 'due'> & Partial<Pick<Deadline, 'kind'>>,
  today: string,
): ReminderTier[] {
  const daysLeft = daysBetween(today, deadline.due);
  if (daysLeft < 0) return [];
  const tiers = [...reminderWindowsFor(deadline.kind)].sort((a, b) => a - b).filter((n) => daysLeft <= n);
  return tiers.length ? [tiers[0]] : [];
}

/** The outbox idempotency key of a reminder: `${accountId}:${kind}:${due}:${tier}`. */
export function reminderKey(
  accountId: number | string,
  deadline: Pick<Deadline, 'kind' | 'due'>,
  tier: ReminderTier | OverdueTier,
): string {
  return `${accountId}:${deadline.kind}:${deadline.due}:${tier}`;
}

/** Days between reminders of a missed Form 990-series due date. */
const OVERDUE_REMINDER_EVERY_DAYS = 30;

/** An overdue reminder's tier: minus the days after the due date it belongs to (-1, -31, -61, …). */
export type OverdueTier = number;

/**
 * The reminder a missed due date calls for on `today` (docs/irs-standing.md "Rules": a late return
 * still counts, so reminders go on until it is seen): the day after the due date, then every
 * 30 days, as the tier -(days after). A job that did not run for a while sends only the latest.
 * @param due the missed due date, 'YYYY-MM-DD'
 * @returns the tier, or null on or before the due date
 */
export function overdueReminderTier(due: string, today: string): OverdueTier | null {
  const daysPast = daysBetween(due, today);
  if (daysPast < 1) return null;
  return -(1 + OVERDUE_REMINDER_EVERY_DAYS * Math.floor((daysPast - 1) / OVERDUE_REMINDER_EVERY_DAYS));
}

// ---------------------------------------------------------------------------------------------
// Revocation risk
// ---------------------------------------------------------------------------------------------

export type RevocationRisk = 'ok' | 'at_risk' | 'revoked';

/**
 * Automatic revocation risk (IRC §6033(j): an organization that files no required annual return
 * or notice for three consecutive years loses its exemption on the due date of the third).
 * Tax years are calendar years the fiscal year ends in (see the module doc), `latestDueTaxYear`
 * the latest one whose due date has passed (see {@link latestDueTaxYear}).
 * @param firstTaxYear the first tax year a return was due (a newer organization has no missed
 *   years before it); default: all three years count.
 * @returns 'revoked' when none of latestDueTaxYear, -1, -2 has a recorded filing; 'at_risk' when
 *   none of latestDueTaxYear, -1 has; else 'ok'. A planning signal, not an IRS determination:
 *   extensions and returns filed elsewhere are not known here.
 */
export function revocationRisk(
  filedTaxYears: number[],
  latestDueTaxYear: number,
  firstTaxYear = -Infinity,
): RevocationRisk {
  const filed = new Set(filedTaxYears);
  const missed = (year: number) => year >= firstTaxYear && !filed.has(year);
  if (missed(latestDueTaxYear) && missed(latestDueTaxYear - 1)) {
    return missed(latestDueTaxYear - 2) ? 'revoked' : 'at_risk';
  }
  return 'ok';
}
