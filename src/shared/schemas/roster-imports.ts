import { z } from 'zod';
import { listSearch, listSort } from './list-params.ts';
import type { PageObject } from '../rules/pagination.ts';
import type { RosterRowIssue } from './generic-upload.ts';

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

/**
 * The counts a preview shows. `read`: data rows of the file(s); `gen_rows`: rows of the GEN taken
 * (distinct EINs); `other_gen` / `no_gen`: rows skipped because they carry another GEN or none
 * (GROUP 0000); `rejected`: rows that could not be read or checked; `duplicates`: a repeated EIN
 * of the GEN; `adds`, `changes`, `removals`, `unchanged`: what confirming does.
 */
export interface RosterImportCounts {
  read: number;
  gen_rows: number;
  other_gen: number;
  no_gen: number;
  rejected: number;
  duplicates: number;
  adds: number;
  changes: number;
  removals: number;
  unchanged: number;
}

/** An import as the preview page and the list show it. Dates are ISO 8601. */
export interface RosterImportSummary {
  id: number;
  gen: string;
  group: { id: number; label: string };
  file_name: string;
  status: RosterImportStatus;
  counts: RosterImportCounts;
  /** The states the file covers: removals are proposed only for the GEN's subordinates there. */
  covered_states: string[];
  /** The other GENs met, with their row counts, most rows first (at most 10). */
  other_gens: { gen: string; rows: number }[];
  /** The first rejected rows and repeated EINs, with reasons. */
  rejected: RosterRowIssue[];
  skipped: RosterRowIssue[];
  created_by: string | null;
  created_at: string;
  confirmed_by: string | null;
  confirmed_at: string | null;
  undone_by: string | null;
  undone_at: string | null;
  /** Confirm is offered (a preview no later import has overtaken). */
  can_confirm: boolean;
  /** Undo is offered (the latest confirmed import of its GEN). */
  can_undo: boolean;
  /** Why confirm or undo is not offered when the status alone would allow it; null otherwise. */
  blocked_reason: string | null;
}

/** One column an import changes, with its label and values before and after. */
export interface RosterColumnChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

/** One row of a preview list. */
export interface RosterImportRow {
  id: number;
  action: RosterImportAction;
  ein: string;
  account_id: number | null;
  name: string;
  city: string;
  state: string;
  /** For changes: the IRS columns that differ (shown ones only). */
  changes: RosterColumnChange[];
}

export type RosterImportRowsPage = PageObject<RosterImportRow>;
export type RosterImportsPage = PageObject<RosterImportSummary>;

/** The answer of confirm, discard and undo: a message for the toast and the import as it is now. */
export interface RosterImportActionAnswer {
  message: string;
  import: RosterImportSummary;
}

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
