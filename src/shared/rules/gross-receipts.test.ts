import { describe, expect, it } from 'vitest';
import { dollars, grossReceiptsTest, receiptsYearsNeeded, type GrossReceiptsResult } from './gross-receipts.ts';

const passed = (r: ReturnType<typeof grossReceiptsTest>) => {
  if (r.passes === null) throw new Error(`missing: ${r.message}`);
  return r as GrossReceiptsResult;
};

describe('gross receipts normally $50,000 or less (IRS; docs/supervision.md)', () => {
  describe('first tax year: received or pledged $75,000 or less', () => {
    it.each([
      [7_500_000, 0, true],
      [7_500_001, 0, false],
      [7_000_000, 500_000, true],
      [7_000_000, 500_001, false],
      [0, 0, true],
    ])('%i cents received + %i pledged passes: %s', (receipts, pledged, passes) => {
      const r = passed(
        grossReceiptsTest({ taxYear: 2025, firstTaxYear: 2025, receiptsCents: receipts, pledgedCents: pledged }),
      );
      expect(r.basis).toBe('first_year');
      expect(r.passes).toBe(passes);
      expect(r.amountCents).toBe(receipts + pledged);
      expect(r.years).toEqual([2025]);
    });

    it('needs no prior year and points to Form 990-EZ or 990 when it fails', () => {
      const r = passed(grossReceiptsTest({ taxYear: 2025, firstTaxYear: 2025, receiptsCents: 7_500_001 }));
      expect(r.message).toBe(
        'First tax year: $75,000.01 received or pledged is more than $75,000, so gross receipts are not normally $50,000 or less. It may not file the e-Postcard (Form 990-N): it files Form 990-EZ or Form 990 for this year instead.',
      );
    });
  });

  describe('second tax year: the first two years average $60,000 or less', () => {
    it.each([
      [6_000_000, 6_000_000, true],
      [6_000_000, 6_000_001, false],
      [11_000_000, 1_000_000, true],
      [11_000_000, 1_000_001, false],
      // A year above $75,000 may still pass on the average.
      [2_000_000, 9_000_000, true],
    ])('%i cents then %i cents passes: %s', (prior, current, passes) => {
      const r = passed(
        grossReceiptsTest({ taxYear: 2025, firstTaxYear: 2024, receiptsCents: current, priorYearCents: prior }),
      );
      expect(r.basis).toBe('two_year_average');
      expect(r.years).toEqual([2024, 2025]);
      expect(r.passes).toBe(passes);
    });

    it('the average shown never contradicts the verdict', () => {
      const fail = passed(
        grossReceiptsTest({ taxYear: 2025, firstTaxYear: 2024, receiptsCents: 6_000_001, priorYearCents: 6_000_000 }),
      );
      expect(fail.amountCents).toBe(6_000_001);
      expect(fail.message).toContain('($60,000.01) is more than $60,000');
      expect(fail.message).toContain('Form 990-EZ or Form 990');
    });

    it('pledges are not counted after the first year', () => {
      const r = passed(
        grossReceiptsTest({
          taxYear: 2025,
          firstTaxYear: 2024,
          receiptsCents: 6_000_000,
          priorYearCents: 6_000_000,
          pledgedCents: 5_000_000,
        }),
      );
      expect(r.passes).toBe(true);
    });

    it('asks for the prior year when it is missing', () => {
      expect(grossReceiptsTest({ taxYear: 2025, firstTaxYear: 2024, receiptsCents: 100 })).toEqual({
        passes: null,
        field: 'priorYearCents',
        message: 'Enter the gross receipts of tax year 2024: the test averages it with 2025.',
      });
    });
  });

  describe('third tax year and later: the 3 tax years ending with this one average $50,000 or less', () => {
    it.each([
      [5_000_000, 5_000_000, 5_000_000, true],
      [5_000_000, 5_000_000, 5_000_001, false],
      [0, 0, 15_000_000, true],
      [0, 0, 15_000_001, false],
      [10_000_000, 4_000_000, 1_000_000, true],
    ])('%i, %i, %i cents passes: %s', (second, prior, current, passes) => {
      const r = passed(
        grossReceiptsTest({
          taxYear: 2025,
          firstTaxYear: 2010,
          receiptsCents: current,
          priorYearCents: prior,
          secondPriorYearCents: second,
        }),
      );
      expect(r.basis).toBe('three_year_average');
      expect(r.years).toEqual([2023, 2024, 2025]);
      expect(r.passes).toBe(passes);
    });

    it('the third tax year itself uses the three-year average', () => {
      const r = passed(
        grossReceiptsTest({
          taxYear: 2025,
          firstTaxYear: 2023,
          receiptsCents: 5_000_000,
          priorYearCents: 5_000_000,
          secondPriorYearCents: 5_000_000,
        }),
      );
      expect(r.basis).toBe('three_year_average');
    });

    it('says what failed and what to file instead', () => {
      const r = passed(
        grossReceiptsTest({
          taxYear: 2025,
          firstTaxYear: 2001,
          receiptsCents: 9_000_000,
          priorYearCents: 4_000_000,
          secondPriorYearCents: 4_000_000,
        }),
      );
      expect(r.passes).toBe(false);
      expect(r.amountCents).toBe(5_666_667);
      expect(r.message).toBe(
        'The average of tax years 2023 to 2025 ($56,666.67) is more than $50,000, so gross receipts are not normally $50,000 or less. It may not file the e-Postcard (Form 990-N): it files Form 990-EZ or Form 990 for this year instead.',
      );
    });

    it('asks for the year two before when it is missing', () => {
      const r = grossReceiptsTest({ taxYear: 2025, firstTaxYear: 2001, receiptsCents: 1, priorYearCents: 1 });
      expect(r).toMatchObject({ passes: null, field: 'secondPriorYearCents' });
    });
  });

  it('refuses a first tax year after the year reported', () => {
    expect(grossReceiptsTest({ taxYear: 2025, firstTaxYear: 2026, receiptsCents: 1 })).toMatchObject({
      passes: null,
      field: 'firstTaxYear',
    });
  });

  it('receiptsYearsNeeded follows the age of the organization', () => {
    expect(receiptsYearsNeeded(2025, 2025)).toEqual({ prior: false, secondPrior: false, pledges: true });
    expect(receiptsYearsNeeded(2025, 2024)).toEqual({ prior: true, secondPrior: false, pledges: false });
    expect(receiptsYearsNeeded(2025, 2023)).toEqual({ prior: true, secondPrior: true, pledges: false });
  });

  it('dollars writes whole dollars without cents', () => {
    expect(dollars(5_000_000)).toBe('$50,000');
    expect(dollars(5_666_667)).toBe('$56,666.67');
    expect(dollars(5)).toBe('$0.05');
  });
});
