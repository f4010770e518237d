import { irsBulkCheckListSchema, irsBulkCheckSchema } from '../schemas/irs-bulk-check.ts';
import { fileAnswer, recordIdParams, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/**
 * Checking a list of EINs (docs/irs-standing.md "Checking a list of EINs"), staff only: upload a CSV
 * of EINs, follow its progress, download the CSV of standings, list earlier checks. 401 for
 * visitors, 403 for account users, 404 for an unknown check.
 */
export const adminIrsBulkChecksContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/irs-bulk-checks',
    access: 'staff',
    summary: 'The latest checks of a list of EINs, newest first',
    response: { 200: irsBulkCheckListSchema },
  }),
  /** Multipart: one CSV or text file in `file`, one EIN a line (a header line optional). */
  upload: defineContract({
    method: 'POST',
    url: '/api/admin/irs-bulk-checks',
    access: 'staff',
    summary: 'Start checking a CSV of EINs (multipart: file); 422 names the line of the first value that is not an EIN',
    response: { 201: irsBulkCheckSchema, 422: validationFailedSchema },
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/admin/irs-bulk-checks/:id',
    access: 'staff',
    summary: "One check's progress (EINs done of the total), status and counts by standing",
    params: recordIdParams,
    response: { 200: irsBulkCheckSchema },
  }),
  result: defineContract({
    method: 'GET',
    url: '/api/admin/irs-bulk-checks/:id/result.csv',
    access: 'staff',
    summary: 'The standings of a finished check as CSV, one line per EIN (409 while it runs)',
    params: recordIdParams,
    response: { 200: fileAnswer('The standings as CSV, one row per EIN') },
    produces: ['text/csv'],
  }),
};
