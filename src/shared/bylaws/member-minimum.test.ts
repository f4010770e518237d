import { describe, expect, it } from 'vitest';
import { describeMemberMinimum, MINIMUM_FRACTION, parseMemberMinimum, type MemberMinimum } from './member-minimum.ts';

/** The parsed value, or the test fails with the refusal message. */
function value(text: string): MemberMinimum {
  const r = parseMemberMinimum(text, 'quorum');
  if (!r.ok) throw new Error(`'${text}' was refused: ${r.message}`);
  return r.value;
}
/** The refusal message, or the test fails with the accepted value. */
function refusal(text: string, label = 'quorum'): string {
  const r = parseMemberMinimum(text, label);
  if (r.ok) throw new Error(`'${text}' was accepted as ${JSON.stringify(r.value)}`);
  return r.message;
}

const GARBAGE = 'The quorum must be a whole number (15), a percentage (25%) or a fraction of at least 1/10 (1/4).';

describe('parseMemberMinimum: whole numbers of members', () => {
  it('reads a count, trimming spaces', () => {
    expect(value('15')).toEqual({ kind: 'count', count: 15 });
    expect(value(' 1 ')).toEqual({ kind: 'count', count: 1 });
    expect(value('100000')).toEqual({ kind: 'count', count: 100_000 });
  });
  it('needs at least one member', () => {
    expect(refusal('0')).toBe('The quorum must be at least 1 member.');
    expect(refusal('000')).toBe('The quorum must be at least 1 member.');
  });
  it('caps the count at 100,000', () => {
    expect(refusal('100001')).toBe('The quorum may not be more than 100,000 members.');
    expect(refusal('999999')).toBe('The quorum may not be more than 100,000 members.');
  });
});

describe('parseMemberMinimum: percentages (held to the 1/10 lower bound)', () => {
  it('reads a percentage with or without a space, decimals and the word percent', () => {
    expect(value('25%')).toEqual({ kind: 'percent', percent: 25 });
    expect(value('25 %')).toEqual({ kind: 'percent', percent: 25 });
    expect(value('12.5%')).toEqual({ kind: 'percent', percent: 12.5 });
    expect(value('30 percent')).toEqual({ kind: 'percent', percent: 30 });
    expect(value('40 PERCENT')).toEqual({ kind: 'percent', percent: 40 });
  });
  it('accepts exactly 10% and exactly 100%', () => {
    expect(value('10%')).toEqual({ kind: 'percent', percent: 10 });
    expect(value('100%')).toEqual({ kind: 'percent', percent: 100 });
  });
  it('refuses less than 10%', () => {
    for (const text of ['5%', '9.99%', '0%'])
      expect(refusal(text), text).toBe('The quorum must be at least 10% (1/10) of the members.');
  });
  it('refuses more than 100%', () => {
    for (const text of ['101%', '100.01%', '150%', '999%'])
      expect(refusal(text), text).toBe('The quorum may not be more than 100% of the members.');
  });
});

describe('parseMemberMinimum: fractions of at least 1/10 (docs/requirements/validation.md, docs/requirements/constants.md)', () => {
  it('the lower bound is 1/10', () => {
    expect(MINIMUM_FRACTION).toEqual({ numerator: 1, denominator: 10 });
  });
  it('accepts 1/10 and anything at or above it, with spaces around the slash', () => {
    expect(value('1/10')).toEqual({ kind: 'fraction', numerator: 1, denominator: 10 });
    expect(value('2/20')).toEqual({ kind: 'fraction', numerator: 2, denominator: 20 });
    expect(value('1 / 4')).toEqual({ kind: 'fraction', numerator: 1, denominator: 4 });
    expect(value('2/3')).toEqual({ kind: 'fraction', numerator: 2, denominator: 3 });
    expect(value('4/4')).toEqual({ kind: 'fraction', numerator: 4, denominator: 4 });
  });
  it('refuses fractions below 1/10', () => {
    for (const text of ['1/11', '1/20', '9/100', '0/5']) {
      expect(refusal(text), text).toBe('The quorum must be a fraction of at least 1/10 of the members.');
    }
  });
  it('refuses a zero denominator', () => {
    expect(refusal('3/0')).toBe('The quorum fraction cannot have 0 below the line.');
    expect(refusal('0/0')).toBe('The quorum fraction cannot have 0 below the line.');
  });
  it('refuses more than all members', () => {
    expect(refusal('5/4')).toBe('The quorum may not be more than all of the members.');
    expect(refusal('11/10')).toBe('The quorum may not be more than all of the members.');
  });
});

