import { z } from 'zod';
import {
  groupCheckParams,
  groupParams,
  groupUserChangedSchema,
  groupUserInviteSchema,
  groupUserListSchema,
  groupUserParams,
  workspaceListSchema,
  workspaceSummarySchema,
} from '../schemas/group-workspace.ts';
import { irsBulkCheckListSchema, irsBulkCheckSchema } from '../schemas/irs-bulk-check.ts';
import {
  groupEducationSendSchema,
  groupSupervisionQuery,
  supervisionOverviewSchema,
  supervisionStatusPageSchema,
} from '../schemas/supervision.ts';
import { fileAnswer, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/**
 * The central organization's workspace, /app/group (docs/roles.md "Central organizations"): the
 * group's users and their invitations, checking a list of EINs (docs/irs-standing.md "Checking a
 * list of EINs"), and the supervision of its member groups (docs/supervision.md): their reports,
 * and the yearly compliance education notice. A user of another group, or of no group, gets 404 as for a group that does not
 * exist; a viewer gets 403 on what only a manager may do; staff reach every group.
 */
export const groupWorkspaceContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/app/groups',
    access: 'signed-in',
    summary: 'The central organizations whose workspace the signed-in user may open, by name',
    response: { 200: workspaceListSchema },
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/app/groups/:groupId',
    access: 'group-user',
    summary: "One central organization's group: its name, GEN and the caller's role",
    params: groupParams,
    response: { 200: workspaceSummarySchema },
  }),
  users: defineContract({
    method: 'GET',
    url: '/api/app/groups/:groupId/users',
    access: 'group-user',
    summary: "The group's users, their roles and pending invitations",
    params: groupParams,
    response: { 200: groupUserListSchema },
  }),
  invite: defineContract({
    method: 'POST',
    url: '/api/app/groups/:groupId/users',
    access: 'group-user',
    summary: 'Invite a user to the group as manager or viewer (managers and staff; audited)',
    params: groupParams,
    body: groupUserInviteSchema,
    response: { 201: groupUserChangedSchema, 422: validationFailedSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    url: '/api/app/groups/:groupId/users/:userId',
    access: 'group-user',
    summary: 'Take a user off the group (managers and staff; audited); the group keeps a manager',
    params: groupUserParams,
    response: { 200: groupUserChangedSchema },
  }),
  bulkChecks: defineContract({
    method: 'GET',
    url: '/api/app/groups/:groupId/irs-bulk-checks',
    access: 'group-user',
    summary: "The group's latest checks of a list of EINs, newest first",
    params: groupParams,
    response: { 200: irsBulkCheckListSchema },
  }),
  /** Multipart: one CSV or text file in `file`, one EIN a line (a header line optional). */
  uploadBulkCheck: defineContract({
    method: 'POST',
    url: '/api/app/groups/:groupId/irs-bulk-checks',
    access: 'group-user',
    summary:
      'Start checking a CSV of EINs for the group (multipart: file); 422 names the line of the first value that is not an EIN',
    params: groupParams,
    response: { 201: irsBulkCheckSchema, 422: validationFailedSchema },
  }),
  bulkCheck: defineContract({
    method: 'GET',
    url: '/api/app/groups/:groupId/irs-bulk-checks/:id',
    access: 'group-user',
    summary: "One of the group's checks: progress (EINs done of the total), status and counts by standing",
    params: groupCheckParams,
    response: { 200: irsBulkCheckSchema },
  }),
  bulkCheckResult: defineContract({
    method: 'GET',
    url: '/api/app/groups/:groupId/irs-bulk-checks/:id/result.csv',
    access: 'group-user',
    summary: "The standings of one of the group's finished checks as CSV, one line per EIN (409 while it runs)",
    params: groupCheckParams,
    response: { 200: fileAnswer('The standings as CSV, one row per EIN') },
    produces: ['text/csv'],
  }),
  supervisionOverview: defineContract({
    method: 'GET',
    url: '/api/app/groups/:groupId/supervision/overview',
    access: 'group-user',
    summary:
      "The group's member groups, how many users its compliance education notice reaches, and this year's notice",
    params: groupParams,
    response: { 200: supervisionOverviewSchema },
  }),
  supervision: defineContract({
    method: 'GET',
    url: '/api/app/groups/:groupId/supervision',
    access: 'group-user',
    summary: "The group's member groups with their report and 990-N status for a tax year, filtered, 25 a page",
    params: groupParams,
    querystring: groupSupervisionQuery,
    response: { 200: supervisionStatusPageSchema },
  }),
  sendEducation: defineContract({
    method: 'POST',
    url: '/api/app/groups/:groupId/supervision/education',
    access: 'group-user',
    summary:
      "Send this year's compliance education notice to the group's members, once a year (managers and staff; audited)",
    params: groupParams,
    body: groupEducationSendSchema,
    response: {
      201: z.object({ message: z.string(), recipients: z.number().int() }),
      409: z.object({ message: z.string() }),
      422: validationFailedSchema,
    },
  }),
};
