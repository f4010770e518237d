import { z } from 'zod';
import { jobRunsQuery, jobRunViewSchema, jobViewSchema } from '../schemas/admin-jobs.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

const jobName = z.object({ name: z.string() });

/** Admin → Jobs (docs/jobs.md "Staff page"): staff only. */
export const adminJobContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/jobs',
    access: 'staff',
    summary: 'Every job with its schedule, last run, next run and recent failures',
    response: { 200: z.object({ data: z.array(jobViewSchema) }) },
  }),
  runs: defineContract({
    method: 'GET',
    url: '/api/admin/jobs/:name/runs',
    access: 'staff',
    summary: "One job's recorded runs, newest first",
    params: jobName,
    querystring: jobRunsQuery,
    response: { 200: pageObjectSchema(jobRunViewSchema) },
  }),
  run: defineContract({
    method: 'POST',
    url: '/api/admin/jobs/:name/run',
    access: 'staff',
    summary: 'Run a job now in this server (audited)',
    params: jobName,
    response: { 200: z.object({ message: z.string(), run: jobRunViewSchema }) },
  }),
};
