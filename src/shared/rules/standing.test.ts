import { describe, expect, it } from 'vitest';
import {
  computeStanding,
  deductibilityText,
  extendedDueDate,
  irsStatusMeaning,
  isDeductible,
  lateCostText,
  periodDueDate,
  returnOwed,
  subsectionLabel,
  type StandingFacts,
} from './standing.ts';

/** A December-year 990-N filer on the BMF, exempt since 2005 (the shape of most GEN 5271 rows). */
const facts = (over: Partial<StandingFacts> = {}): StandingFacts => ({
  onBmf: true,
  irsStatus: '01',
  filingRequirement: '02',
  fiscalYearEndMonth: 12,
  ruling: '200510',
  bmfTaxPeriod: '202412',
  filedTaxYears: [],
  revocations: [],
  dataAsOf: null,
  ...over,
});

describe('computeStanding', () => {
  it('Powerhouse Academy Cheer Booster: latest return 2022-12, three returns missed, revoked by law on 15 May 2026', () => {
    // eo_ok.csv, EIN 873240715: TAX_PERIOD 202212, ACCT_PD 12, FILING_REQ_CD 02.
    const s = computeStanding(facts({ bmfTaxPeriod: '202212', ruling: '200510' }), '2026-11-25');
    expect(s.state).toBe('past_revocation_date');
    expect(s.missedTaxYears).toEqual([2023, 2024, 2025]);
    expect(s.revocationDate).toBe('2026-05-15');
    expect(s.daysToRevocation).toBe(-194);
    expect(s.latestTaxYearFiled).toBe(2022);
    expect(s.nextDue).toEqual({ taxYear: 2026, due: '2027-05-17', daysLeft: 173 });
  });

  it('with the April 2026 BMF, the third return (due 15 May 2026) is not in the data yet: revoked unless it was filed', () => {
    const s = computeStanding(facts({ bmfTaxPeriod: '202212', dataAsOf: '2026-04-01' }), '2026-11-25');
    expect(s.state).toBe('past_revocation_date');
    expect(s.label).toBe('Past its revocation date: revoked unless a return was filed');
    expect(s.missedTaxYears).toEqual([2023, 2024]);
    expect(s.awaitingDataTaxYears).toEqual([2025]);
    expect(s.revocationDate).toBe('2026-05-15');
  });

  it('does not count as missed a return due after the IRS data was released', () => {
    // CHS Lady Knights Flag Football (eo_ak.csv): TAX_PERIOD 202506, June year end; the 2026 return
    // was due 16 Nov 2026, after the April 2026 release.
    const s = computeStanding(
      facts({ bmfTaxPeriod: '202506', fiscalYearEndMonth: 6, dataAsOf: '2026-04-01' }),
      '2026-11-26',
    );
    expect(s.state).toBe('good');
    expect(s.missedTaxYears).toEqual([]);
    expect(s.awaitingDataTaxYears).toEqual([2026]);
    expect(s.nextDue?.due).toBe('2027-11-15');
  });

  it('counts down to the revocation date before it comes', () => {
    const s = computeStanding(facts({ bmfTaxPeriod: '202212' }), '2026-03-01');
    expect(s.state).toBe('missed_two');
    expect(s.label).toBe('Two years missed: IRS notice expected');
    expect(s.missedTaxYears).toEqual([2023, 2024]);
    expect(s.revocationDate).toBe('2026-05-15');
    expect(s.daysToRevocation).toBe(75);
    expect(s.nextDue?.due).toBe('2026-05-15');
  });

  it('a year is missed only once its due date has passed', () => {
    expect(computeStanding(facts({ bmfTaxPeriod: '202312' }), '2025-05-15').state).toBe('good');
    const after = computeStanding(facts({ bmfTaxPeriod: '202312' }), '2025-05-16');
    expect(after.state).toBe('missed_one');
    expect(after.missedTaxYears).toEqual([2024]);
  });

  it('moves a due date that falls on a weekend to the next business day (June 2025 year: 15 Nov 2025 is a Saturday)', () => {
    const s = computeStanding(facts({ fiscalYearEndMonth: 6, bmfTaxPeriod: '202406' }), '2025-11-17');
    expect(s.state).toBe('good');
    expect(s.nextDue).toEqual({ taxYear: 2025, due: '2025-11-17', daysLeft: 0 });
    expect(computeStanding(facts({ fiscalYearEndMonth: 6, bmfTaxPeriod: '202406' }), '2025-11-18').state).toBe(
      'missed_one',
    );
  });

  it('counts a late return and returns seen in the 990-N data or recorded by staff', () => {
    const late = computeStanding(facts({ bmfTaxPeriod: '202212', filedTaxYears: [2025] }), '2026-11-25');
    expect(late.state).toBe('good');
    expect(late.latestTaxYearFiled).toBe(2025);
    expect(late.revocationDate).toBe('2029-05-15');
  });

  it('with no return ever filed, counts from the first fiscal year ending after the ruling', () => {
    // Ruled in August 2024 with a June year end: the first return is for the year ending June
    // 2025 (due 17 Nov 2025), the second for June 2026 (due 16 Nov 2026).
    const s = computeStanding(facts({ bmfTaxPeriod: null, fiscalYearEndMonth: 6, ruling: '202408' }), '2026-11-25');
    expect(s.missedTaxYears).toEqual([2025, 2026]);
    expect(s.state).toBe('missed_two');
    expect(s.revocationDate).toBe(
      computeStanding(facts({ bmfTaxPeriod: '202406', fiscalYearEndMonth: 6 }), '2026-11-25').revocationDate,
    );
  });

  it("a subordinate of a group ruling with no return on file: the GEN's ruling does not start a count", () => {
    // 52 of GEN 5271's subordinates: RULING 200510 (the GEN's), no TAX_PERIOD.
    const s = computeStanding(facts({ bmfTaxPeriod: null, groupRuling: true }), '2026-11-25');
    expect(s).toMatchObject({
      state: 'no_return_seen',
      label: 'No return in the IRS data yet',
      missedTaxYears: [],
      revocationDate: null,
      daysToRevocation: null,
      nextDue: { taxYear: 2026, due: '2027-05-17', daysLeft: 173 },
    });
    // On 10 May 2027 the 2026 return (due Monday 17 May 2027, the 15th being a Saturday) is next.
    expect(computeStanding(facts({ bmfTaxPeriod: null, groupRuling: true }), '2027-05-10').nextDue).toMatchObject({
      taxYear: 2026,
      due: '2027-05-17',
    });
    // Once a return is on file, the count runs from it as for anyone.
    expect(computeStanding(facts({ bmfTaxPeriod: '202212', groupRuling: true }), '2026-11-25').state).toBe(
      'past_revocation_date',
    );
    expect(
      computeStanding(facts({ bmfTaxPeriod: null, groupRuling: true, filedTaxYears: [2025] }), '2026-11-25').state,
    ).toBe('good');
  });

  it('counts from a ruling newer than the latest return (a new exemption), not from the old return', () => {
    // Wyoming Peace Officers Association (eo_wy.csv): TAX_PERIOD 201308, RULING 202509, ACCT_PD 06.
    const s = computeStanding(
      facts({ bmfTaxPeriod: '201308', ruling: '202509', fiscalYearEndMonth: 6, filingRequirement: '01' }),
      '2026-11-25',
    );
    // The June 2026 return (Form 990 or 990-EZ) was due 16 Nov 2026; Form 8868 could extend it to
    // 17 May 2027, so it is missed only unless extended.
    expect(s.missedTaxYears).toEqual([]);
    expect(s.unlessExtendedTaxYears).toEqual([2026]);
    expect(s.state).toBe('unless_extended');
    expect(s.revocationDate).toBe('2028-11-15');
    expect(s.revocationDateIfExtended).toBe('2029-05-15');
  });

  it('is revoked when on the Automatic Revocation List, whatever the BMF says', () => {
    const s = computeStanding(
      facts({ onBmf: false, revocations: [{ revokedOn: '2026-05-15', postedOn: '2026-08-10', reinstatedOn: null }] }),
      '2026-11-25',
    );
    expect(s.state).toBe('revoked');
    expect(s.revocation?.revokedOn).toBe('2026-05-15');
  });

  it('is reinstated after a reinstatement date, and counts missed returns again from then', () => {
    const entry = { revokedOn: '2020-05-15', postedOn: '2020-09-01', reinstatedOn: '2021-03-01' };
    expect(computeStanding(facts({ bmfTaxPeriod: '202512', revocations: [entry] }), '2026-11-25').state).toBe(
      'reinstated',
    );
    const later = computeStanding(facts({ bmfTaxPeriod: '201612', revocations: [entry] }), '2026-11-25');
    expect(later.missedTaxYears[0]).toBe(2021);
    expect(later.state).toBe('past_revocation_date');
  });

  it('owes nothing when the filing requirement code requires no annual return', () => {
    expect(computeStanding(facts({ filingRequirement: '03', bmfTaxPeriod: '201012' }), '2026-11-25').state).toBe(
      'group_return',
    );
    for (const code of ['00', '06', '07', '13', '14']) {
      expect(
        computeStanding(facts({ filingRequirement: code, bmfTaxPeriod: '201012' }), '2026-11-25').state,
        code,
      ).toBe('not_required');
    }
    expect(computeStanding(facts({ filingRequirement: '01', bmfTaxPeriod: '201012' }), '2026-11-25').state).toBe(
      'past_revocation_date',
    );
  });

  it('is not listed when the organization is in no IRS file', () => {
    expect(computeStanding(facts({ onBmf: false, irsStatus: null }), '2026-11-25').state).toBe('not_listed');
  });

  it('never treats BMF status 02, 12 or 25 as "not exempt"', () => {
    for (const code of ['02', '12', '25']) {
      expect(computeStanding(facts({ irsStatus: code }), '2026-01-10').state, code).toBe('good');
      expect(irsStatusMeaning(code)).not.toMatch(/not exempt/i);
    }
    expect(irsStatusMeaning('01')).toBe('Unconditional exemption');
    expect(irsStatusMeaning('02')).toBe('Conditional exemption');
  });
});

