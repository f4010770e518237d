import { z } from 'zod';
import { CONTESTS, contestEntriesQuery } from '../schemas/contests.ts';
import { fileAnswer, timestampSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

const contestParams = z.object({ contest: z.enum(CONTESTS) });

/**
 * One entry as the staff's list shows it: `type` the entrant type as it was stored, `file_url` the
 * address of its file (null when the entrant sent none).
 */
const contestEntryRowSchema = z.object({
  id: z.number().int(),
  organization: z.string(),
  email: z.string(),
  type: z.string(),
  message: z.string(),
  is_member: z.boolean(),
  counts: z.boolean(),
  created_at: timestampSchema,
  file_id: z.number().int().nullable(),
  file_name: z.string().nullable(),
  mime_type: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  file_url: z.string().nullable(),
});

/** Admin → Contest entries (docs/requirements/product.md tool 4, docs/staff-lists.md): staff only. */
export const adminContestsContracts = {
  entries: defineContract({
    method: 'GET',
    url: '/api/admin/contests/:contest/entries',
    access: 'staff',
    summary: "One contest's entries, counted or not, searched by organization or e-mail, sorted by a column",
    params: contestParams,
    querystring: contestEntriesQuery,
    response: { 200: pageObjectSchema(contestEntryRowSchema) },
  }),
  entriesCsv: defineContract({
    method: 'GET',
    url: '/api/admin/contests/:contest/entries/export.csv',
    access: 'staff',
    summary: 'Every entry of the contest the list shows with the same search, filter and sort, as CSV',
    params: contestParams,
    querystring: contestEntriesQuery,
    response: { 200: fileAnswer('The entries as CSV, one row per entry') },
    produces: ['text/csv'],
  }),
  entryFile: defineContract({
    method: 'GET',
    url: '/admin/contests/files/:fileId',
    access: 'staff',
    summary: "An entry's file: an attachment, or shown in the page for a raster image with inline=1",
    params: z.object({ fileId: z.coerce.number().int().positive().max(2_147_483_647) }),
    querystring: z.object({ inline: z.enum(['0', '1']).optional() }),
    response: { 200: fileAnswer("The entry's file as it was uploaded") },
    produces: ['application/octet-stream', 'image/*', 'video/*'],
  }),
};
