import { z } from 'zod';
import { stripControl } from '../validation.ts';
import type { Standing } from '../rules/standing.ts';

/** Query of GET /search (SPEC §7): search=verify-501c3, keyword, page (1-based). */
export const subordinateSearchQuery = z.object({
  search: z.literal('verify-501c3', { error: 'The selected search is invalid.' }),
  keyword: z.preprocess((v) => (typeof v === 'string' ? stripControl(v).trim().slice(0, 100) : ''), z.string()),
  page: z.preprocess(
    (v) => {
      const n = Number(v);
      return Number.isInteger(n) && n >= 1 ? Math.min(n, 100_000) : 1;
    },
    z.number().int(),
  ),
});
export type SubordinateSearchQuery = z.infer<typeof subordinateSearchQuery>;

/** One row of the subordinate listing (SPEC §2: Name, City, State). */
export interface SubordinateRow {
  id: number;
  name: string;
  city: string;
  state: string;
}

/** Rows per search page. */
export const SEARCH_PER_PAGE = 15;

/** The public profile of an account (SPEC §2 /app/account/show/{id}). */
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
  standing: Standing;
  standing_label: string;
  public_profile_image: string;
}
