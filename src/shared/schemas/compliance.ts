import { z } from 'zod';
import { timestampSchema } from '../contracts/common.ts';
import { requiredIsoDate, requiredChoice, requiredInt } from '../validation.ts';
import type { StandingState } from '../rules/standing.ts';

/** The annual IRS returns a filing can be recorded as (docs/requirements/product.md "Compliance calendar"). */
export const FILING_FORMS = ['990-N', '990-EZ', '990'] as const;
export type FilingForm = (typeof FILING_FORMS)[number];

/** Tax years a filing may be recorded for: from the 990-N's first year (2007) to the current year, checked by the server. */
export const FIRST_FILING_TAX_YEAR = 2007;

/**
 * An admin records a filing: `POST /api/admin/accounts/:id/filings` (docs/requirements/product.md "Compliance calendar"). `tax_year` is the
 * calendar year the fiscal year ENDS in (see shared/rules/compliance-calendar.ts); the server also
 * checks the date is not in the future, is after that fiscal year ended, and the year is not taken.
 */
export const filingSchema = z.object({
  tax_year: requiredInt('tax year', FIRST_FILING_TAX_YEAR, 9999),
  form: requiredChoice('form', FILING_FORMS),
  filed_on: requiredIsoDate('filed on'),
});
export type FilingInput = z.infer<typeof filingSchema>;

/** Standing states the revocation-risk list shows, most urgent first (docs/irs-standing.md "States"). */
export const RISK_STATES = [
  'revoked',
  'past_revocation_date',
  'missed_two',
  'missed_one',
  'unless_extended',
] as const satisfies readonly StandingState[];
export type RiskState = (typeof RISK_STATES)[number];

/**
 * One row of GET /api/admin/compliance/risk: a member group or a subordinate of the provider's
 * GEN whose standing (standingOfAccounts: the IRS's BMF, 990-N data and revocation list, and the
 * filings staff recorded) shows a missed due date or a revocation. Dates 'YYYY-MM-DD'.
 */
export const riskRowSchema = z.object({
  account_id: z.number().int(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
  ein: z.string().nullable(),
  /** The GEN it is a subordinate of, per the BMF, or null. */
  gen: z.string().nullable(),
  fiscal_year_end_month: z.number().int().nullable(),
  primary_email: z.string().nullable(),
  standing: z.enum(RISK_STATES),
  standing_label: z.string(),
  /** Tax years whose due date passed with no return seen, oldest first. */
  missed_tax_years: z.array(z.number().int()),
  /** The latest tax year with a return on file (BMF, 990-N data or recorded), or null. */
  latest_tax_year_filed: z.number().int().nullable(),
  /** The due date of the third consecutive missed return: revocation by law that day. */
  revocation_date: z.string().nullable(),
  days_to_revocation: z.number().int().nullable(),
  /** The Automatic Revocation List's date, when revoked. */
  revoked_on: z.string().nullable(),
  /** The IRS releases the standing rests on (release dates), as the standing card cites them. */
  sources: z.object({
    bmf: z.string().nullable(),
    epostcard: z.string().nullable(),
    revocations: z.string().nullable(),
  }),
  /** Staff may record a filing for it (POST /api/admin/accounts/:id/filings: not for an IRS import without a customer account). */
  can_record_filing: z.boolean(),
});
export type RiskRow = z.output<typeof riskRowSchema>;

/** A recorded filing as POST /api/admin/accounts/:id/filings answers it; `filed_on` 'YYYY-MM-DD'. */
export const filingRowSchema = z.object({
  id: z.number().int(),
  tax_year: z.number().int(),
  form: z.string(),
  filed_on: z.string(),
  created_at: timestampSchema,
});
export type FilingRow = z.output<typeof filingRowSchema>;
