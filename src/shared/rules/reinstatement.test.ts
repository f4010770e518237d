import { describe, expect, it } from 'vitest';
import { workItemSummary } from '../schemas/work-queue.ts';
import {
  REINSTATEMENT_ITEM_KEYS,
  reinstatementDeadline,
  reinstatementPaths,
  reinstatementWorkText,
  type ReinstatementFacts,
} from './reinstatement.ts';
import { returnOwed } from './standing.ts';

/**
 * The ways back after an automatic revocation (docs/irs-standing.md "Reinstatement"; Rev. Proc.
 * 2014-11, 2014-3 I.R.B. 411, sections 4 to 7).
 */

/** A first revocation on 15 May 2026, posted on the list on 10 August 2026: the 15 months end 10 November 2027. */
const REVOKED: ReinstatementFacts = {
  obligation: returnOwed('02', '0'),
  grossReceipts: null,
  earlierRevocations: 0,
  revokedOn: '2026-05-15',
  postedOn: '2026-08-10',
};

const fits = (facts: ReinstatementFacts, today: string) =>
  reinstatementPaths(facts, today).map((p) => [p.section, p.fit, p.deadline]);

describe('the deadline: 15 months from the posting date (Rev. Proc. 2014-11 §4, §5)', () => {
  it('is the same day of the month 15 months later', () => {
    expect(reinstatementDeadline('2026-08-10')).toBe('2027-11-10');
    expect(reinstatementDeadline('2025-01-31')).toBe('2026-04-30');
    expect(reinstatementDeadline('2026-12-15')).toBe('2028-03-15');
  });

  it('is the last day of the month when that month has no such day', () => {
    // 30 November 2025 + 15 months: there is no 30 February 2027.
    expect(reinstatementDeadline('2025-11-30')).toBe('2027-02-28');
    expect(reinstatementDeadline('2025-11-29')).toBe('2027-02-28');
    // 2028 is a leap year: 29 February exists.
    expect(reinstatementDeadline('2026-11-30')).toBe('2028-02-29');
    expect(reinstatementDeadline('2026-11-29')).toBe('2028-02-29');
    expect(reinstatementDeadline('2027-05-31')).toBe('2028-08-31');
    expect(reinstatementDeadline('2026-03-31')).toBe('2027-06-30');
  });

  it('refuses a date that is not one', () => {
    expect(() => reinstatementDeadline('2026-02-30')).toThrow(RangeError);
    expect(() => reinstatementPaths({ ...REVOKED, postedOn: '2026-13-01' }, '2026-11-28')).toThrow(RangeError);
    expect(() => reinstatementPaths(REVOKED, '28/11/2026')).toThrow(RangeError);
  });
});

