import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors.ts';
import { addCounts, readEinList } from './bulk-check.ts';

/** The EINs of an uploaded list (docs/irs-standing.md "Checking a list of EINs"). */
describe('readEinList', () => {
  it('takes the first column, with or without the dash, once each, a header and blank lines skipped', () => {
    const text = '\uFEFFEIN,Name\r\n84-1973353,Boosters\r\n\r\n 010478124 \r\n841973353\r\n"99-0000004",x,y\r\n';
    expect(readEinList(text)).toEqual({ eins: ['841973353', '010478124', '990000004'], lines: 4 });
    // No header: the first line is an EIN.
    expect(readEinList('841973353\n010478124').eins).toEqual(['841973353', '010478124']);
  });

  const refusal = (text: string) => {
    try {
      readEinList(text);
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      return (err as ValidationError).errors;
    }
    throw new Error('not refused');
  };

  it('names the line of the first value that is not an EIN, counting the header and blank lines', () => {
    expect(refusal('EIN\n841973353\n\n84-19733\n')).toEqual({
      file: ['Line 4: "84-19733" is not an EIN (9 digits, with or without the dash).'],
    });
    expect(refusal('841973353\nABC-DEF\n')).toEqual({
      file: ['Line 2: "ABC-DEF" is not an EIN (9 digits, with or without the dash).'],
    });
  });

  it('refuses a file with no EIN, and one CSV cannot read', () => {
    expect(refusal('EIN\n')).toEqual({ file: ['The file holds no EIN: put one EIN on each line.'] });
    expect(refusal('')).toEqual({ file: ['The file holds no EIN: put one EIN on each line.'] });
    expect(refusal('EIN\n"841973353\n')).toEqual({ file: [expect.stringMatching(/^The file cannot be read as CSV/)] });
  });
});

/** A check's counts grow batch by batch (docs/irs-standing.md "Checking a list of EINs"). */
describe('addCounts', () => {
  it('adds a batch to the counts so far, state by state, leaving both untouched', () => {
    const sofar = { good: 3, not_found: 1 };
    const batch = { good: 2, revoked: 1 };
    expect(addCounts(sofar, batch)).toEqual({ good: 5, not_found: 1, revoked: 1 });
    expect(addCounts({}, batch)).toEqual(batch);
    expect(sofar).toEqual({ good: 3, not_found: 1 });
  });
});
