import { describe, expect, it } from 'vitest';
import { pub78Listing } from './deductibility.ts';

describe('pub78Listing', () => {
  it("lists an organization's own codes with the IRS meanings, and names an unknown code", () => {
    expect(pub78Listing(['EO', 'LODGE'], null)).toEqual({
      status: 'listed',
      codes: [
        {
          code: 'EO',
          meaning: 'An organization described in section 170(c) other than a public charity or a private foundation',
        },
        {
          code: 'LODGE',
          meaning:
            'A domestic fraternal society under the lodge system: deductible only when the contribution is used exclusively for charitable purposes',
        },
      ],
    });
    expect(pub78Listing(['ZZZ'], null).codes).toEqual([{ code: 'ZZZ', meaning: 'Code ZZZ' }]);
  });

  it('covers a subordinate through its central organization only when the central entry has GROUP', () => {
    expect(pub78Listing(null, ['GROUP', 'PC'])).toEqual({ status: 'through_central', codes: [] });
    expect(pub78Listing(null, ['PC'])).toEqual({ status: 'not_listed', codes: [] });
    expect(pub78Listing(null, null)).toEqual({ status: 'not_listed', codes: [] });
    // Its own entry wins over the central organization's.
    expect(pub78Listing(['PF'], ['GROUP']).status).toBe('listed');
  });
});
