import { z } from 'zod';
import { genSettingsSchema, genSubmitSchema, genUpdateQuery, genUpdateViewSchema } from '../schemas/gen-updates.ts';
import { fileAnswer, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/** An answer in words: what was saved, or why it was refused (409). */
const messageSchema = z.object({ message: z.string() });

/** Admin → GEN update (docs/irs-gen-duties.md): staff only. */
export const adminGenUpdateContracts = {
  show: defineContract({
    method: 'GET',
    url: '/api/admin/gen-update',
    access: 'staff',
    summary: "A group's GEN settings, filing window, lines, checks, submission and the transition checklist",
    querystring: genUpdateQuery,
    response: { 200: genUpdateViewSchema },
  }),
  saveSettings: defineContract({
    method: 'PUT',
    url: '/api/admin/gen-update/settings',
    access: 'staff',
    summary: "Save a group's GEN settings: central organization, accounting period, 501(c) paragraph (audited)",
    body: genSettingsSchema,
    response: { 200: messageSchema, 422: validationFailedSchema },
  }),
  exportCsv: defineContract({
    method: 'GET',
    url: '/api/admin/gen-update/export.csv',
    access: 'staff',
    summary: 'The lines of the GEN update as CSV, with the same group and period',
    querystring: genUpdateQuery,
    response: { 200: fileAnswer('The GEN update as CSV, one row per subordinate') },
    produces: ['text/csv'],
  }),
  exportPdf: defineContract({
    method: 'GET',
    url: '/api/admin/gen-update/export.pdf',
    access: 'staff',
    summary: 'The GEN update as a PDF to send to the IRS, with the same group and period',
    querystring: genUpdateQuery,
    response: { 200: fileAnswer('The GEN update as a PDF') },
    produces: ['application/pdf'],
  }),
  submit: defineContract({
    method: 'POST',
    url: '/api/admin/gen-update/submit',
    access: 'staff',
    summary: 'Record the day the GEN update of a period was submitted to the IRS, once (audited)',
    body: genSubmitSchema,
    response: {
      200: z.object({ message: z.string(), in_window: z.boolean() }),
      409: messageSchema,
      422: validationFailedSchema,
    },
  }),
};
