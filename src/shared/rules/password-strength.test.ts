import { describe, expect, it } from 'vitest';
import { passwordScore, passwordStrength, STRENGTH_BAR_THRESHOLDS, STRENGTH_LABELS } from './password-strength.ts';

describe('passwordScore (docs/requirements/validation.md)', () => {
  it('starts at 1 for an empty password', () => {
    expect(passwordScore('')).toBe(1);
  });

  describe('each rule that adds a point, alone', () => {
    it('a length of at least 8 counts four times', () => {
      // Eight digits in no ascending run, no repeats: only the length rule applies.
      expect(passwordScore('19283746')).toBe(1 + 4);
      expect(passwordScore('1928374')).toBe(1);
    });

    it('a lowercase letter adds 1', () => {
      expect(passwordScore('a')).toBe(2);
    });

    it('an uppercase letter adds 1', () => {
      expect(passwordScore('A')).toBe(2);
    });

    it('a letter and a digit together with no whitespace add 1', () => {
      expect(passwordScore('A1')).toBe(1 + 1 /* upper */ + 1 /* letter+digit */);
      // Whitespace cancels the letter-and-digit point.
      expect(passwordScore('A 1')).toBe(1 + 1);
      // Digits only, letters only: no point.
      expect(passwordScore('1')).toBe(1);
      expect(passwordScore('Z')).toBe(2);
    });

    it('one special character of !%&@#$^*?_~ adds 1, a second adds another', () => {
      for (const ch of '!%&@#$^*?_~') expect(passwordScore(ch), ch).toBe(2);
      expect(passwordScore('!%')).toBe(3);
      expect(passwordScore('!%&')).toBe(3);
    });

    it('other punctuation is not special', () => {
      for (const ch of '-+=.,;:()[]{}"\'/\\|<>`') expect(passwordScore(ch), ch).toBe(1);
    });
  });

  describe('each rule that takes a point away, alone', () => {
    it('a character repeated three times subtracts 1', () => {
      expect(passwordScore('A7A7')).toBe(3);
      expect(passwordScore('AAA7')).toBe(2);
      expect(passwordScore('777A')).toBe(2);
      expect(passwordScore('!!!')).toBe(3 - 1);
      // Twice is fine.
      expect(passwordScore('AA7')).toBe(3);
    });

    it('an ascending letter or digit run subtracts 1', () => {
      expect(passwordScore('ABC')).toBe(2 - 1);
      expect(passwordScore('XYZ')).toBe(2 - 1);
      expect(passwordScore('123')).toBe(1 - 1);
      expect(passwordScore('789')).toBe(1 - 1);
      // Case does not matter for runs.
      expect(passwordScore('aBc')).toBe(1 + 1 + 1 - 1);
      // Descending and broken runs do not count.
      expect(passwordScore('CBA')).toBe(2);
      expect(passwordScore('321')).toBe(1);
      expect(passwordScore('ABD')).toBe(2);
      // A run mixing letters and digits is not a run.
      expect(passwordScore('89A')).toBe(3);
    });

    it('the keyboard patterns qwer and asdf subtract 1, in any case', () => {
      expect(passwordScore('QWER')).toBe(2 - 1);
      expect(passwordScore('ASDF')).toBe(2 - 1);
      expect(passwordScore('qwer')).toBe(2 - 1);
      expect(passwordScore('QWE')).toBe(2);
    });

    it('the penalties add up', () => {
      // Lowercase (+1), repeated (-1), run (-1), qwer (-1).
      expect(passwordScore('aaabcqwer')).toBe(1 + 4 + 1 - 3);
    });
  });

  it.each([
    ['', 1],
    ['a', 2],
    ['password', 6],
    ['password1', 7],
    ['Password1', 8],
    ['Password1!', 9],
    ['Pa$sword1!', 10],
    ['Tr0ub4dor&3', 9],
    ['correct horse battery staple', 6],
    ['Correct Horse Battery Staple', 7],
    ['abc12345', 6],
    ['qwerty123', 5],
    ['Asdf1234!', 7],
    ['aaaaaaaa', 5],
    ['12345678', 4],
    ['zX9!kq#mL2', 10],
    ['   ', 0],
  ])('scores %j as %i', (password, score) => {
    expect(passwordScore(password)).toBe(score);
  });

  it('never goes above 10', () => {
    expect(passwordScore('Zx9!Kq#mL2@pW7%rT5^')).toBe(10);
  });
});

describe('passwordStrength: bars and labels', () => {
  it('has five labels, weakest first, and five bar thresholds', () => {
    expect(STRENGTH_LABELS).toEqual(['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong']);
    expect(STRENGTH_BAR_THRESHOLDS).toEqual([0, 6, 7, 8, 9]);
  });

  // One password per score from 1 to 10, checked by passwordScore first.
  const byScore: Record<number, string> = {
    1: '',
    2: 'a',
    3: 'a!',
    4: 'a1!',
    5: 'a1!#',
    6: 'password',
    7: 'zk1bmqwt',
    8: 'zk1bmqw!',
    9: 'zK1bmqw!',
    10: 'zK1bmq#!',
  };

  it.each(Object.entries(byScore).map(([s, p]) => [Number(s), p] as const))('score %i (%j)', (score, password) => {
    expect(passwordScore(password)).toBe(score);
  });

  it.each([
    [1, 1, 'Very weak'],
    [2, 1, 'Very weak'],
    [6, 1, 'Very weak'],
    [7, 2, 'Weak'],
    [8, 3, 'Fair'],
    [9, 4, 'Strong'],
    [10, 5, 'Very strong'],
  ] as const)('score %i lights %i bars and reads %s', (score, bars, label) => {
    expect(passwordStrength(byScore[score])).toEqual({ score, bars, label });
  });

  it('a score below 1 lights no bar and still reads Very weak', () => {
    const r = passwordStrength('123');
    expect(r.score).toBe(0);
    expect(r.bars).toBe(0);
    expect(r.label).toBe('Very weak');
  });

  it('labels change exactly above 6, 7, 8 and 9', () => {
    const labels = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((s) => passwordStrength(byScore[s]).label);
    expect(labels).toEqual([
      'Very weak',
      'Very weak',
      'Very weak',
      'Very weak',
      'Very weak',
      'Very weak',
      'Weak',
      'Fair',
      'Strong',
      'Very strong',
    ]);
  });
});
