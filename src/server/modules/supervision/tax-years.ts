import { fiscalYearEnd } from '../../../shared/rules/compliance-calendar.ts';

/**
 * The latest tax year whose fiscal year has ended on `today` (the calendar year the fiscal year
 * ENDS in, as filings.tax_year): a 990-N cannot be filed before its year ends (IRS Publication
 * 5248). An unknown fiscal year end is taken as December, the most common one.
 * Requirement: docs/supervision.md "Tax year".
 * @param fiscalYearEndMonth 1-12 or null
 * @param today 'YYYY-MM-DD'
 */
export function latestEndedTaxYear(fiscalYearEndMonth: number | null, today: string): number {
  const month = fiscalYearEndMonth && fiscalYearEndMonth >= 1 && fiscalYearEndMonth <= 12 ? fiscalYearEndMonth : 12;
  const year = Number(today.slice(0, 4));
  return fiscalYearEnd(month, year) < today ? year : year - 1;
}
