import {
  rosterImportActionAnswerSchema,
  rosterImportRowSchema,
  rosterImportRowsQuery,
  rosterImportsQuery,
  rosterImportSummarySchema,
} from '../schemas/roster-imports.ts';
import { fileAnswer, recordIdParams, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/**
 * Roster imports of IRS files (docs/irs-data.md "Roster import"), staff only: the list of past
 * imports and its CSV export (docs/staff-lists.md), one import and its preview lists, and confirm,
 * discard and undo, each audited (404 for an unknown import, 409 for an action its status or a
 * later import of its GEN does not allow).
 */
export const adminRosterImportsContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/roster-imports',
    access: 'staff',
    summary: 'Past roster imports searched by GEN or file name, filtered by status, sorted by a column',
    querystring: rosterImportsQuery,
    response: { 200: pageObjectSchema(rosterImportSummarySchema), 422: validationFailedSchema },
  }),
  exportCsv: defineContract({
    method: 'GET',
    url: '/api/admin/roster-imports/export.csv',
    access: 'staff',
    summary: 'Every roster import the list shows with the same search, status and sort, as CSV',
    querystring: rosterImportsQuery,
    response: { 200: fileAnswer('The roster imports as CSV, one row per import'), 422: validationFailedSchema },
    produces: ['text/csv'],
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/admin/roster-imports/:id',
    access: 'staff',
    summary: "One roster import's counts, status and the actions it offers",
    params: recordIdParams,
    response: { 200: rosterImportSummarySchema },
  }),
  rows: defineContract({
    method: 'GET',
    url: '/api/admin/roster-imports/:id/rows',
    access: 'staff',
    summary: "A page of one roster import's adds, changes or removals",
    params: recordIdParams,
    querystring: rosterImportRowsQuery,
    response: { 200: pageObjectSchema(rosterImportRowSchema), 422: validationFailedSchema },
  }),
  confirm: defineContract({
    method: 'POST',
    url: '/api/admin/roster-imports/:id/confirm',
    access: 'staff',
    summary: "Apply a roster import's preview to the accounts (409 when it is no longer a preview or was overtaken)",
    params: recordIdParams,
    response: { 200: rosterImportActionAnswerSchema },
  }),
  discard: defineContract({
    method: 'POST',
    url: '/api/admin/roster-imports/:id/discard',
    access: 'staff',
    summary: "Drop a roster import's preview without applying it (409 when it is no longer a preview)",
    params: recordIdParams,
    response: { 200: rosterImportActionAnswerSchema },
  }),
  undo: defineContract({
    method: 'POST',
    url: '/api/admin/roster-imports/:id/undo',
    access: 'staff',
    summary: 'Reverse a confirmed roster import as one batch (409 unless it is the latest confirmed one of its GEN)',
    params: recordIdParams,
    response: { 200: rosterImportActionAnswerSchema },
  }),
};