describe('parseMemberMinimum: empty and garbage input', () => {
  it('empty or blank is required', () => {
    expect(refusal('')).toBe('The quorum field is required.');
    expect(refusal('   ')).toBe('The quorum field is required.');
  });
  it('anything else names the three accepted forms', () => {
    for (const text of [
      'half',
      '-5',
      '1.5',
      '15 members',
      '1/4/8',
      '%25',
      '25%%',
      '1,000',
      '1234567',
      '1/2.5',
      'ten',
    ]) {
      expect(refusal(text), text).toBe(GARBAGE);
    }
  });
  it('names the field by its label, "minimum" by default', () => {
    expect(refusal('1/20', 'meeting request minimum')).toBe(
      'The meeting request minimum must be a fraction of at least 1/10 of the members.',
    );
    const r = parseMemberMinimum('half');
    expect(r).toEqual({
      ok: false,
      message: 'The minimum must be a whole number (15), a percentage (25%) or a fraction of at least 1/10 (1/4).',
    });
  });
});

describe('describeMemberMinimum: the bylaws wording', () => {
  it('counts in words and digits', () => {
    expect(describeMemberMinimum({ kind: 'count', count: 1 })).toBe('one (1) voting member');
    expect(describeMemberMinimum({ kind: 'count', count: 2 })).toBe('two (2) voting members');
    expect(describeMemberMinimum({ kind: 'count', count: 15 })).toBe('fifteen (15) voting members');
    expect(describeMemberMinimum({ kind: 'count', count: 20 })).toBe('twenty (20) voting members');
    expect(describeMemberMinimum({ kind: 'count', count: 42 })).toBe('forty-two (42) voting members');
    expect(describeMemberMinimum({ kind: 'count', count: 100 })).toBe('one hundred (100) voting members');
    expect(describeMemberMinimum({ kind: 'count', count: 105 })).toBe('one hundred five (105) voting members');
    expect(describeMemberMinimum({ kind: 'count', count: 999 })).toBe('nine hundred ninety-nine (999) voting members');
  });
  it('keeps digits for 1,000 and more', () => {
    expect(describeMemberMinimum({ kind: 'count', count: 1500 })).toBe('1,500 (1500) voting members');
  });
  it('percentages as typed', () => {
    expect(describeMemberMinimum({ kind: 'percent', percent: 25 })).toBe('25% of the voting members');
    expect(describeMemberMinimum({ kind: 'percent', percent: 12.5 })).toBe('12.5% of the voting members');
  });
  it('common fractions in words, others in figures, n/n as all', () => {
    expect(describeMemberMinimum({ kind: 'fraction', numerator: 1, denominator: 4 })).toBe(
      'one-fourth (1/4) of the voting members',
    );
    expect(describeMemberMinimum({ kind: 'fraction', numerator: 1, denominator: 10 })).toBe(
      'one-tenth (1/10) of the voting members',
    );
    expect(describeMemberMinimum({ kind: 'fraction', numerator: 2, denominator: 3 })).toBe(
      'two-thirds (2/3) of the voting members',
    );
    expect(describeMemberMinimum({ kind: 'fraction', numerator: 2, denominator: 20 })).toBe(
      '2/20 of the voting members',
    );
    expect(describeMemberMinimum({ kind: 'fraction', numerator: 3, denominator: 10 })).toBe(
      '3/10 of the voting members',
    );
    expect(describeMemberMinimum({ kind: 'fraction', numerator: 4, denominator: 4 })).toBe('all of the voting members');
  });
  it('describes what parseMemberMinimum reads', () => {
    expect(describeMemberMinimum(value('1 / 2'))).toBe('one-half (1/2) of the voting members');
    expect(describeMemberMinimum(value('10 %'))).toBe('10% of the voting members');
  });
});
