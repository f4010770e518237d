import {
  accountSettingsAnswerSchema,
  accountSettingsSchema,
  adminAccountDetailSchema,
  adminAccountsPageSchema,
  adminAccountsQuery,
} from '../schemas/admin-accounts.ts';
import { fileAnswer, recordIdParams, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/** Admin → Accounts (docs/requirements/screens.md /admin/accounts/show/{id}, docs/staff-lists.md): staff only. */
export const adminAccountsContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/accounts',
    access: 'staff',
    summary: 'Customer accounts searched, filtered by level, status and renewal due, sorted by a column',
    querystring: adminAccountsQuery,
    response: { 200: adminAccountsPageSchema },
  }),
  exportCsv: defineContract({
    method: 'GET',
    url: '/api/admin/accounts/export.csv',
    access: 'staff',
    summary: 'Every customer account the list shows with the same search, filters and sort, as CSV',
    querystring: adminAccountsQuery,
    response: { 200: fileAnswer('The accounts as CSV, one row per account') },
    produces: ['text/csv'],
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/admin/accounts/:id',
    access: 'staff',
    summary: 'One account with its standing, users, applications, bylaws, uploads, invoices, payments and the groups',
    params: recordIdParams,
    response: { 200: adminAccountDetailSchema },
  }),
  standingLetter: defineContract({
    method: 'GET',
    url: '/api/admin/accounts/:id/standing-letter',
    access: 'staff',
    summary: "The account's good-standing letter as a PDF (409 when the IRS data does not show good standing)",
    params: recordIdParams,
    response: { 200: fileAnswer('The good-standing letter as a PDF') },
    produces: ['application/pdf'],
  }),
  saveSettings: defineContract({
    method: 'PUT',
    url: '/api/admin/accounts/:id/settings',
    access: 'staff',
    summary: "Set an account's renewal flags, group and renewal due date (audited)",
    params: recordIdParams,
    body: accountSettingsSchema,
    response: { 200: accountSettingsAnswerSchema, 422: validationFailedSchema },
  }),
};
