import { z } from 'zod';
import { accountChoiceSchema } from '../schemas/account-choice.ts';
import {
  adminSupervisionQuery,
  educationSendSchema,
  supervisionFormViewSchema,
  supervisionOverviewSchema,
  supervisionQuery,
  supervisionReportSchema,
  supervisionStatusPageSchema,
} from '../schemas/supervision.ts';
import { validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/**
 * The yearly supervision report and Form 990-N preparation (docs/supervision.md): the account's
 * form, where staff name the account with `account_id` (the query of the GET, the body of the PUT,
 * read by the access check), and the staff's view of every member group.
 */
export const supervisionContracts = {
  form: defineContract({
    method: 'GET',
    url: '/api/account/supervision',
    access: 'account-user',
    scoped: true,
    summary:
      'The supervision report of a tax year (default the latest ended) with the facts known, its gross receipts test and the 990-N seen in the IRS data',
    querystring: supervisionQuery.extend(accountChoiceSchema.shape),
    response: { 200: supervisionFormViewSchema, 422: validationFailedSchema },
  }),
  save: defineContract({
    method: 'PUT',
    url: '/api/account/supervision',
    access: 'account-user',
    scoped: true,
    summary:
      'Save the supervision report of a tax year, checked against the IRS field limits and the gross receipts test (audited)',
    body: supervisionReportSchema,
    response: {
      200: z.object({ message: z.string(), form: supervisionFormViewSchema }),
      422: validationFailedSchema,
    },
  }),
  overview: defineContract({
    method: 'GET',
    url: '/api/admin/supervision/overview',
    access: 'staff',
    summary: "The GEN groups with this year's compliance education notice of each",
    response: { 200: supervisionOverviewSchema },
  }),
  list: defineContract({
    method: 'GET',
    url: '/api/admin/supervision',
    access: 'staff',
    summary: "A GEN group's members with their report and 990-N status for a tax year, filtered, 25 a page",
    querystring: adminSupervisionQuery,
    response: { 200: supervisionStatusPageSchema },
  }),
  sendEducation: defineContract({
    method: 'POST',
    url: '/api/admin/supervision/education',
    access: 'staff',
    summary: "Send this year's compliance education notice to a GEN group's members, once a year (audited)",
    body: educationSendSchema,
    response: {
      201: z.object({ message: z.string(), recipients: z.number().int() }),
      409: z.object({ message: z.string() }),
      422: validationFailedSchema,
    },
  }),
};
