import { z } from 'zod';
import { defineContract } from './contract.ts';

/** One readiness check's verdict: 'skipped' when the database it needs failed. */
const checkResult = z.enum(['ok', 'failed', 'skipped']);

/** The body of GET /readyz and /healthz (docs/deploy.md "Health"), with 200 as with 503. */
const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({ database: checkResult, migrations: checkResult, storage: checkResult }),
  /** The checks that failed, e.g. ['storage']; absent when ready. */
  failed: z.array(z.string()).optional(),
});

/** Readiness: 200 when ready, 503 naming the failed checks. */
const readinessAnswers = { 200: readinessSchema, 503: readinessSchema };

/** Liveness and readiness for load balancers and orchestrators (docs/deploy.md "Health"): anyone may ask. */
export const healthContracts = {
  live: defineContract({
    method: 'GET',
    url: '/livez',
    access: 'visitor',
    summary: 'Liveness: the process answers',
    response: { 200: z.object({ status: z.literal('ok') }) },
  }),
  ready: defineContract({
    method: 'GET',
    url: '/readyz',
    access: 'visitor',
    summary: 'Readiness: the database answers, every migration is applied and the storage takes a write',
    response: readinessAnswers,
  }),
  health: defineContract({
    method: 'GET',
    url: '/healthz',
    access: 'visitor',
    summary: 'Readiness, for balancers configured before /readyz existed',
    response: readinessAnswers,
  }),
};

/** The body of a readiness answer. */
export type Readiness = z.output<typeof readinessSchema>;
