import { describe, expect, it } from 'vitest';
import { derivedAnswers, fiscalYearRecordWarning, isLetterAwaited, prefillAnswers } from './wizard-answers.ts';

const bylawsLevel = new Set([
  'account___name',
  'account___school',
  'account___fiscal_year_end',
  'bylaw___name',
  'bylaw___facility',
]);

describe('answers asked once (docs/wizard.md "Answers asked once")', () => {
  it('prefills the bylaws name and school from the group answers while they are blank, and never overwrites', () => {
    const given = { account___name: 'Soldotna Track Boosters', account___school: 'Soldotna High School' };
    expect(prefillAnswers(given, bylawsLevel)).toEqual({
      ...given,
      bylaw___name: 'Soldotna Track Boosters',
      bylaw___facility: 'Soldotna High School',
    });
    expect(
      prefillAnswers({ ...given, bylaw___name: 'Soldotna Track and Field Boosters' }, bylawsLevel).bylaw___name,
    ).toBe('Soldotna Track and Field Boosters');
    // A level without bylaws gets no bylaw answers.
    expect(prefillAnswers(given, new Set(['account___name']))).toEqual(given);
  });

  it('derives the bylaws fiscal year (0-based) from the fiscal year given (1-12), only for levels that write bylaws', () => {
    expect(derivedAnswers({ account___fiscal_year_end: '6' }, bylawsLevel).bylaw___fiscal_year_end).toBe('5');
    expect(derivedAnswers({ account___fiscal_year_end: '1' }, bylawsLevel).bylaw___fiscal_year_end).toBe('0');
    expect(derivedAnswers({ account___fiscal_year_end: '' }, bylawsLevel)).not.toHaveProperty(
      'bylaw___fiscal_year_end',
    );
    expect(
      derivedAnswers({ account___fiscal_year_end: '6' }, new Set(['account___fiscal_year_end'])),
    ).not.toHaveProperty('bylaw___fiscal_year_end');
  });

  it('a group waiting for its letter has applied: that answer is not asked again', () => {
    expect(derivedAnswers({ account___has_501c: '2' }, bylawsLevel)).toMatchObject({
      account___has_requested_exemption: '1',
    });
    expect(
      derivedAnswers({ account___has_501c: '1', account___has_requested_exemption: '0' }, bylawsLevel)
        .account___has_requested_exemption,
    ).toBe('0');
    expect(isLetterAwaited({ account___has_501c: '2' })).toBe(true);
    expect(isLetterAwaited({ account___has_501c: '1' })).toBe(false);
  });
});

describe('fiscal year against the IRS record (docs/wizard.md "Fiscal year and the IRS record")', () => {
  const record = { ein: '920178325', month: 12, releasedOn: '2026-03-09' };
  it('names both months, the EIN, the release and what to do when they differ', () => {
    const w = fiscalYearRecordWarning('6', record)!;
    expect(w).toContain('EIN 92-0178325');
    expect(w).toContain('March 9, 2026');
    expect(w).toContain('ending in December, but you answered June');
    expect(w).toContain('choose December');
    expect(w).toMatch(/Form 990-EZ or 990 for the short year marked "Change in Accounting Period"/);
    expect(w).toMatch(/a Form 990-N cannot make the change/);
    expect(w).toMatch(/Form 1128/);
  });
  it('says nothing when they agree or either is unknown', () => {
    expect(fiscalYearRecordWarning('12', record)).toBeNull();
    expect(fiscalYearRecordWarning(12, record)).toBeNull();
    expect(fiscalYearRecordWarning('6', null)).toBeNull();
    expect(fiscalYearRecordWarning('', record)).toBeNull();
    expect(fiscalYearRecordWarning('6', { ...record, month: 0 })).toBeNull();
  });
});
