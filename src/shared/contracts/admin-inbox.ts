import { z } from 'zod';
import { INQUIRY_KINDS } from '../lists/subjects.ts';
import { checkbox, inboxQuery } from '../schemas/admin.ts';
import { fileAnswer, recordIdParams, timestampSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/** One inquiry as the inbox lists it. */
const inquiryRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(INQUIRY_KINDS),
  name: z.string(),
  email: z.string(),
  organization: z.string(),
  is_handled: z.boolean(),
  created_at: timestampSchema,
});

/** One inquiry with all its fields: the form's own (subject, message, EIN…) in `details`; `handled_by` the staff e-mail. */
const inquirySchema = inquiryRowSchema.extend({
  phone: z.string(),
  details: z.record(z.string(), z.unknown()),
  handled_at: timestampSchema.nullable(),
  handled_by: z.string().nullable(),
  ip: z.string(),
});

/** Admin → Inbox (docs/staff-lists.md): the public forms' submissions, staff only. */
export const adminInboxContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/inquiries',
    access: 'staff',
    summary: 'Inquiries searched by name, e-mail or organization, filtered by kind and state, sorted by a column',
    querystring: inboxQuery,
    response: { 200: pageObjectSchema(inquiryRowSchema) },
  }),
  exportCsv: defineContract({
    method: 'GET',
    url: '/api/admin/inquiries/export.csv',
    access: 'staff',
    summary: 'Every inquiry the inbox shows with the same search, filters and sort, as CSV',
    querystring: inboxQuery,
    response: { 200: fileAnswer('The inquiries as CSV, one row per inquiry') },
    produces: ['text/csv'],
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/admin/inquiries/:id',
    access: 'staff',
    summary: 'One inquiry with all its fields',
    params: recordIdParams,
    response: { 200: inquirySchema },
  }),
  handled: defineContract({
    method: 'POST',
    url: '/api/admin/inquiries/:id/handled',
    access: 'staff',
    summary: 'Mark an inquiry handled, or new again (audited)',
    params: recordIdParams,
    body: z.object({ is_handled: checkbox }),
    response: { 200: inquirySchema },
  }),
};
