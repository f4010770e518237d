import { describe, expect, it } from 'vitest';
import {
  accountingPeriodEnd,
  currentGenPeriodEnd,
  dueGenReminder,
  genUpdateWindow,
  genWindowStatus,
  isInGenWindow,
  isPeriodEndOf,
  isPrivateFoundation,
  previousPeriodEnd,
  supervisionTaxYear,
} from './gen-update.ts';

/** The annual GEN update window (Rev. Proc. 2026-8; docs/irs-gen-duties.md): 90 to 30 days before the accounting period closes. */

describe('accountingPeriodEnd', () => {
  it('is the last day of the month, 29 February in leap years', () => {
    expect(accountingPeriodEnd(12, 2026)).toBe('2026-12-31');
    expect(accountingPeriodEnd(6, 2027)).toBe('2027-06-30');
    expect(accountingPeriodEnd(2, 2027)).toBe('2027-02-28');
    expect(accountingPeriodEnd(2, 2028)).toBe('2028-02-29');
    expect(accountingPeriodEnd(2, 2100)).toBe('2100-02-28'); // not a leap year
    expect(() => accountingPeriodEnd(13, 2026)).toThrow(RangeError);
  });
});

describe('genUpdateWindow', () => {
  it('opens 90 days and closes 30 days before the period ends', () => {
    expect(genUpdateWindow('2026-12-31')).toEqual({
      periodEnd: '2026-12-31',
      opensOn: '2026-10-02',
      closesOn: '2026-12-01',
    });
    expect(genUpdateWindow('2027-06-30')).toEqual({
      periodEnd: '2027-06-30',
      opensOn: '2027-04-01',
      closesOn: '2027-05-31',
    });
    expect(genUpdateWindow('2026-09-30')).toEqual({
      periodEnd: '2026-09-30',
      opensOn: '2026-07-02',
      closesOn: '2026-08-31',
    });
  });

  it('counts February right in leap and common years', () => {
    expect(genUpdateWindow('2028-02-29')).toEqual({
      periodEnd: '2028-02-29',
      opensOn: '2027-12-01',
      closesOn: '2028-01-30',
    });
    expect(genUpdateWindow('2027-02-28')).toEqual({
      periodEnd: '2027-02-28',
      opensOn: '2026-11-30',
      closesOn: '2027-01-29',
    });
    // A March period end reaches back across February.
    expect(genUpdateWindow('2028-03-31')).toEqual({
      periodEnd: '2028-03-31',
      opensOn: '2028-01-01',
      closesOn: '2028-03-01',
    });
    expect(genUpdateWindow('2027-03-31')).toEqual({
      periodEnd: '2027-03-31',
      opensOn: '2026-12-31',
      closesOn: '2027-03-01',
    });
  });

  it('refuses a date that does not exist', () => {
    expect(() => genUpdateWindow('2027-02-29')).toThrow(RangeError);
  });
});

describe('isInGenWindow', () => {
  it('includes both ends and nothing outside', () => {
    expect(isInGenWindow('2026-10-01', '2026-12-31')).toBe(false); // 91 days before
    expect(isInGenWindow('2026-10-02', '2026-12-31')).toBe(true); // 90
    expect(isInGenWindow('2026-12-01', '2026-12-31')).toBe(true); // 30
    expect(isInGenWindow('2026-12-02', '2026-12-31')).toBe(false); // 29
    expect(isInGenWindow('2027-01-05', '2026-12-31')).toBe(false); // after the period
  });
});

describe('isPeriodEndOf', () => {
  it('accepts only the last day of the accounting month', () => {
    expect(isPeriodEndOf(12, '2026-12-31')).toBe(true);
    expect(isPeriodEndOf(12, '2026-12-30')).toBe(false);
    expect(isPeriodEndOf(6, '2026-12-31')).toBe(false);
    expect(isPeriodEndOf(2, '2028-02-29')).toBe(true);
    expect(isPeriodEndOf(2, '2028-02-28')).toBe(false);
    expect(isPeriodEndOf(2, '2027-02-29')).toBe(false);
    expect(isPeriodEndOf(2, 'not a date')).toBe(false);
  });
});

