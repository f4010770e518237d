/**
 * The Form 990-N gross receipts test: are the organization's gross receipts "normally $50,000 or
 * less"? (IRS "Gross Receipts Normally $50,000 or Less"; Treas. Reg. §1.6033-2(g); docs/supervision.md
 * "Gross receipts test"; /work/shared/docs/requirements/tax-rules.md "Annual filing".) Pure and browser-safe: the form
 * runs it as the officer types and the server runs it again on the submitted numbers.
 *
 * Amounts are integer cents. Tax years are the product's: the calendar year the fiscal year ENDS in
 * (see compliance-calendar.ts). The rule depends on which of the organization's tax years is
 * being reported (its "age" in tax years):
 * - its first tax year (in existence 1 year or less): received, or donors pledged, $75,000 or less
 *   in that year;
 * - its second tax year (between 1 and 3 years): the average of its first two tax years is
 *   $60,000 or less;
 * - its third tax year or later (at least 3 years): the average over the 3 tax years ending with
 *   the year being reported (that year and the 2 before it) is $50,000 or less.
 * Averages are compared exactly (sum ≤ limit × years), never rounded.
 */

/** $50,000: the 990-N limit of gross receipts normally received, in cents. */
const NORMALLY_LIMIT_CENTS = 5_000_000;
/** $75,000: the first tax year's limit (received or pledged), in cents. */
const FIRST_YEAR_LIMIT_CENTS = 7_500_000;
/** $60,000: the limit of the average of the first two tax years, in cents. */
const TWO_YEAR_AVERAGE_LIMIT_CENTS = 6_000_000;

/** Which of the three rules applied. */
type GrossReceiptsBasis = 'first_year' | 'two_year_average' | 'three_year_average';

export interface GrossReceiptsInput {
  /** The tax year being reported (the calendar year its fiscal year ends in). */
  taxYear: number;
  /** The organization's first tax year (same convention); not after `taxYear`. */
  firstTaxYear: number;
  /** Gross receipts of `taxYear`: everything received, before expenses; integer cents ≥ 0. */
  receiptsCents: number;
  /** Gross receipts of `taxYear - 1`; needed from the second tax year on. */
  priorYearCents?: number | null;
  /** Gross receipts of `taxYear - 2`; needed from the third tax year on. */
  secondPriorYearCents?: number | null;
  /** First tax year only: gifts donors pledged during the year and not yet received. */
  pledgedCents?: number | null;
}

export interface GrossReceiptsResult {
  /** true: gross receipts are normally $50,000 or less, the 990-N may be filed. */
  passes: boolean;
  basis: GrossReceiptsBasis;
  /** The tax years the test counted, oldest first. */
  years: number[];
  /** What the test compared to its limit: the first year's total, or the average (to the cent, rounded toward the verdict, for display). */
  amountCents: number;
  /** The limit of this basis, in cents. */
  limitCents: number;
  /** A sentence for the officer: the test, its numbers and, when it fails, what to file instead. */
  message: string;
}

/** The test could not be run: a year's receipts are missing or the years do not fit. `field` names the input. */
export interface GrossReceiptsMissing {
  passes: null;
  field: 'firstTaxYear' | 'priorYearCents' | 'secondPriorYearCents' | 'receiptsCents';
  message: string;
}

