import { describe, expect, it } from 'vitest';
import { classifyStanding, isDeductible, STANDING_LABELS, subsectionLabel } from './standing.ts';

const today = new Date(Date.UTC(2026, 3, 15)); // 15 April 2026
const exempt = (taxPeriod: string | null, filingRequirement: string | null = '02') => ({ irsStatus: '01', taxPeriod, filingRequirement });

describe('classifyStanding', () => {
  it('is not exempt unless the IRS status is 01', () => {
    for (const irsStatus of ['12', '25', '02', '20', '21']) {
      expect(classifyStanding({ irsStatus, taxPeriod: '202506', filingRequirement: '02' }, today), String(irsStatus)).toBe('not_exempt');
    }
  });

  it('is good with a recent return on file', () => {
    expect(classifyStanding(exempt('202506'), today)).toBe('good');
    expect(classifyStanding(exempt('202604'), today)).toBe('good');
  });

  it('is good at exactly 36 months since the latest return, at risk after that', () => {
    expect(classifyStanding(exempt('202304'), today)).toBe('good');
    expect(classifyStanding(exempt('202303'), today)).toBe('at_risk');
    expect(classifyStanding(exempt('201812'), today)).toBe('at_risk');
  });

  it('counts months across year ends', () => {
    const jan = new Date(Date.UTC(2026, 0, 31));
    expect(classifyStanding(exempt('202301'), jan)).toBe('good');
    expect(classifyStanding(exempt('202212'), jan)).toBe('at_risk');
  });

  it('is good when no return is on file yet (new organizations)', () => {
    expect(classifyStanding(exempt(null), today)).toBe('good');
    expect(classifyStanding(exempt(''), today)).toBe('good');
  });

  it('is good when no annual return is required, however old the last one', () => {
    for (const code of ['00', '06', '13', '14']) {
      expect(classifyStanding(exempt('201001', code), today), code).toBe('good');
    }
    expect(classifyStanding(exempt('201001', '01'), today)).toBe('at_risk');
    expect(classifyStanding(exempt('201001', null), today)).toBe('at_risk');
  });

  it('treats an unreadable tax period as good rather than guessing', () => {
    expect(classifyStanding(exempt('abcdef'), today)).toBe('good');
    expect(classifyStanding(exempt('2020'), today)).toBe('good');
  });

  it('has a label for every standing', () => {
    expect(STANDING_LABELS).toEqual({ good: 'In good standing', at_risk: 'Filing overdue', not_exempt: 'Not currently exempt', not_listed: 'Not yet on the IRS list' });
  });
});

describe('subsectionLabel', () => {
  it.each([
    ['03', '501(c)(3)'],
    ['04', '501(c)(4)'],
    ['07', '501(c)(7)'],
    ['10', '501(c)(10)'],
    ['3', '501(c)(3)'],
    ['00', '00'],
    ['', ''],
    [null, ''],
  ])('%j -> %j', (code, label) => {
    expect(subsectionLabel(code)).toBe(label);
  });
});

describe('isDeductible', () => {
  it('is true for codes 1 and 4 only', () => {
    expect(isDeductible('1')).toBe(true);
    expect(isDeductible('4')).toBe(true);
    expect(isDeductible('2')).toBe(false);
    expect(isDeductible('0')).toBe(false);
    expect(isDeductible(null)).toBe(false);
  });
});

describe('groups with no IRS record', () => {
  it('are not yet on the IRS list rather than not exempt', () => {
    for (const irsStatus of ['', null]) {
      expect(classifyStanding({ irsStatus, taxPeriod: null, filingRequirement: null }, new Date('2026-11-22T00:00:00Z'))).toBe('not_listed');
    }
  });
});