describe('currentGenPeriodEnd', () => {
  it('is this year’s period until its window closes, then next year’s', () => {
    expect(currentGenPeriodEnd(12, '2026-01-01')).toBe('2026-12-31');
    expect(currentGenPeriodEnd(12, '2026-12-01')).toBe('2026-12-31');
    expect(currentGenPeriodEnd(12, '2026-12-02')).toBe('2027-12-31');
    expect(currentGenPeriodEnd(6, '2026-05-31')).toBe('2026-06-30');
    expect(currentGenPeriodEnd(6, '2026-06-01')).toBe('2027-06-30');
    expect(currentGenPeriodEnd(2, '2027-01-30')).toBe('2028-02-29');
    expect(currentGenPeriodEnd(2, '2028-01-30')).toBe('2028-02-29');
    expect(currentGenPeriodEnd(2, '2028-01-31')).toBe('2029-02-28');
  });

  it('steps back one year, from 29 February to 28 February', () => {
    expect(previousPeriodEnd('2028-02-29')).toBe('2027-02-28');
    expect(previousPeriodEnd('2027-12-31')).toBe('2026-12-31');
  });
});

describe('genWindowStatus and dueGenReminder', () => {
  const w = genUpdateWindow('2026-12-31');
  it('tells before, inside and after, with days to go', () => {
    expect(genWindowStatus(w, '2026-09-30')).toEqual({ state: 'upcoming', daysUntilOpen: 2, daysLeft: 62 });
    expect(genWindowStatus(w, '2026-10-02')).toEqual({ state: 'open', daysUntilOpen: 0, daysLeft: 60 });
    expect(genWindowStatus(w, '2026-12-01')).toEqual({ state: 'open', daysUntilOpen: 0, daysLeft: 0 });
    expect(genWindowStatus(w, '2026-12-02')).toEqual({ state: 'closed', daysUntilOpen: 0, daysLeft: -1 });
  });

  it('reminds when the window opens and in its last 7 days, one tier a day', () => {
    expect(dueGenReminder(w, '2026-10-01')).toBeNull();
    expect(dueGenReminder(w, '2026-10-02')).toBe('opened');
    expect(dueGenReminder(w, '2026-11-23')).toBe('opened'); // 8 days before closing
    expect(dueGenReminder(w, '2026-11-24')).toBe('closing'); // 7 days before
    expect(dueGenReminder(w, '2026-12-01')).toBe('closing');
    expect(dueGenReminder(w, '2026-12-02')).toBeNull();
  });
});

describe('supervisionTaxYear', () => {
  it('is the latest tax year ended before the day given', () => {
    expect(supervisionTaxYear(12, '2026-10-02')).toBe(2025);
    expect(supervisionTaxYear(null, '2026-10-02')).toBe(2025);
    expect(supervisionTaxYear(6, '2026-10-02')).toBe(2026);
    expect(supervisionTaxYear(9, '2026-09-30')).toBe(2025); // ends that very day: not yet ended
    expect(supervisionTaxYear(9, '2026-10-01')).toBe(2026);
    expect(supervisionTaxYear(2, '2028-02-29')).toBe(2027);
    expect(supervisionTaxYear(2, '2028-03-01')).toBe(2028);
  });
});

describe('isPrivateFoundation', () => {
  it('reads the BMF FOUNDATION code: 02-04 are private foundations', () => {
    expect(isPrivateFoundation('04')).toBe(true);
    expect(isPrivateFoundation('02')).toBe(true);
    expect(isPrivateFoundation('03')).toBe(true);
    expect(isPrivateFoundation('16')).toBe(false);
    expect(isPrivateFoundation('00')).toBe(false);
    expect(isPrivateFoundation('09')).toBeNull();
    expect(isPrivateFoundation(null)).toBeNull();
    expect(isPrivateFoundation('77')).toBeNull();
  });
});