describe('profile facts', () => {
  it('labels subsections and deductibility', () => {
    expect(subsectionLabel('03')).toBe('501(c)(3)');
    expect(subsectionLabel(null)).toBe('');
    expect(isDeductible('1')).toBe(true);
    expect(isDeductible('2')).toBe(false);
  });
});

describe('extensions (docs/irs-standing.md "Rules": Form 8868)', () => {
  it('extends to the 15th day of the 11th month after the period, moved to a business day', () => {
    expect(extendedDueDate('2025-12')).toBe('2026-11-16'); // 15 Nov 2026 is a Sunday
    expect(extendedDueDate('2025-06')).toBe('2026-05-15');
    expect(periodDueDate('2025-06')).toBe('2025-11-17'); // 15 Nov 2025 is a Saturday
  });

  it('a recorded extension that runs past today is the next due date, not a missed return', () => {
    const s = computeStanding(
      facts({
        filingRequirement: '01',
        bmfTaxPeriod: '202412',
        extensions: [{ periodEnd: '2025-12', extendedDue: '2026-11-16' }],
      }),
      '2026-06-01',
    );
    expect(s.returns).toEqual([
      {
        periodEnd: '2025-12',
        taxYear: 2025,
        due: '2026-05-15',
        extendedDue: '2026-11-16',
        extension: 'recorded',
        status: 'extended',
      },
    ]);
    expect(s.state).toBe('good');
    expect(s.nextDue).toEqual({ taxYear: 2025, due: '2026-11-16', daysLeft: 168 });
  });

  it('never offers an extension to a Form 990-N', () => {
    const s = computeStanding(facts({ bmfTaxPeriod: '202412' }), '2026-06-01');
    expect(s.returns).toEqual([
      {
        periodEnd: '2025-12',
        taxYear: 2025,
        due: '2026-05-15',
        extendedDue: null,
        extension: 'none',
        status: 'missed',
      },
    ]);
    expect(s.revocationDateIfExtended).toBeNull();
  });
});

