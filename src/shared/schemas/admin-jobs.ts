import { z } from 'zod';

/** One recorded run of a job, as Admin → Jobs shows it (docs/jobs.md "Records"). Times are ISO 8601. */
export const jobRunViewSchema = z.object({
  id: z.number().int(),
  job_name: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  result: z.enum(['running', 'ok', 'failed', 'timed_out']),
  error: z.string().nullable(),
  items_done: z.number().int(),
  summary: z.record(z.string(), z.unknown()).nullable(),
  attempt: z.number().int(),
  trigger: z.enum(['schedule', 'staff', 'startup']),
  server: z.string(),
  staff_user_id: z.number().int().nullable(),
});
export type JobRunView = z.infer<typeof jobRunViewSchema>;

/** One job on Admin → Jobs: its definition, last run, next run and recent failures. */
export const jobViewSchema = z.object({
  name: z.string(),
  title: z.string(),
  /** How it is scheduled, in words ("Every 10 minutes", "At server start", "Off"). */
  schedule: z.string(),
  timeout_ms: z.number().int(),
  retry: z.object({ limit: z.number().int(), delay_ms: z.number().int(), backoff: z.boolean() }),
  embedded_only: z.boolean(),
  /** Why it cannot run here (no SMTP server, neither IRS_DOWNLOAD=on nor IRS_DATA_DIR, PGlite only), or null. */
  unavailable: z.string().nullable(),
  running: z.boolean(),
  last_run: jobRunViewSchema.nullable(),
  /** When this server last ran a frequent poll, including rounds that found nothing (not recorded). */
  last_checked_at: z.string().nullable(),
  next_run_at: z.string().nullable(),
  recent_failures: z.array(jobRunViewSchema),
});
export type JobView = z.infer<typeof jobViewSchema>;

/** Runs of one job per page. */
export const JOB_RUNS_PER_PAGE = 25;

/** `GET /api/admin/jobs/:name/runs?page=`. */
export const jobRunsQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) });
