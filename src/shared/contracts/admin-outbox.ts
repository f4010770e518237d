import { z } from 'zod';
import { outboxQuery } from '../schemas/admin.ts';
import { fileAnswer, recordIdParams, timestampSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/** One mail as the outbox lists it (docs/mail.md); `status` pending, sent or failed. */
const outboxRowSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  created_at: timestampSchema,
  sent_at: timestampSchema.nullable(),
});

/** One mail with its text; a mail carrying a one-time link shows it hidden (`links_hidden`) where real mail is sent. */
const outboxMailSchema = outboxRowSchema.extend({
  text: z.string(),
  last_error: z.string(),
  links_hidden: z.boolean(),
});

/** Admin → Mail outbox (docs/mail.md, docs/staff-lists.md): staff only. */
export const adminOutboxContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/outbox',
    access: 'staff',
    summary: 'Mails searched by recipient or subject, filtered by status, sorted by a column',
    querystring: outboxQuery,
    response: { 200: pageObjectSchema(outboxRowSchema) },
  }),
  exportCsv: defineContract({
    method: 'GET',
    url: '/api/admin/outbox/export.csv',
    access: 'staff',
    summary: 'Every mail the list shows with the same search, status and sort, as CSV',
    querystring: outboxQuery,
    response: { 200: fileAnswer('The mails as CSV, one row per mail') },
    produces: ['text/csv'],
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/admin/outbox/:id',
    access: 'staff',
    summary: 'One mail with its text',
    params: recordIdParams,
    response: { 200: outboxMailSchema },
  }),
};
