import { z } from 'zod';
import { listSearch, listSort } from './list-params.ts';
import type { PageObject } from '../rules/pagination.ts';

/**
 * Roster import safety (docs/irs-data.md "Roster import"): an IRS EO BMF file
 * dropped on the uploader is staged as a preview for the central organization's GEN (adds,
 * changes, removals), applied only when staff confirm, and can be undone as one batch.
 */

/** What one staged row does: a new subordinate, a change to an account's IRS columns, or a subordinate taken off the public list. */
export const ROSTER_IMPORT_ACTIONS = ['add', 'change', 'remove'] as const;
export type RosterImportAction = (typeof ROSTER_IMPORT_ACTIONS)[number];

export type RosterImportStatus = 'preview' | 'confirmed' | 'discarded' | 'undone';

/** Rows per page of the preview's lists. */
export const ROSTER_IMPORT_ROWS_PER_PAGE = 25;
/** Imports per page of the list of past imports. */
export const ROSTER_IMPORTS_PER_PAGE = 10;

const page = z.coerce.number().int().min(1).max(100_000).catch(1);

/** Columns the list of roster imports sorts by (`sort`, "-" for descending); newest first by default. */
export const ROSTER_IMPORT_SORTS = ['created_at', 'id', 'gen', 'file_name', 'status'] as const;
/** The most rows GET /api/admin/roster-imports/export.csv writes. */
export const ROSTER_IMPORTS_EXPORT_CAP = 10_000;

/**
 * Query of GET /api/admin/roster-imports and its CSV export (docs/staff-lists.md): `search` (the
 * GEN, or every word of the file's name), `status` (empty: any), `sort` (ROSTER_IMPORT_SORTS),
 * 1-based `page` (anything unreadable is page 1).
 */
export const rosterImportsQuery = z.object({
  search: listSearch,
  status: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(['preview', 'confirmed', 'discarded', 'undone'], { error: 'The selected status is invalid.' }).optional(),
  ),
  sort: listSort(ROSTER_IMPORT_SORTS, '-created_at'),
  page,
});
export type RosterImportsQuery = z.infer<typeof rosterImportsQuery>;

/** Query of GET /api/admin/roster-imports/{id}/rows: which list (`action`) and 1-based `page`. */
export const rosterImportRowsQuery = z.object({
  action: z.enum(ROSTER_IMPORT_ACTIONS, { error: 'The list must be add, change or remove.' }),
  page,
});
export type RosterImportRowsQuery = z.infer<typeof rosterImportRowsQuery>;

/** A row that was not taken, with why. `row` is the file's line number (the header is line 1). */
export const rosterRowIssueSchema = z.object({ file_name: z.string(), row: z.number().int(), reason: z.string() });
export type RosterRowIssue = z.output<typeof rosterRowIssueSchema>;

/**
 * The counts a preview shows. `read`: data rows of the file(s); `gen_rows`: rows of the GEN taken
 * (distinct EINs); `other_gen` / `no_gen`: rows skipped because they carry another GEN or none
 * (GROUP 0000); `rejected`: rows that could not be read or checked; `duplicates`: a repeated EIN
 * of the GEN; `adds`, `changes`, `removals`, `unchanged`: what confirming does.
 */
const rosterImportCountsSchema = z.object({
  read: z.number().int(),
  gen_rows: z.number().int(),
  other_gen: z.number().int(),
  no_gen: z.number().int(),
  rejected: z.number().int(),
  duplicates: z.number().int(),
  adds: z.number().int(),
  changes: z.number().int(),
  removals: z.number().int(),
  unchanged: z.number().int(),
});
export type RosterImportCounts = z.output<typeof rosterImportCountsSchema>;

/** An import as the preview page and the list show it. Dates are ISO 8601. */
export const rosterImportSummarySchema = z.object({
  id: z.number().int(),
  gen: z.string(),
  group: z.object({ id: z.number().int(), label: z.string() }),
  file_name: z.string(),
  status: z.enum(['preview', 'confirmed', 'discarded', 'undone'] as const satisfies readonly RosterImportStatus[]),
  counts: rosterImportCountsSchema,
  /** The states the file covers: removals are proposed only for the GEN's subordinates there. */
  covered_states: z.array(z.string()),
  /** The other GENs met, with their row counts, most rows first (at most 10). */
  other_gens: z.array(z.object({ gen: z.string(), rows: z.number().int() })),
  /** The first rejected rows and repeated EINs, with reasons. */
  rejected: z.array(rosterRowIssueSchema),
  skipped: z.array(rosterRowIssueSchema),
  created_by: z.string().nullable(),
  created_at: z.string(),
  confirmed_by: z.string().nullable(),
  confirmed_at: z.string().nullable(),
  undone_by: z.string().nullable(),
  undone_at: z.string().nullable(),
  /** Confirm is offered (a preview no later import has overtaken). */
  can_confirm: z.boolean(),
  /** Undo is offered (the latest confirmed import of its GEN). */
  can_undo: z.boolean(),
  /** Why confirm or undo is not offered when the status alone would allow it; null otherwise. */
  blocked_reason: z.string().nullable(),
});
export type RosterImportSummary = z.output<typeof rosterImportSummarySchema>;

/** One column an import changes, with its label and values before and after. */
const rosterColumnChangeSchema = z.object({
  field: z.string(),
  label: z.string(),
  before: z.string(),
  after: z.string(),
});
export type RosterColumnChange = z.output<typeof rosterColumnChangeSchema>;

/** One row of a preview list; `account_id` is null for an add (no account yet). */
export const rosterImportRowSchema = z.object({
  id: z.number().int(),
  action: z.enum(ROSTER_IMPORT_ACTIONS),
  ein: z.string(),
  account_id: z.number().int().nullable(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
  /** For changes: the IRS columns that differ (shown ones only). */
  changes: z.array(rosterColumnChangeSchema),
});
export type RosterImportRow = z.output<typeof rosterImportRowSchema>;

export type RosterImportRowsPage = PageObject<RosterImportRow>;
export type RosterImportsPage = PageObject<RosterImportSummary>;

/** The answer of confirm, discard and undo: a message for the toast and the import as it is now. */
export const rosterImportActionAnswerSchema = z.object({
  message: z.string(),
  import: rosterImportSummarySchema,
});
export type RosterImportActionAnswer = z.output<typeof rosterImportActionAnswerSchema>;

/** Labels of the account columns an import shows as changed (the IRS EO BMF field in brackets). */
export const ROSTER_COLUMN_LABELS: Record<string, string> = {
  name: 'Name',
  legalName: 'Legal name (NAME)',
  careOf: 'In care of (ICO)',
  street: 'Street',
  city: 'City',
  state: 'State',
  zip: 'ZIP',
  gen: 'GEN (GROUP)',
  subsection: '501(c) paragraph (SUBSECTION)',
  affiliation: 'Affiliation',
  ruling: 'Ruling (YYYYMM)',
  deductibility: 'Deductibility',
  irsStatus: 'Status code',
  taxPeriod: 'Latest tax period',
  filingRequirement: 'Filing requirement (FILING_REQ_CD)',
  fiscalYearEndMonth: 'Fiscal year end month (ACCT_PD)',
  nteeCode: 'NTEE code',
  foundation: 'Foundation code (FOUNDATION)',
  isListed: 'Listed in the public search',
};
