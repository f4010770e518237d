import { afterEach, describe, expect, it } from 'vitest';
import {
  overdueReminderTier,
  addDays,
  calendarDate,
  daysBetween,
  deadlinesFor,
  dueReminders,
  federalHolidayCalendar,
  federalHolidays,
  fiscalYearEnd,
  form990DueDate,
  form990StatutoryDueDate,
  irsHolidayCalendar,
  isBusinessDay,
  latestDueTaxYear,
  nextBusinessDay,
  nextForm990Deadline,
  nextStateFilingDate,
  stateFilingOf,
  parseIsoDate,
  reminderKey,
  reminderWindows,
  renewalDeadline,
  revocationRisk,
  weekday,
} from './compliance-calendar.ts';

// Every expected date below was checked against a real calendar (`date -u -d YYYY-MM-DD +%a` and
// an independent Python computation), not derived from the code under test.

const holiday = (year: number, name: string) => federalHolidayCalendar(year).find((h) => h.name === name)?.date;

describe('calendar-date helpers (1-based months, no time zone)', () => {
  it('parses, shifts and counts calendar days', () => {
    expect(parseIsoDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(() => parseIsoDate('2025-02-29')).toThrow(RangeError);
    expect(() => parseIsoDate('2025-5-1')).toThrow(RangeError);
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(daysBetween('2025-11-01', '2026-03-01')).toBe(120);
    expect(daysBetween('2026-03-01', '2025-11-01')).toBe(-120);
    expect(weekday('2026-05-15')).toBe(5); // Friday
    expect(weekday('2025-11-15')).toBe(6); // Saturday
  });

  it('calendarDate reads an instant in a given zone, UTC by default', () => {
    const instant = new Date('2026-05-01T02:00:00Z');
    expect(calendarDate(instant)).toBe('2026-05-01');
    expect(calendarDate(instant, 'America/New_York')).toBe('2026-04-30');
  });
});

describe('federalHolidays: full lists 2021-2028 (observed dates)', () => {
  const expected: Record<number, string[]> = {
    2021: [
      '2021-01-01',
      '2021-01-18',
      '2021-02-15',
      '2021-05-31',
      '2021-06-18',
      '2021-07-05',
      '2021-09-06',
      '2021-10-11',
      '2021-11-11',
      '2021-11-25',
      '2021-12-24',
      '2021-12-31',
    ],
    2022: [
      '2022-01-17',
      '2022-02-21',
      '2022-05-30',
      '2022-06-20',
      '2022-07-04',
      '2022-09-05',
      '2022-10-10',
      '2022-11-11',
      '2022-11-24',
      '2022-12-26',
    ],
    2023: [
      '2023-01-02',
      '2023-01-16',
      '2023-02-20',
      '2023-05-29',
      '2023-06-19',
      '2023-07-04',
      '2023-09-04',
      '2023-10-09',
      '2023-11-10',
      '2023-11-23',
      '2023-12-25',
    ],
    2024: [
      '2024-01-01',
      '2024-01-15',
      '2024-02-19',
      '2024-05-27',
      '2024-06-19',
      '2024-07-04',
      '2024-09-02',
      '2024-10-14',
      '2024-11-11',
      '2024-11-28',
      '2024-12-25',
    ],
    2025: [
      '2025-01-01',
      '2025-01-20',
      '2025-02-17',
      '2025-05-26',
      '2025-06-19',
      '2025-07-04',
      '2025-09-01',
      '2025-10-13',
      '2025-11-11',
      '2025-11-27',
      '2025-12-25',
    ],
    2026: [
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ],
    2027: [
      '2027-01-01',
      '2027-01-18',
      '2027-02-15',
      '2027-05-31',
      '2027-06-18',
      '2027-07-05',
      '2027-09-06',
      '2027-10-11',
      '2027-11-11',
      '2027-11-25',
      '2027-12-24',
      '2027-12-31',
    ],
    2028: [
      '2028-01-17',
      '2028-02-21',
      '2028-05-29',
      '2028-06-19',
      '2028-07-04',
      '2028-09-04',
      '2028-10-09',
      '2028-11-10',
      '2028-11-23',
      '2028-12-25',
    ],
  };
  for (const [year, dates] of Object.entries(expected)) {
    it(`${year}`, () => {
      expect(federalHolidays(Number(year))).toEqual(dates);
      for (const d of dates) expect(isBusinessDay(d, 'federal')).toBe(false);
    });
  }

  it('every observed date is a weekday', () => {
    for (let y = 2000; y <= 2060; y++)
      for (const d of federalHolidays(y)) expect([1, 2, 3, 4, 5]).toContain(weekday(d));
  });
});

describe('federal holiday rules, spot checks', () => {
  it("New Year's Day on a Saturday is observed Friday Dec 31 of the previous year, and listed there", () => {
    expect(federalHolidayCalendar(2021).at(-1)).toEqual({
      date: '2021-12-31',
      actual: '2022-01-01',
      name: "New Year's Day",
    });
    expect(holiday(2022, "New Year's Day")).toBeUndefined();
    expect(holiday(2027, "New Year's Day")).toBe('2027-01-01'); // Friday, no move
    expect(federalHolidays(2027)).toContain('2027-12-31'); // Jan 1, 2028 is a Saturday
    expect(holiday(2023, "New Year's Day")).toBe('2023-01-02'); // Sunday → Monday
  });

  it('Martin Luther King Jr. Day is the 3rd Monday of January', () => {
    expect(holiday(2024, 'Birthday of Martin Luther King, Jr.')).toBe('2024-01-15');
    expect(holiday(2025, 'Birthday of Martin Luther King, Jr.')).toBe('2025-01-20');
    expect(holiday(2026, 'Birthday of Martin Luther King, Jr.')).toBe('2026-01-19');
  });

  it("Washington's Birthday is the 3rd Monday of February", () => {
    expect(holiday(2022, "Washington's Birthday")).toBe('2022-02-21');
    expect(holiday(2027, "Washington's Birthday")).toBe('2027-02-15');
  });

  it('Memorial Day is the last Monday of May', () => {
    expect(holiday(2021, 'Memorial Day')).toBe('2021-05-31');
    expect(holiday(2026, 'Memorial Day')).toBe('2026-05-25');
  });

  it('Juneteenth exists from 2021; 2021 (Saturday) was observed Friday June 18', () => {
    expect(holiday(2020, 'Juneteenth National Independence Day')).toBeUndefined();
    expect(federalHolidayCalendar(2021).find((h) => h.name.startsWith('Juneteenth'))).toEqual({
      date: '2021-06-18',
      actual: '2021-06-19',
      name: 'Juneteenth National Independence Day',
    });
    expect(holiday(2022, 'Juneteenth National Independence Day')).toBe('2022-06-20'); // Sunday → Monday
    expect(holiday(2025, 'Juneteenth National Independence Day')).toBe('2025-06-19');
  });

  it('Independence Day: July 4, 2026 (Saturday) → Friday July 3; 2021 (Sunday) → Monday July 5', () => {
    expect(holiday(2026, 'Independence Day')).toBe('2026-07-03');
    expect(holiday(2021, 'Independence Day')).toBe('2021-07-05');
    expect(holiday(2025, 'Independence Day')).toBe('2025-07-04');
  });

  it('Labor Day is the 1st Monday of September; Columbus Day the 2nd Monday of October', () => {
    expect(holiday(2025, 'Labor Day')).toBe('2025-09-01');
    expect(holiday(2026, 'Labor Day')).toBe('2026-09-07');
    expect(holiday(2024, 'Columbus Day')).toBe('2024-10-14');
    expect(holiday(2026, 'Columbus Day')).toBe('2026-10-12');
  });

  it('Veterans Day: Nov 11, 2023 and 2028 (Saturdays) → Friday Nov 10', () => {
    expect(holiday(2023, 'Veterans Day')).toBe('2023-11-10');
    expect(holiday(2028, 'Veterans Day')).toBe('2028-11-10');
    expect(holiday(2024, 'Veterans Day')).toBe('2024-11-11');
  });

  it('Thanksgiving is the 4th Thursday of November (2026: Nov 26)', () => {
    expect(holiday(2026, 'Thanksgiving Day')).toBe('2026-11-26');
    expect(holiday(2024, 'Thanksgiving Day')).toBe('2024-11-28');
    expect(holiday(2025, 'Thanksgiving Day')).toBe('2025-11-27');
  });

  it('Christmas: 2022 (Sunday) → Monday Dec 26; 2021 (Saturday) → Friday Dec 24', () => {
    expect(holiday(2022, 'Christmas Day')).toBe('2022-12-26');
    expect(holiday(2021, 'Christmas Day')).toBe('2021-12-24');
    expect(holiday(2025, 'Christmas Day')).toBe('2025-12-25');
  });
});

describe('IRS calendar: DC Emancipation Day (IRC §7503)', () => {
  it('is April 16, observed Friday April 15 when on a Saturday and Monday April 17 when on a Sunday', () => {
    const dc = (y: number) =>
      irsHolidayCalendar(y).find((h) => h.name === 'District of Columbia Emancipation Day')?.date;
    expect(dc(2026)).toBe('2026-04-16'); // Thursday
    expect(dc(2022)).toBe('2022-04-15'); // Saturday → Friday
    expect(dc(2023)).toBe('2023-04-17'); // Sunday → Monday
    expect(dc(2004)).toBeUndefined();
  });

  it('counts for IRS business days but not for the federal calendar', () => {
    expect(isBusinessDay('2026-04-16')).toBe(false);
    expect(isBusinessDay('2026-04-16', 'federal')).toBe(true);
    expect(federalHolidays(2026)).not.toContain('2026-04-16');
  });
});

describe('isBusinessDay / nextBusinessDay', () => {
  it('weekends and observed holidays are not business days; a business day maps to itself', () => {
    expect(isBusinessDay('2026-05-15')).toBe(true);
    expect(nextBusinessDay('2026-05-15')).toBe('2026-05-15');
    expect(isBusinessDay('2025-11-15')).toBe(false); // Saturday
    expect(isBusinessDay('2026-07-03')).toBe(false); // Independence Day observed
    expect(isBusinessDay('2026-07-04')).toBe(false); // Saturday
  });

  it('rolls over Columbus Day: Sat Oct 10, 2026 → Tue Oct 13', () => {
    expect(nextBusinessDay('2026-10-10')).toBe('2026-10-13');
    expect(nextBusinessDay('2026-10-12')).toBe('2026-10-13');
  });

  it('rolls over an observed Veterans Day: Fri Nov 10, 2028 (Nov 11 is a Saturday) → Mon Nov 13', () => {
    expect(nextBusinessDay('2028-11-10')).toBe('2028-11-13');
  });

  it("rolls over New Year's Day observed in the previous year: Fri Dec 31, 2021 → Mon Jan 3, 2022", () => {
    expect(nextBusinessDay('2021-12-31')).toBe('2022-01-03');
    expect(nextBusinessDay('2027-12-31')).toBe('2028-01-03');
  });

  it('rolls over Thanksgiving to the Friday after, and over Christmas weekend', () => {
    expect(nextBusinessDay('2026-11-26')).toBe('2026-11-27');
    expect(nextBusinessDay('2022-12-24')).toBe('2022-12-27'); // Sat, Sun, Mon Dec 26 observed
  });
});

describe('form990DueDate (fiscal year end month 1-12, tax year = year the fiscal year ends)', () => {
  it('computes the statutory date: the 15th day of the 5th month after the year ends', () => {
    expect(fiscalYearEnd(6, 2025)).toBe('2025-06-30');
    expect(fiscalYearEnd(2, 2024)).toBe('2024-02-29');
    expect(form990StatutoryDueDate(12, 2025)).toBe('2026-05-15');
    expect(form990StatutoryDueDate(7, 2025)).toBe('2025-12-15');
    expect(form990StatutoryDueDate(8, 2025)).toBe('2026-01-15');
    expect(form990StatutoryDueDate(1, 2026)).toBe('2026-06-15');
  });

  it('FYE December 2025 → Friday May 15, 2026 (no move)', () => {
    expect(form990DueDate(12, 2025)).toBe('2026-05-15');
  });

  it('FYE June 2025 → Monday Nov 17, 2025 (Nov 15 is a Saturday)', () => {
    expect(form990DueDate(6, 2025)).toBe('2025-11-17');
  });

  it('FYE June 2026 → Monday Nov 16, 2026 (Nov 15 is a Sunday)', () => {
    expect(form990DueDate(6, 2026)).toBe('2026-11-16');
  });

  it('FYE December 2026 → Monday May 17, 2027 (May 15 is a Saturday)', () => {
    expect(form990DueDate(12, 2026)).toBe('2027-05-17');
  });

  it('FYE August 2026 → Friday Jan 15, 2027 (no move)', () => {
    expect(form990DueDate(8, 2026)).toBe('2027-01-15');
  });

  it('FYE November 2026 → Thursday April 15, 2027 (Emancipation Day is Friday the 16th: no move)', () => {
    expect(form990DueDate(11, 2026)).toBe('2027-04-15');
  });

  it('FYE November 2021 → Monday April 18, 2022 (Emancipation Day Saturday April 16 observed Friday April 15)', () => {
    expect(form990DueDate(11, 2021)).toBe('2022-04-18');
  });

  it('FYE November 2022 → Tuesday April 18, 2023 (Sat 15, Sun 16, Emancipation Day observed Mon 17)', () => {
    expect(form990DueDate(11, 2022)).toBe('2023-04-18');
  });

  it('FYE November 2027 → Tuesday April 18, 2028 (Sat 15, Sun 16, Emancipation Day observed Mon 17)', () => {
    expect(form990DueDate(11, 2027)).toBe('2028-04-18');
  });

  it('FYE August 2023 → Tuesday Jan 16, 2024 (Jan 15 is Martin Luther King Jr. Day)', () => {
    expect(form990DueDate(8, 2023)).toBe('2024-01-16');
  });

  it('FYE August 2021 → Tuesday Jan 18, 2022 (Saturday Jan 15, then Monday Jan 17 is MLK Day)', () => {
    expect(form990DueDate(8, 2021)).toBe('2022-01-18');
  });

  it("FYE September 2024 → Tuesday Feb 18, 2025 (Saturday Feb 15, then Monday Feb 17 is Washington's Birthday)", () => {
    expect(form990DueDate(9, 2024)).toBe('2025-02-18');
  });

  it("FYE September 2025 → Tuesday Feb 17, 2026 (Sunday Feb 15, then Monday Feb 16 is Washington's Birthday)", () => {
    expect(form990DueDate(9, 2025)).toBe('2026-02-17');
  });

  it('FYE July 2027 → Wednesday Dec 15, 2027; FYE January 2027 → Tuesday June 15, 2027', () => {
    expect(form990DueDate(7, 2027)).toBe('2027-12-15');
    expect(form990DueDate(1, 2027)).toBe('2027-06-15');
  });

  it('due dates are always IRS business days', () => {
    for (let m = 1; m <= 12; m++)
      for (let y = 2015; y <= 2040; y++) expect(isBusinessDay(form990DueDate(m, y))).toBe(true);
  });

  it('rejects a month outside 1-12 (the bylaws answer is 0-based; accounts store 1-based)', () => {
    expect(() => form990DueDate(0, 2025)).toThrow(RangeError);
    expect(() => form990DueDate(13, 2025)).toThrow(RangeError);
    expect(() => form990DueDate(6.5, 2025)).toThrow(RangeError);
  });
});

describe('nextForm990Deadline / latestDueTaxYear', () => {
  it('returns the deadline on its due day and the next one the day after (FYE June)', () => {
    expect(nextForm990Deadline(6, '2025-11-15')).toEqual({
      taxYear: 2025,
      fiscalYearEnd: '2025-06-30',
      due: '2025-11-17',
    });
    expect(nextForm990Deadline(6, '2025-11-17')).toEqual({
      taxYear: 2025,
      fiscalYearEnd: '2025-06-30',
      due: '2025-11-17',
    });
    expect(nextForm990Deadline(6, '2025-11-18')).toEqual({
      taxYear: 2026,
      fiscalYearEnd: '2026-06-30',
      due: '2026-11-16',
    });
    expect(nextForm990Deadline(6, '2025-01-01')).toEqual({
      taxYear: 2025,
      fiscalYearEnd: '2025-06-30',
      due: '2025-11-17',
    });
    expect(nextForm990Deadline(6, '2025-06-30')).toEqual({
      taxYear: 2025,
      fiscalYearEnd: '2025-06-30',
      due: '2025-11-17',
    });
  });

  it('FYE December: the deadline lies in the next calendar year', () => {
    expect(nextForm990Deadline(12, '2026-01-10')).toEqual({
      taxYear: 2025,
      fiscalYearEnd: '2025-12-31',
      due: '2026-05-15',
    });
    expect(nextForm990Deadline(12, '2026-05-16')).toEqual({
      taxYear: 2026,
      fiscalYearEnd: '2026-12-31',
      due: '2027-05-17',
    });
  });

  it('FYE August: across the new year', () => {
    expect(nextForm990Deadline(8, '2026-12-31')).toEqual({
      taxYear: 2026,
      fiscalYearEnd: '2026-08-31',
      due: '2027-01-15',
    });
    expect(nextForm990Deadline(8, '2027-01-16')).toEqual({
      taxYear: 2027,
      fiscalYearEnd: '2027-08-31',
      due: '2028-01-18',
    });
  });

  it('latestDueTaxYear is the last year whose due date is strictly before today', () => {
    expect(latestDueTaxYear(6, '2025-11-17')).toBe(2024);
    expect(latestDueTaxYear(6, '2025-11-18')).toBe(2025);
    expect(latestDueTaxYear(12, '2026-05-15')).toBe(2024);
    expect(latestDueTaxYear(12, '2026-05-18')).toBe(2025);
  });
});

describe('renewalDeadline / nextStateFilingDate / deadlinesFor', () => {
  it('reads a renewal timestamp as its UTC calendar date, a plain date as is, and adds extension days', () => {
    expect(renewalDeadline('2026-05-01T02:00:00.000Z')).toBe('2026-05-01');
    expect(renewalDeadline(new Date('2026-05-01T02:00:00Z'), 0, 'America/New_York')).toBe('2026-04-30');
    expect(renewalDeadline('2026-05-01', 14)).toBe('2026-05-15');
  });

  it('state filings: the next occurrence on or after today, Feb 29 clamped to Feb 28', () => {
    expect(nextStateFilingDate({ dueMonth: 5, dueDay: 15 }, '2026-05-15')).toBe('2026-05-15');
    expect(nextStateFilingDate({ dueMonth: 5, dueDay: 15 }, '2026-05-16')).toBe('2027-05-15');
    expect(nextStateFilingDate({ dueMonth: 2, dueDay: 29 }, '2025-11-01')).toBe('2026-02-28');
    expect(nextStateFilingDate({ dueMonth: 2, dueDay: 29 }, '2027-03-01')).toBe('2028-02-29');
  });

  it('lists each deadline once, sorted by due date, with days left', () => {
    const list = deadlinesFor(
      {
        fiscalYearEndMonth: 6,
        renewalDueAt: '2026-03-01T05:00:00.000Z',
        stateFilings: [{ label: 'State annual report', dueMonth: 2, dueDay: 29 }],
      },
      '2025-11-01',
    );
    expect(list).toEqual([
      {
        kind: 'form_990',
        label: 'Form 990-N, 990-EZ or 990 for the fiscal year ending June 30, 2025',
        due: '2025-11-17',
        daysLeft: 16,
        taxYear: 2025,
      },
      { kind: 'state', label: 'State annual report', due: '2026-02-28', daysLeft: 119 },
      { kind: 'renewal', label: 'Renewal', due: '2026-03-01', daysLeft: 120 },
    ]);
  });

  it('stateFilingOf labels a kept state filing with the state name; none without a full date and label', () => {
    const row = { stateName: 'Indiana', filingLabel: 'Annual report', filingDueMonth: 5, filingDueDay: 15 };
    expect(stateFilingOf(row)).toEqual({ label: 'Indiana annual report', dueMonth: 5, dueDay: 15 });
    expect(stateFilingOf({ ...row, filingLabel: 'UCC filing' })?.label).toBe('Indiana UCC filing');
    expect(stateFilingOf({ ...row, filingDueDay: null })).toBeNull();
    expect(stateFilingOf({ ...row, filingDueMonth: null, filingDueDay: null })).toBeNull();
    expect(stateFilingOf({ ...row, filingLabel: ' ' })).toBeNull();
    expect(stateFilingOf({ ...row, filingDueMonth: 13 })).toBeNull();
  });

  it('skips an unknown fiscal year end and a missing renewal; keeps an overdue renewal with negative days', () => {
    expect(deadlinesFor({ fiscalYearEndMonth: null, renewalDueAt: null }, '2026-01-01')).toEqual([]);
    expect(deadlinesFor({ fiscalYearEndMonth: null, renewalDueAt: '2025-12-25' }, '2026-01-01')).toEqual([
      { kind: 'renewal', label: 'Renewal', due: '2025-12-25', daysLeft: -7 },
    ]);
  });
});

describe('dueReminders (tiers 30 and 7 days before)', () => {
  const deadline = { kind: 'form_990' as const, due: '2026-05-15' };

  it('has the tiers 30 and 7', () => {
    expect([...reminderWindows]).toEqual([30, 7]);
  });

  it('30-day tier while 7 < daysLeft <= 30, 7-day tier while 0 <= daysLeft <= 7, none otherwise', () => {
    expect(dueReminders(deadline, '2026-04-14')).toEqual([]); // 31 days
    expect(dueReminders(deadline, '2026-04-15')).toEqual([30]); // 30 days
    expect(dueReminders(deadline, '2026-05-07')).toEqual([30]); // 8 days
    expect(dueReminders(deadline, '2026-05-08')).toEqual([7]); // 7 days
    expect(dueReminders(deadline, '2026-05-15')).toEqual([7]); // due today
    expect(dueReminders(deadline, '2026-05-16')).toEqual([]); // passed
  });

  it('a renewal also has a 60-day tier, from the day renewal opens (docs/renewals.md "Reminders")', () => {
    const renewal = { kind: 'renewal' as const, due: '2026-05-15' };
    expect(dueReminders(renewal, '2026-03-15')).toEqual([]); // 61 days
    expect(dueReminders(renewal, '2026-03-16')).toEqual([60]); // 60 days
    expect(dueReminders(renewal, '2026-04-14')).toEqual([60]); // 31 days
    expect(dueReminders(renewal, '2026-04-15')).toEqual([30]);
    expect(dueReminders(renewal, '2026-05-08')).toEqual([7]);
    expect(dueReminders(renewal, '2026-05-16')).toEqual([]);
    expect(dueReminders({ kind: 'state', due: '2026-05-15' }, '2026-03-16')).toEqual([]);
  });

  it('a daily job with idempotency keys sends each reminder once, even with skipped days', () => {
    const run = (days: string[]) => {
      const sent = new Set<string>();
      const log: string[] = [];
      for (const today of days) {
        for (const tier of dueReminders(deadline, today)) {
          const key = reminderKey(42, deadline, tier);
          if (!sent.has(key)) {
            sent.add(key);
            log.push(key);
          }
        }
      }
      return log;
    };
    const everyDay = Array.from({ length: 60 }, (_, i) => addDays('2026-04-01', i));
    expect(run(everyDay)).toEqual(['42:form_990:2026-05-15:30', '42:form_990:2026-05-15:7']);
    // The job was down from April 10 to April 20 and from May 5 to May 10: still one of each.
    expect(
      run(
        everyDay.filter((d) => !(d >= '2026-04-10' && d <= '2026-04-20') && !(d >= '2026-05-05' && d <= '2026-05-10')),
      ),
    ).toEqual(['42:form_990:2026-05-15:30', '42:form_990:2026-05-15:7']);
    // First seen 5 days out: only the 7-day reminder.
    expect(run(everyDay.filter((d) => d >= '2026-05-10'))).toEqual(['42:form_990:2026-05-15:7']);
  });
});

describe('revocationRisk (IRC §6033(j))', () => {
  it('revoked when the last three due years have no filing', () => {
    expect(revocationRisk([], 2025)).toBe('revoked');
    expect(revocationRisk([2022], 2025)).toBe('revoked');
    expect(revocationRisk([2026], 2025)).toBe('revoked');
  });

  it('at risk when the last two have none', () => {
    expect(revocationRisk([2023], 2025)).toBe('at_risk');
    expect(revocationRisk([2021, 2022, 2023], 2025)).toBe('at_risk');
  });

  it('ok when either of the last two was filed', () => {
    expect(revocationRisk([2025], 2025)).toBe('ok');
    expect(revocationRisk([2024], 2025)).toBe('ok');
  });

  it('years before the first due year are not missed', () => {
    expect(revocationRisk([], 2025, 2024)).toBe('at_risk');
    expect(revocationRisk([], 2025, 2025)).toBe('ok');
    expect(revocationRisk([], 2025, 2023)).toBe('revoked');
  });
});

describe('no dependence on the machine time zone', () => {
  const original = process.env.TZ;
  afterEach(() => {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  });

  for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Los_Angeles']) {
    it(`gives the same answers with TZ=${tz}`, () => {
      process.env.TZ = tz;
      expect(federalHolidays(2021)).toContain('2021-12-31');
      expect(form990DueDate(6, 2025)).toBe('2025-11-17');
      expect(form990DueDate(11, 2027)).toBe('2028-04-18');
      expect(nextForm990Deadline(12, '2026-05-16').due).toBe('2027-05-17');
      expect(renewalDeadline('2026-05-01T02:00:00.000Z')).toBe('2026-05-01');
      expect(daysBetween('2026-03-07', '2026-03-09')).toBe(2); // across a DST change
    });
  }
});

describe('overdueReminderTier', () => {
  it('reminds the day after a missed due date, then every 30 days', () => {
    expect(overdueReminderTier('2026-05-15', '2026-05-15')).toBeNull();
    expect(overdueReminderTier('2026-05-15', '2026-05-14')).toBeNull();
    expect(overdueReminderTier('2026-05-15', '2026-05-16')).toBe(-1);
    expect(overdueReminderTier('2026-05-15', '2026-06-14')).toBe(-1);
    expect(overdueReminderTier('2026-05-15', '2026-06-15')).toBe(-31);
    expect(overdueReminderTier('2026-05-15', '2026-11-25')).toBe(-181);
  });
});