const isCents = (v: number | null | undefined): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** '$50,000' or '$1,234.56' for integer cents (whole dollars without cents). */
export function dollars(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return `$${whole.toLocaleString('en-US')}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
}

/**
 * An average for display: rounded down when the test passes and up when it fails, so a shown
 * average never contradicts the verdict ($50,000.01 is shown as more than $50,000).
 */
const roundedAverage = (sum: number, years: number, passes: boolean) =>
  passes ? Math.floor(sum / years) : Math.ceil(sum / years);

const OTHER_FORMS =
  'It may not file the e-Postcard (Form 990-N): it files Form 990-EZ or Form 990 for this year instead.';

/**
 * Runs the gross receipts test for one tax year (see the module comment for the three rules).
 * @returns the result with a message for the officer, or GrossReceiptsMissing naming the input
 *   that is missing (a prior year's receipts the rule needs) or does not fit (a first tax year
 *   after the year reported)
 */
export function grossReceiptsTest(input: GrossReceiptsInput): GrossReceiptsResult | GrossReceiptsMissing {
  const { taxYear, firstTaxYear } = input;
  if (!Number.isInteger(firstTaxYear) || firstTaxYear > taxYear) {
    return {
      passes: null,
      field: 'firstTaxYear',
      message: `The first tax year must not be after the tax year reported (${taxYear}).`,
    };
  }
  if (!isCents(input.receiptsCents))
    return { passes: null, field: 'receiptsCents', message: 'Enter the gross receipts of the year in dollars.' };
  const yearNumber = taxYear - firstTaxYear + 1;

  if (yearNumber === 1) {
    const amount = input.receiptsCents + (isCents(input.pledgedCents) ? input.pledgedCents : 0);
    const passes = amount <= FIRST_YEAR_LIMIT_CENTS;
    return {
      passes,
      basis: 'first_year',
      years: [taxYear],
      amountCents: amount,
      limitCents: FIRST_YEAR_LIMIT_CENTS,
      message: passes
        ? `First tax year: ${dollars(amount)} received or pledged is not more than $75,000, so gross receipts are normally $50,000 or less.`
        : `First tax year: ${dollars(amount)} received or pledged is more than $75,000, so gross receipts are not normally $50,000 or less. ${OTHER_FORMS}`,
    };
  }
  if (!isCents(input.priorYearCents)) {
    return {
      passes: null,
      field: 'priorYearCents',
      message: `Enter the gross receipts of tax year ${taxYear - 1}: the test averages it with ${taxYear}.`,
    };
  }
  if (yearNumber === 2) {
    const sum = input.priorYearCents + input.receiptsCents;
    const passes = sum <= 2 * TWO_YEAR_AVERAGE_LIMIT_CENTS;
    const average = roundedAverage(sum, 2, passes);
    return {
      passes,
      basis: 'two_year_average',
      years: [taxYear - 1, taxYear],
      amountCents: average,
      limitCents: TWO_YEAR_AVERAGE_LIMIT_CENTS,
      message: passes
        ? `Second tax year: the average of ${taxYear - 1} and ${taxYear} (${dollars(average)}) is not more than $60,000, so gross receipts are normally $50,000 or less.`
        : `Second tax year: the average of ${taxYear - 1} and ${taxYear} (${dollars(average)}) is more than $60,000, so gross receipts are not normally $50,000 or less. ${OTHER_FORMS}`,
    };
  }
  if (!isCents(input.secondPriorYearCents)) {
    return {
      passes: null,
      field: 'secondPriorYearCents',
      message: `Enter the gross receipts of tax year ${taxYear - 2}: the test averages ${taxYear - 2} to ${taxYear}.`,
    };
  }
  const sum = input.secondPriorYearCents + input.priorYearCents + input.receiptsCents;
  const passes = sum <= 3 * NORMALLY_LIMIT_CENTS;
  const average = roundedAverage(sum, 3, passes);
  return {
    passes,
    basis: 'three_year_average',
    years: [taxYear - 2, taxYear - 1, taxYear],
    amountCents: average,
    limitCents: NORMALLY_LIMIT_CENTS,
    message: passes
      ? `The average of tax years ${taxYear - 2} to ${taxYear} (${dollars(average)}) is not more than $50,000, so gross receipts are normally $50,000 or less.`
      : `The average of tax years ${taxYear - 2} to ${taxYear} (${dollars(average)}) is more than $50,000, so gross receipts are not normally $50,000 or less. ${OTHER_FORMS}`,
  };
}

/** Which prior years' receipts the test needs for `taxYear` of an organization whose first tax year is `firstTaxYear`. */
export function receiptsYearsNeeded(
  taxYear: number,
  firstTaxYear: number,
): { prior: boolean; secondPrior: boolean; pledges: boolean } {
  const n = taxYear - firstTaxYear + 1;
  return { prior: n >= 2, secondPrior: n >= 3, pledges: n === 1 };
}