describe('returnOwed (docs/irs-standing.md "Returns owed")', () => {
  it('reads PF_FILING_REQ_CD before FILING_REQ_CD, and makes nothing up for an unpublished code', () => {
    expect(returnOwed('00', '1')).toEqual({ kind: 'return', form: '990-PF', extension: true, latePenalty: true });
    expect(returnOwed('01', '0')).toEqual({
      kind: 'return',
      form: '990-EZ or 990',
      extension: true,
      latePenalty: true,
    });
    expect(returnOwed('02', '0')).toEqual({ kind: 'return', form: '990-N', extension: false, latePenalty: false });
    expect(returnOwed('03', '0')).toEqual({ kind: 'group_return' });
    expect(returnOwed('06', '0')).toEqual({ kind: 'none', label: 'Not required to file (church)' });
    expect(returnOwed('00', '2')?.kind).toBe('unknown');
    expect(returnOwed('99', '0')?.kind).toBe('unknown');
    expect(returnOwed(null, null)).toBeNull();
  });

  it('says what a late return costs: nothing for the 990-N, the §6652(c) daily penalty for the others', () => {
    expect(lateCostText(returnOwed('02', '0'), 2026)).toBe(
      'No penalty for a late Form 990-N, and a late one still counts.',
    );
    const pf = lateCostText(returnOwed('00', '1'), 2027);
    expect(pf).toContain('IRC §6652(c)(1)(A)');
    expect(pf).toContain("for a return due in 2027, see the IRS's Instructions for Form 990-PF for tax year 2026.");
    expect(lateCostText(returnOwed('06', '0'), 2026)).toBe('');
  });

  it("states staff's figures for the year the return is due, with their source, and only for that year", () => {
    // Sample figures, not the IRS's: the product keeps the IRS's as data staff enter from its instructions.
    const figures = {
      dueYear: 2027,
      dailyCents: 3000,
      maximumCents: 1_500_000,
      largeReceiptsOverCents: 150_000_000,
      largeDailyCents: 15_000,
      largeMaximumCents: 7_500_000,
      source: 'Sample instructions',
      sourceUrl: '',
    };
    expect(lateCostText(returnOwed('01', '0'), 2027, figures)).toContain(
      "For a return due in 2027: $30.00 a day, up to the lesser of $15,000.00 or 5% of the organization's gross receipts for the year; " +
        'with gross receipts over $1,500,000.00, $150.00 a day, up to $75,000.00 (source: Sample instructions).',
    );
    expect(lateCostText(returnOwed('01', '0'), 2026, figures)).toContain(
      "for a return due in 2026, see the IRS's Instructions for Form 990 for tax year 2025.",
    );
    expect(lateCostText(returnOwed('02', '0'), 2027, figures)).toBe(
      'No penalty for a late Form 990-N, and a late one still counts.',
    );
  });

  it('never calls a revoked organization, or one past its revocation date, deductible', () => {
    expect(deductibilityText('1', 'good')).toBe('Yes');
    expect(deductibilityText('2', 'good')).toBe('No');
    expect(deductibilityText('1', 'revoked')).toBe('No: the exemption is revoked');
    expect(deductibilityText('1', 'past_revocation_date')).toBe('Not assured: past its revocation date');
  });
});
