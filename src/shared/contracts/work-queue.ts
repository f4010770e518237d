import { z } from 'zod';
import {
  letterAcceptSchema,
  letterReturnSchema,
  WORK_ITEM_KINDS,
  workItemAssignSchema,
  workItemDetailSchema,
  workItemNoteSchema,
  workItemResolveSchema,
  workItemRowSchema,
  workQueueQuery,
  workQueueStaffSchema,
} from '../schemas/work-queue.ts';
import { fileAnswer, recordIdParams, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/** A count for each kind of item. */
const countsByKind = z.record(z.enum(WORK_ITEM_KINDS), z.number().int());

/** What an action on one item answers: its message and the item as GET shows it. */
const actionAnswer = z.object({ message: z.string(), item: workItemDetailSchema });

/** The staff work queue (docs/work-queue.md): staff only; actions on an item are audited. */
export const workQueueContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/work-queue',
    access: 'staff',
    summary: 'Items filtered by kind, status and assignee, sorted, with the count of each kind under the filters',
    querystring: workQueueQuery,
    response: { 200: pageObjectSchema(workItemRowSchema).extend({ counts: countsByKind }) },
  }),
  exportCsv: defineContract({
    method: 'GET',
    url: '/api/admin/work-queue/export.csv',
    access: 'staff',
    summary: 'Every item the list shows with the same filters and sort, as CSV',
    querystring: workQueueQuery,
    response: { 200: fileAnswer('The items as CSV, one row per item') },
    produces: ['text/csv'],
  }),
  staff: defineContract({
    method: 'GET',
    url: '/api/admin/work-queue/staff',
    access: 'staff',
    summary: 'The staff users items can be assigned to',
    response: { 200: z.object({ staff: z.array(workQueueStaffSchema) }) },
  }),
  build: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/build',
    access: 'staff',
    summary: 'Find new items in the IRS data loaded now, with how many of each kind were added (audited)',
    response: { 200: z.object({ message: z.string(), added: z.number().int(), by_kind: countsByKind }) },
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/admin/work-queue/:id',
    access: 'staff',
    summary: 'One item with what was found, its notes and its history',
    params: recordIdParams,
    response: { 200: workItemDetailSchema },
  }),
  assign: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/:id/assign',
    access: 'staff',
    summary: 'Assign an item to a staff user, to oneself, or to nobody (audited)',
    params: recordIdParams,
    body: workItemAssignSchema,
    response: { 200: actionAnswer, 422: validationFailedSchema },
  }),
  addNote: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/:id/notes',
    access: 'staff',
    summary: 'Add a note to an item (audited)',
    params: recordIdParams,
    body: workItemNoteSchema,
    response: { 201: actionAnswer, 422: validationFailedSchema },
  }),
  resolve: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/:id/resolve',
    access: 'staff',
    summary: 'Resolve an open item, saying what was done (audited)',
    params: recordIdParams,
    body: workItemResolveSchema,
    response: { 200: actionAnswer, 422: validationFailedSchema },
  }),
  reopen: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/:id/reopen',
    access: 'staff',
    summary: 'Reopen a resolved item (audited)',
    params: recordIdParams,
    response: { 200: actionAnswer },
  }),
  letter: defineContract({
    method: 'GET',
    url: '/api/admin/work-queue/:id/letter',
    access: 'staff',
    summary: 'The determination letter a group uploaded, shown in the browser',
    params: recordIdParams,
    response: { 200: fileAnswer('The letter with the type it was uploaded with (PDF, image or document)') },
    produces: [
      'application/pdf',
      'image/*',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.oasis.opendocument.text',
      'application/rtf',
      'text/plain',
    ],
  }),
  acceptLetter: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/:id/accept-letter',
    access: 'staff',
    summary: 'Accept a determination letter with the date printed on it, resolving its item (audited)',
    params: recordIdParams,
    body: letterAcceptSchema(),
    response: { 200: actionAnswer, 422: validationFailedSchema },
  }),
  returnLetter: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/:id/return-letter',
    access: 'staff',
    summary: 'Send a determination letter back to the group with the reason, which they are mailed (audited)',
    params: recordIdParams,
    body: letterReturnSchema,
    response: { 200: actionAnswer, 422: validationFailedSchema },
  }),
  linkApplicant: defineContract({
    method: 'POST',
    url: '/api/admin/work-queue/:id/link-applicant',
    access: 'staff',
    summary:
      'Link the applicant of a link request to the imported account as its primary user, completing their application (audited, mailed)',
    params: recordIdParams,
    response: { 200: actionAnswer },
  }),
};