describe('which path fits', () => {
  it('a Form 990-N filer revoked for the first time, within the 15 months: §4 streamlined fits', () => {
    const paths = reinstatementPaths(REVOKED, '2026-11-28');
    expect(paths.map((p) => [p.section, p.fit, p.deadline])).toEqual([
      ['4', 'fits', '2027-11-10'],
      ['5', 'does_not_fit', '2027-11-10'],
      ['6', 'does_not_fit', null],
      ['7', 'fits', null],
    ]);
    expect(paths[0].title).toBe('Streamlined retroactive reinstatement');
    // A 990-N filer owed no Form 990-EZ: no late one to file.
    expect(paths[0].items.map((i) => i.key)).toEqual(['s4_application', 's4_heading', 's4_submit']);
    expect(paths[0].items[1].text).toContain('"Revenue Procedure 2014-11, Streamlined Retroactive Reinstatement"');
    expect(paths[1].reason).toBe('The streamlined process fits, and asks for less.');
  });

  it('the last day of the 15 months is still within them; the day after is not', () => {
    expect(fits(REVOKED, '2027-11-10')[0]).toEqual(['4', 'fits', '2027-11-10']);
    expect(fits(REVOKED, '2027-11-11').slice(0, 3)).toEqual([
      ['4', 'does_not_fit', '2027-11-10'],
      ['5', 'does_not_fit', '2027-11-10'],
      ['6', 'fits', null],
    ]);
  });

  it('a Form 990 or 990-EZ filer whose receipts are not known: §4 and §5 may fit', () => {
    const paths = reinstatementPaths({ ...REVOKED, obligation: returnOwed('01', '0') }, '2026-11-28');
    expect(paths.map((p) => p.fit)).toEqual(['may_fit', 'may_fit', 'does_not_fit', 'fits']);
    expect(paths[0].reason).toMatch(/gross receipts under \$200,000 and total assets under \$500,000/);
    // A late Form 990-EZ for each year one was required.
    expect(paths[0].items.map((i) => i.key)).toContain('s4_late_990ez');
  });

  it('a Form 990 filer over the 990-EZ limits: §4 does not fit, §5 does', () => {
    const paths = reinstatementPaths(
      { ...REVOKED, obligation: returnOwed('01', '0'), grossReceipts: 'over_ez_limits' },
      '2026-11-28',
    );
    expect(paths.map((p) => [p.section, p.fit])).toEqual([
      ['4', 'does_not_fit'],
      ['5', 'fits'],
      ['6', 'does_not_fit'],
      ['7', 'fits'],
    ]);
    expect(paths[1].items.map((i) => i.key)).toEqual([
      's5_application',
      's5_reasonable_cause',
      's5_late_returns',
      's5_returns_filed_statement',
      's5_submit',
    ]);
    expect(paths[1].items[1].text).toMatch(/at least one of the three years/);
  });

  it('a Form 990-EZ filer under the limits: §4 fits, with its late 990-EZ returns', () => {
    const [s4] = reinstatementPaths(
      { ...REVOKED, obligation: returnOwed('01', '0'), grossReceipts: 'under_ez_limits' },
      '2026-11-28',
    );
    expect(s4.fit).toBe('fits');
    expect(s4.items.map((i) => i.key)).toEqual(['s4_application', 's4_heading', 's4_late_990ez', 's4_submit']);
  });

  it('a private foundation (Form 990-PF): §4 does not fit, whatever its receipts', () => {
    const [s4, s5] = reinstatementPaths(
      { ...REVOKED, obligation: returnOwed('00', '1'), grossReceipts: 'under_ez_limits' },
      '2026-11-28',
    );
    expect([s4.fit, s5.fit]).toEqual(['does_not_fit', 'fits']);
    expect(s4.reason).toMatch(/private foundation/);
  });

  it('past the 15 months: §6 with reasonable cause for all three years, or §7 from the postmark date', () => {
    const paths = reinstatementPaths(REVOKED, '2028-01-05');
    expect(paths.map((p) => [p.section, p.fit])).toEqual([
      ['4', 'does_not_fit'],
      ['5', 'does_not_fit'],
      ['6', 'fits'],
      ['7', 'fits'],
    ]);
    expect(paths[0].reason).toBe('The 15 months ended on November 10, 2027.');
    expect(paths[2].items[1].text).toMatch(/each of the three years/);
    expect(paths[3].reason).toMatch(/postmarked, not before/);
  });

  it('revoked twice: §4 does not fit even within the 15 months; §5 does', () => {
    const paths = reinstatementPaths({ ...REVOKED, earlierRevocations: 1 }, '2026-11-28');
    expect(paths.map((p) => [p.section, p.fit])).toEqual([
      ['4', 'does_not_fit'],
      ['5', 'fits'],
      ['6', 'does_not_fit'],
      ['7', 'fits'],
    ]);
    expect(paths[0].reason).toMatch(/revoked the organization automatically before/);
  });

  it('no posting date on the list: no deadline, and the 15-month paths may fit', () => {
    expect(fits({ ...REVOKED, postedOn: null }, '2026-11-28')).toEqual([
      ['4', 'may_fit', null],
      ['5', 'may_fit', null],
      ['6', 'may_fit', null],
      ['7', 'fits', null],
    ]);
  });

  it('never calls the organization exempt or gifts to it deductible', () => {
    const texts = [REVOKED, { ...REVOKED, obligation: returnOwed('01', '0') }]
      .flatMap((f) => [...reinstatementPaths(f, '2026-11-28'), ...reinstatementPaths(f, '2028-01-05')])
      .flatMap((p) => [p.title, p.reason, ...p.items.map((i) => i.text)]);
    for (const text of texts) expect(text).not.toMatch(/\bis exempt|deductible/i);
  });

  it('every item of every path has a stable key', () => {
    const keys = reinstatementPaths({ ...REVOKED, obligation: null }, '2026-11-28').flatMap((p) =>
      p.items.map((i) => i.key),
    );
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...REINSTATEMENT_ITEM_KEYS].sort());
  });
});

describe('staff\'s work item names the way back (docs/work-queue.md "Kinds")', () => {
  it('the path within the 15 months and its deadline, whatever day it is read', () => {
    expect(reinstatementWorkText(REVOKED)).toBe(
      'Way back (Rev. Proc. 2014-11): §4 streamlined by 2027-11-10; after that §6, or §7 from the postmark date.',
    );
    expect(reinstatementWorkText({ ...REVOKED, earlierRevocations: 1 })).toMatch(/: §5 by 2027-11-10;/);
    expect(reinstatementWorkText({ ...REVOKED, obligation: returnOwed('01', '0') })).toMatch(
      /: §4 streamlined if it could file Form 990-EZ or 990-N each year, else §5 by 2027-11-10;/,
    );
    expect(reinstatementWorkText({ ...REVOKED, postedOn: null })).toBeNull();
  });

  it('in the line the work queue shows, from the details the build writes', () => {
    expect(
      workItemSummary('revoked', {
        revoked_on: '2025-11-17',
        posted_on: '2025-11-30',
        legal_name: 'TEST BOOSTERS INC',
        filing_requirement: '02',
        pf_filing_requirement: '0',
        earlier_revocations: 0,
      }),
    ).toBe(
      'On the Automatic Revocation List: revoked 2025-11-17, posted 2025-11-30. Way back (Rev. Proc. 2014-11): §4 streamlined by 2027-02-28; after that §6, or §7 from the postmark date.',
    );
    // An item built before these details were kept, without a posting date: as before.
    expect(workItemSummary('revoked', { revoked_on: '2026-05-15', posted_on: null })).toBe(
      'On the Automatic Revocation List: revoked 2026-05-15.',
    );
  });
});
