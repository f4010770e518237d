import { must } from '../must.ts';
/**
 * The bylaws' member minimums (docs/requirements/validation.md "Bylaws hints", docs/requirements/constants.md): the quorum (meeting_attendee_minimum)
 * and the members needed to request a special meeting (meeting_request_minimum) may be a whole
 * number of members, a percentage, or a fraction of at least 1/10 of the voting members.
 */

/** docs/requirements/constants.md: the smallest fraction accepted. */
export const MINIMUM_FRACTION = { numerator: 1, denominator: 10 } as const;

export type MemberMinimum =
  | { kind: 'count'; count: number }
  | { kind: 'percent'; percent: number }
  | { kind: 'fraction'; numerator: number; denominator: number };

export type MemberMinimumResult = { ok: true; value: MemberMinimum } | { ok: false; message: string };

const MAX_COUNT = 100_000;

/**
 * Reads a member minimum as typed: '15', '25%', '25 %', '12.5%', '1/4', '1 / 4'.
 * A percentage is held to the same lower bound as a fraction (10 %), and neither may exceed all
 * members. Messages name the field by `label` (e.g. 'quorum').
 */
export function parseMemberMinimum(input: string, label = 'minimum'): MemberMinimumResult {
  const text = input.trim();
  const fail = (message: string): MemberMinimumResult => ({ ok: false, message });
  if (text === '') return fail(`The ${label} field is required.`);
  let m = /^(\d{1,6})$/.exec(text);
  if (m) {
    const count = Number(m[1]);
    if (count < 1) return fail(`The ${label} must be at least 1 member.`);
    if (count > MAX_COUNT)
      return fail(`The ${label} may not be more than ${MAX_COUNT.toLocaleString('en-US')} members.`);
    return { ok: true, value: { kind: 'count', count } };
  }
  m = /^(\d{1,3}(?:\.\d{1,2})?)\s*(?:%|percent)$/i.exec(text);
  if (m) {
    const percent = Number(m[1]);
    if (percent < 10) return fail(`The ${label} must be at least 10% (1/10) of the members.`);
    if (percent > 100) return fail(`The ${label} may not be more than 100% of the members.`);
    return { ok: true, value: { kind: 'percent', percent } };
  }
  m = /^(\d{1,4})\s*\/\s*(\d{1,4})$/.exec(text);
  if (m) {
    const numerator = Number(m[1]);
    const denominator = Number(m[2]);
    if (denominator === 0) return fail(`The ${label} fraction cannot have 0 below the line.`);
    if (numerator * MINIMUM_FRACTION.denominator < denominator * MINIMUM_FRACTION.numerator) {
      return fail(`The ${label} must be a fraction of at least 1/10 of the members.`);
    }
    if (numerator > denominator) return fail(`The ${label} may not be more than all of the members.`);
    return { ok: true, value: { kind: 'fraction', numerator, denominator } };
  }
  return fail(`The ${label} must be a whole number (15), a percentage (25%) or a fraction of at least 1/10 (1/4).`);
}

const FRACTION_WORDS: Record<string, string> = {
  '1/2': 'one-half',
  '1/3': 'one-third',
  '2/3': 'two-thirds',
  '1/4': 'one-fourth',
  '3/4': 'three-fourths',
  '1/5': 'one-fifth',
  '2/5': 'two-fifths',
  '1/10': 'one-tenth',
  '1/8': 'one-eighth',
  '1/6': 'one-sixth',
};

/**
 * The minimum as the bylaws word it: 'fifteen (15) voting members', '25% of the voting members',
 * 'one-fourth (1/4) of the voting members'.
 */
export function describeMemberMinimum(value: MemberMinimum): string {
  switch (value.kind) {
    case 'count':
      return value.count === 1
        ? 'one (1) voting member'
        : `${numberWords(value.count)} (${value.count}) voting members`;
    case 'percent':
      return `${value.percent}% of the voting members`;
    case 'fraction': {
      const key = `${value.numerator}/${value.denominator}`;
      if (value.numerator === value.denominator) return 'all of the voting members';
      const words = FRACTION_WORDS[key];
      return words ? `${words} (${key}) of the voting members` : `${key} of the voting members`;
    }
  }
}

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** English words for 0..999; larger numbers stay as digits (legal style writes both anyway). */
function numberWords(n: number): string {
  if (n < 20) return must(ONES[n], `the word for ${n}`);
  if (n < 100) return must(TENS[Math.floor(n / 10)], `the word for ${n}`) + (n % 10 ? `-${ONES[n % 10]}` : '');
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${numberWords(n % 100)}` : ''}`;
  return n.toLocaleString('en-US');
}
