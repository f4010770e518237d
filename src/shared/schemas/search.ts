import { z } from 'zod';
import { STANDING_STATES } from '../rules/standing.ts';
import { stripControl } from '../validation.ts';
import type { Pub78Listing } from '../rules/deductibility.ts';

/** Query of GET /search (docs/requirements/calls.md): search=verify-501c3, keyword, page (1-based). */
export const subordinateSearchQuery = z.object({
  search: z.literal('verify-501c3', { error: 'The selected search is invalid.' }),
  keyword: z.preprocess((v) => (typeof v === 'string' ? stripControl(v).trim().slice(0, 100) : ''), z.string()),
  page: z.preprocess((v) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= 1 ? Math.min(n, 100_000) : 1;
  }, z.number().int()),
});
export type SubordinateSearchQuery = z.infer<typeof subordinateSearchQuery>;

/** One row of the subordinate listing (docs/requirements/screens.md: Name, City, State). */
export const subordinateRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
});
export type SubordinateRow = z.infer<typeof subordinateRowSchema>;

/** Rows per search page. */
export const SEARCH_PER_PAGE = 15;

/** The states of a group's exemption (src/shared/rules/standing.ts), most urgent last. */
const standingStateSchema = z.enum(STANDING_STATES);

/** An organization's place in the Publication 78 data (src/shared/rules/deductibility.ts `Pub78Listing`). */
const pub78ListingSchema = z.object({
  status: z.enum(['listed', 'through_central', 'not_listed'] as const satisfies readonly Pub78Listing['status'][]),
  codes: z.array(z.object({ code: z.string(), meaning: z.string() })),
});

/** A group's standing facts as the pages show them (docs/irs-standing.md); dates 'YYYY-MM-DD'. */
const irsFactsViewSchema = z.object({
  status_code: z.string(),
  status_meaning: z.string(),
  /** 1-12, or null when unknown. */
  fiscal_year_end_month: z.number().int().nullable(),
  /** The IRS's words for FILING_REQ_CD (and PF_FILING_REQ_CD 1). */
  filing_requirement: z.string(),
  /** The return owed each year in words, e.g. 'Form 990-PF', or why none is. */
  return_owed: z.string(),
  /** What a late return costs, with its source; '' when no return is owed. */
  late_cost: z.string(),
  latest_tax_year_filed: z.number().int().nullable(),
  /** The end of the latest period with a return on file, 'YYYY-MM' (a short period's month may differ from the fiscal year end). */
  latest_period_filed: z.string().nullable(),
  missed_tax_years: z.array(z.number().int()),
  /** Due before the release while a Form 8868 extension could still run: missed unless extended. */
  unless_extended_tax_years: z.array(z.number().int()),
  /** Every return owed whose due date has passed, with where it stands (docs/irs-standing.md "Returns owed"). */
  returns: z.array(
    z.object({
      period_end: z.string(),
      due: z.string(),
      extended_due: z.string().nullable(),
      extension: z.enum(['recorded', 'possible', 'none']),
      status: z.enum(['missed', 'missed_unless_extended', 'awaiting_data', 'extended']),
    }),
  ),
  /** Tax years due since the IRS data was released: whether they were filed is not known yet. */
  awaiting_data_tax_years: z.array(z.number().int()),
  next_due: z.object({ tax_year: z.number().int(), due: z.string(), days_left: z.number().int() }).nullable(),
  /** The day the exemption is (or was) revoked by law if nothing more is filed; null when no return is owed. */
  revocation_date: z.string().nullable(),
  /** The revocation date if the third return was extended with Form 8868 (none recorded). */
  revocation_date_if_extended: z.string().nullable(),
  days_to_revocation: z.number().int().nullable(),
  revoked_on: z.string().nullable(),
  reinstated_on: z.string().nullable(),
  /** Its place in the Publication 78 data (eligible to receive deductible contributions); null while none is loaded. */
  pub78: pub78ListingSchema.nullable(),
  /** Release dates of the IRS data the facts came from: 'YYYY-MM-DD', or 'YYYY-MM' when the IRS gave only the month. */
  sources: z.object({
    bmf: z.string().nullable(),
    epostcard: z.string().nullable(),
    revocations: z.string().nullable(),
    pub78: z.string().nullable(),
  }),
});
export type IrsFactsView = z.output<typeof irsFactsViewSchema>;

/** A group's standing as the staff and account pages show it (docs/irs-standing.md). */
export const standingViewSchema = z.object({
  state: standingStateSchema,
  label: z.string(),
  irs: irsFactsViewSchema,
});
export type StandingView = z.output<typeof standingViewSchema>;

/** The public profile of an account (docs/requirements/screens.md /app/account/show/{id}). */
export const publicProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  legal_name: z.string(),
  city: z.string(),
  state: z.string(),
  /** Formatted 12-3456789, or '' when unknown. */
  ein: z.string(),
  gen: z.string(),
  ruling_year: z.string(),
  /** The RULING is its group exemption's (a subordinate, BMF AFFILIATION 9), not its own recognition. */
  ruling_is_group: z.boolean(),
  subsection: z.string(),
  /** Whether gifts are tax deductible, in words: never "Yes" once the exemption may be lost. */
  deductible: z.string(),
  standing: standingStateSchema,
  standing_label: z.string(),
  /** The facts behind the standing (docs/irs-standing.md). No personal names. */
  irs: irsFactsViewSchema,
  public_profile_image: z.string(),
});
export type PublicProfile = z.output<typeof publicProfileSchema>;
