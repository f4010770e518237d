import { z } from 'zod';
import { STANDING_STATES } from '../rules/standing.ts';
import { stripControl } from '../validation.ts';
import { standingViewSchema } from './search.ts';

/**
 * The instant revocation-risk check (docs/irs-standing.md "Instant check", docs/requirements/product.md
 * tool 6): any organization the IRS publishes, by EIN or name.
 */

/** Organizations per page of a name lookup. */
export const IRS_LOOKUP_PER_PAGE = 10;

/** Query of GET /api/irs/organizations: `query` an EIN (9 digits, dash or not) or words of a name; `page` 1-based. */
export const irsLookupQuery = z.object({
  query: z.preprocess(
    (v) => (typeof v === 'string' ? stripControl(v).trim().replace(/\s+/g, ' ').slice(0, 100) : ''),
    z.string().min(2, { error: 'Type an EIN or at least two letters of the name.' }),
  ),
  page: z.preprocess((v) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= 1 ? Math.min(n, 1000) : 1;
  }, z.number().int()),
});
export type IrsLookupQuery = z.infer<typeof irsLookupQuery>;

/** Who an organization is, as the check shows it: no personal names (the in-care-of name is never kept). */
const organizationIdentity = z.object({
  /** 9 digits. */
  ein: z.string(),
  /** Formatted 12-3456789. */
  ein_formatted: z.string(),
  name: z.string(),
  /** The central organization's name, for a subordinate whose own name is the secondary line. */
  other_name: z.string(),
  city: z.string(),
  state: z.string(),
});

/** One organization found. */
export const irsLookupRowSchema = organizationIdentity.extend({
  /** On the Automatic Revocation List only (not in the BMF). */
  revoked_only: z.boolean(),
});

export const irsLookupPageSchema = z.object({
  data: z.array(irsLookupRowSchema),
  page: z.number().int(),
  /** Another page follows (totals are not counted: a common word matches hundreds of thousands). */
  has_more: z.boolean(),
  /** When nothing matches: why that happens, in words. */
  not_found: z.string().nullable(),
});
export type IrsLookupPage = z.output<typeof irsLookupPageSchema>;

/** Params of GET /api/irs/organizations/:ein. */
export const irsEinParams = z.object({ ein: z.string() });

/** One data set an answer rests on, cited with its release. */
const citedSourceSchema = z.object({
  dataset: z.string(),
  /** 'YYYY-MM-DD', or 'YYYY-MM' when the IRS gave only the month. */
  released_on: z.string(),
});

/** The instant answer for one organization. */
export const irsCheckSchema = organizationIdentity.extend({
  gen: z.string(),
  subsection: z.string(),
  ruling_year: z.string(),
  ruling_is_group: z.boolean(),
  deductible: z.string(),
  standing: standingViewSchema.extend({ state: z.enum(STANDING_STATES) }),
  /** What to do next, in order. */
  next_steps: z.array(z.string()),
  sources: z.array(citedSourceSchema),
});
export type IrsCheck = z.output<typeof irsCheckSchema>;
