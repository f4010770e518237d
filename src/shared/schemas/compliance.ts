import { z } from 'zod';
import { msg, requiredChoice, requiredInt, stripControl } from '../validation.ts';
import { parseIsoDate, type RevocationRisk } from '../rules/compliance-calendar.ts';

/** The annual IRS returns a filing can be recorded as (issue 7). */
export const FILING_FORMS = ['990-N', '990-EZ', '990'] as const;
export type FilingForm = (typeof FILING_FORMS)[number];

/** Tax years a filing may be recorded for: from the 990-N's first year (2007) to the current year, checked by the server. */
export const FIRST_FILING_TAX_YEAR = 2007;

/** A required calendar date 'YYYY-MM-DD' (what `<input type="date">` sends). */
function requiredIsoDate(label: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' ? stripControl(v).trim() : v ?? ''),
    z.string({ error: msg.required(label) }).min(1, msg.required(label)).refine((s) => {
      try {
        parseIsoDate(s);
        return true;
      } catch {
        return false;
      }
    }, `The ${label} field must be a valid date.`),
  );
}

/**
 * An admin records a filing: `POST /api/admin/accounts/:id/filings` (issue 7). `tax_year` is the
 * calendar year the fiscal year ENDS in (see shared/rules/compliance-calendar.ts); the server also
 * checks the date is not in the future, is after that fiscal year ended, and the year is not taken.
 */
export const filingSchema = z.object({
  tax_year: requiredInt('tax year', FIRST_FILING_TAX_YEAR, 9999),
  form: requiredChoice('form', FILING_FORMS),
  filed_on: requiredIsoDate('filed on'),
});
export type FilingInput = z.infer<typeof filingSchema>;

/** One row of GET /api/admin/compliance/risk: a customer account at revocation risk. */
export interface RiskRow {
  account_id: number;
  name: string;
  city: string;
  state: string;
  fiscal_year_end_month: number;
  primary_email: string | null;
  risk: Exclude<RevocationRisk, 'ok'>;
  /** The latest tax year whose due date has passed. */
  latest_due_tax_year: number;
  /** Tax years from the account's first (its creation year) to latest_due_tax_year without a filing, newest first (at most 3). */
  missing_tax_years: number[];
  /** The newest recorded filing's tax year, or null. */
  last_filed_tax_year: number | null;
}
