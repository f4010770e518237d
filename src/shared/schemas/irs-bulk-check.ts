import { z } from 'zod';
import { STANDING_STATES } from '../rules/standing.ts';

/**
 * Checking a list of EINs (docs/irs-standing.md "Checking a list of EINs"): staff upload a CSV of
 * EINs and download a CSV of standings, computed as the instant check computes one.
 */

/** The most EINs one file may hold (data rows, before duplicates are dropped). */
export const IRS_BULK_CHECK_MAX_ROWS = 50_000;
/** The largest file taken, in bytes: 50,000 lines of a dashed EIN and a few more columns. */
export const IRS_BULK_CHECK_MAX_BYTES = 4 * 1024 * 1024;
/** The form field that carries the file. */
export const IRS_BULK_CHECK_FIELD = 'file';
/** Earlier checks the list shows, newest first. */
export const IRS_BULK_CHECKS_LISTED = 20;

/** The result CSV's columns, in order. */
export const IRS_BULK_CHECK_COLUMNS = [
  'EIN',
  'Name',
  'City',
  'State',
  'Standing',
  'Return owed',
  'Latest return',
  'Missed years',
  'Revocation date',
  'On the revocation list',
  'Deductibility',
  'Next step',
  'Release cited',
] as const;

/** One line of the result CSV, by column; a "not found" line says why in `next_step`. No personal names. */
export const irsBulkCheckRowSchema = z.object({
  ein: z.string(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
  standing: z.string(),
  return_owed: z.string(),
  latest_return: z.string(),
  missed_years: z.string(),
  revocation_date: z.string(),
  on_revocation_list: z.string(),
  deductibility: z.string(),
  next_step: z.string(),
  release_cited: z.string(),
});
export type IrsBulkCheckRow = z.output<typeof irsBulkCheckRowSchema>;

/** Organizations per standing state, and `not_found`. */
export const irsBulkCheckCountsSchema = z.partialRecord(z.enum([...STANDING_STATES, 'not_found']), z.number().int());
export type IrsBulkCheckCounts = z.output<typeof irsBulkCheckCountsSchema>;

/** One check as its page and the list show it. Dates ISO 8601; `done` of `total` distinct EINs. */
export const irsBulkCheckSchema = z.object({
  id: z.number().int(),
  file_name: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  counts: irsBulkCheckCountsSchema,
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type IrsBulkCheck = z.output<typeof irsBulkCheckSchema>;

/** The latest checks, and the days a finished check is kept before it is deleted (null: kept for good). */
export const irsBulkCheckListSchema = z.object({
  data: z.array(irsBulkCheckSchema),
  kept_days: z.number().int().nullable(),
});
export type IrsBulkCheckList = z.output<typeof irsBulkCheckListSchema>;
