import { z } from 'zod';
import { stripControl } from '../validation.ts';
import type { Pub78Listing } from '../rules/deductibility.ts';
import type { StandingState } from '../rules/standing.ts';

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

/** A group's standing facts as the pages show them (docs/irs-standing.md); dates 'YYYY-MM-DD'. */
export interface IrsFactsView {
  status_code: string;
  status_meaning: string;
  /** 1-12, or null when unknown. */
  fiscal_year_end_month: number | null;
  filing_requirement: string;
  latest_tax_year_filed: number | null;
  missed_tax_years: number[];
  /** Tax years due since the IRS data was released: whether they were filed is not known yet. */
  awaiting_data_tax_years: number[];
  next_due: { tax_year: number; due: string; days_left: number } | null;
  /** The day the exemption is (or was) revoked by law if nothing more is filed; null when no return is owed. */
  revocation_date: string | null;
  days_to_revocation: number | null;
  revoked_on: string | null;
  reinstated_on: string | null;
  /** Its place in the Publication 78 data (eligible to receive deductible contributions); null while none is loaded. */
  pub78: Pub78Listing | null;
  /** Release dates of the IRS data the facts came from. */
  sources: { bmf: string | null; epostcard: string | null; revocations: string | null; pub78: string | null };
}

/** A group's standing as the staff and account pages show it (docs/irs-standing.md). */
export interface StandingView {
  state: StandingState;
  label: string;
  irs: IrsFactsView;
}

/** The public profile of an account (docs/requirements/screens.md /app/account/show/{id}). */
export interface PublicProfile {
  id: number;
  name: string;
  legal_name: string;
  city: string;
  state: string;
  /** Formatted 12-3456789, or '' when unknown. */
  ein: string;
  gen: string;
  ruling_year: string;
  subsection: string;
  is_deductible: boolean;
  standing: StandingState;
  standing_label: string;
  /** The facts behind the standing (docs/irs-standing.md). No personal names. */
  irs: IrsFactsView;
  public_profile_image: string;
}
