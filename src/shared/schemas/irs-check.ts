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

/** A page cursor of a name lookup: the EIN of the organization the page starts after or ends before. */
const lookupCursor = z.preprocess(
  (v) => (typeof v === 'string' && v !== '' ? v.replace(/-/g, '') : undefined),
  z
    .string()
    .regex(/^\d{9}$/, { error: 'A page link names an organization by its 9-digit EIN.' })
    .optional(),
);

/**
 * Query of GET /api/irs/organizations: `query` an EIN (9 digits, dash or not) or words of a name;
 * `after` (the next page) or `before` (the previous page) the EIN of an organization the pages
 * start after or end before, as the previous answer's `next` and `previous` give them (keyset
 * pages: a deep page reads only its own rows, docs/irs-standing.md "Keyset pages").
 */
export const irsLookupQuery = z
  .object({
    query: z.preprocess(
      (v) => (typeof v === 'string' ? stripControl(v).trim().replace(/\s+/g, ' ').slice(0, 100) : ''),
      z.string().min(2, { error: 'Type an EIN or at least two letters of the name.' }),
    ),
    after: lookupCursor,
    before: lookupCursor,
  })
  .refine((q) => !(q.after && q.before), {
    error: 'A page link goes either after or before an organization, not both.',
    path: ['before'],
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
  /**
   * The next page's `after` (the EIN of this page's last organization), null when no page follows.
   * Totals are not counted: a common word matches hundreds of thousands.
   */
  next: z.string().nullable(),
  /** The previous page's `before` (the EIN of this page's first organization), null on the first page. */
  previous: z.string().nullable(),
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
