import { z } from 'zod';
import { recordIdParams, timestampSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/** The states of an application the admin list filters by. */
const APPLICATION_STATUSES = ['draft', 'completed', 'deleted'] as const;

/** Query of the admin's applications: `status` (empty for any), 1-based page. */
const applicationsQuery = z.object({
  status: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(APPLICATION_STATUSES, { error: 'The selected status is invalid.' }).optional(),
  ),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** One application as the admin list shows it; `page` the last page saved, 1-based. */
const applicationRowSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  level: z.string(),
  type: z.string(),
  status: z.string(),
  page: z.number().int(),
  account_id: z.number().int().nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});

/** One application with its answers (`fields`) and the label of each of its level's questions (`labels`). */
const applicationSchema = applicationRowSchema.extend({
  fields: z.record(z.string(), z.unknown()),
  labels: z.record(z.string(), z.string()),
  completed_at: timestampSchema.nullable(),
});

/** Admin → Applications (docs/requirements/product.md "Staff console"): every application, staff only. */
export const adminApplicationsContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/applications',
    access: 'staff',
    summary: 'Applications, drafts, completed and deleted, newest activity first, filtered by status',
    querystring: applicationsQuery,
    response: { 200: pageObjectSchema(applicationRowSchema) },
  }),
  show: defineContract({
    method: 'GET',
    url: '/api/admin/applications/:id',
    access: 'staff',
    summary: 'One application with every answer and the labels of its questions',
    params: recordIdParams,
    response: { 200: applicationSchema },
  }),
};
