import { z } from 'zod';

/** One recorded run of a job, as Admin → Jobs shows it (docs/jobs.md "Records"). Times are ISO 8601. */
export interface JobRunView {
  id: number;
  job_name: string;
  started_at: string;
  finished_at: string | null;
  result: 'running' | 'ok' | 'failed' | 'timed_out';
  error: string | null;
  items_done: number;
  summary: Record<string, unknown> | null;
  attempt: number;
  trigger: 'schedule' | 'staff' | 'startup';
  server: string;
  staff_user_id: number | null;
}

/** One job on Admin → Jobs: its definition, last run, next run and recent failures. */
export interface JobView {
  name: string;
  title: string;
  /** How it is scheduled, in words ("Every 10 minutes", "At server start", "Off"). */
  schedule: string;
  timeout_ms: number;
  retry: { limit: number; delay_ms: number; backoff: boolean };
  embedded_only: boolean;
  /** Why it cannot run here (no SMTP server, no IRS_DATA_DIR, PGlite only), or null. */
  unavailable: string | null;
  running: boolean;
  last_run: JobRunView | null;
  /** When this server last ran a frequent poll, including rounds that found nothing (not recorded). */
  last_checked_at: string | null;
  next_run_at: string | null;
  recent_failures: JobRunView[];
}

/** Runs of one job per page. */
export const JOB_RUNS_PER_PAGE = 25;

/** `GET /api/admin/jobs/:name/runs?page=`. */
export const jobRunsQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) });
