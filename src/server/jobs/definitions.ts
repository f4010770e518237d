import { vacuumAnalyze } from '../db/maintenance.ts';
import { refreshLevelWizards } from '../db/seed/seed.ts';
import { runComplianceReminders } from '../modules/compliance/reminder-job.ts';
import { HOUSEKEEPING_EVERY_MS, runHousekeeping } from '../modules/files/housekeeping-job.ts';
import { runGenReminders } from '../modules/gen-updates/reminder-job.ts';
import { resumeBulkChecks } from '../modules/irs-data/bulk-check-runs.ts';
import { runMailRound } from '../modules/mail/mail-worker.ts';
import { runReconciliation } from '../modules/payments/reconciliation-job.ts';
import { runRetention } from '../modules/retention/run-retention.ts';
import { runIrsDataRefresh } from './irs-data-refresh.ts';
import type { AppConfig } from '../config.ts';
import type { FastifyInstance } from 'fastify';

/** What started a run. */
export type JobTrigger = 'schedule' | 'staff' | 'startup';

/** What a job's `run` is given. */
interface JobContext {
  app: FastifyInstance;
  /** Aborted when the run passes its timeout or the server shuts down: long loops may stop early. */
  signal: AbortSignal;
  trigger: JobTrigger;
  /** For a scheduled run of an interval job, the start of the slot it serves (e.g. the UTC day). */
  slot?: Date;
}

/** What a job's `run` answers: how many things it handled, and anything worth showing staff. */
export interface JobOutcome {
  itemsDone: number;
  summary?: Record<string, unknown>;
}

/**
 * When a job runs: every `everyMs` (slots counted from 1970-01-01 00:00 UTC, so a daily job's slot
 * starts at midnight UTC and every server agrees on the slots), or only at start (and on demand).
 */
export type JobSchedule = { everyMs: number } | { atStartup: true };

/**
 * One job (docs/jobs.md "Defining a job"). Adding a job is adding one of these to {@link JOBS}.
 */
export interface JobDefinition {
  /** Stable id: the key of its records and its pg-boss queue, and the address of its page row. */
  name: string;
  /** What staff read on Admin → Jobs. */
  title: string;
  /** Its schedule under `config`; null turns the schedule off (run now still works). */
  schedule: (config: AppConfig) => JobSchedule | null;
  /**
   * `cluster` (the default): on PostgreSQL a scheduled run happens once per slot across all servers
   * (pg-boss); `each-server`: a frequent local poll run by every server's own timer, for work whose
   * claims are already safe across servers (the outbox: FOR UPDATE SKIP LOCKED), in slots shorter
   * than pg-boss's one-second grain.
   */
  placement?: 'cluster' | 'each-server';
  /** A scheduled run that handled nothing and did not fail writes no job_runs row (frequent polls). */
  quietWhenIdle?: boolean;
  /** Delay of the first scheduled run after the server starts, in ms (default 60 s). */
  firstRunMs?: number;
  /** Past this many ms a run is recorded as timed out (its work is asked to stop through the signal). */
  timeoutMs: number;
  /** Retries of a failed or timed-out scheduled run: up to `limit` more attempts, `delayMs` apart, doubled each time with `backoff`. */
  retry: { limit: number; delayMs: number; backoff?: boolean };
  /** Run only on the embedded database (PGlite): PostgreSQL servers do this themselves. */
  pgliteOnly?: boolean;
  /** Why the job cannot run in this app, or undefined when it can (e.g. no SMTP server for the outbox). */
  unavailable?: (app: FastifyInstance) => string | undefined;
  run(ctx: JobContext): Promise<JobOutcome>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** How often every server looks for a check of a list of EINs that a stopped server left. */
const BULK_CHECK_POLL_MS = 5_000;

/**
 * Every scheduled or queued job of the server, in one place (docs/jobs.md). The functions doing the
 * work stay in their modules; each entry says when, how long and how often to retry.
 */
export const JOBS: JobDefinition[] = [
  {
    name: 'outbox-delivery',
    title: 'Mail outbox delivery',
    schedule: (config) => ({ everyMs: config.mail.pollMs }),
    placement: 'each-server',
    quietWhenIdle: true,
    firstRunMs: 0,
    timeoutMs: 5 * MINUTE,
    // The next poll is the retry; each mail keeps its own backoff (deliver-pending-mail.ts).
    retry: { limit: 0, delayMs: 0 },
    unavailable: (app) =>
      app.providers.mail ? undefined : 'No SMTP server is configured (SMTP_URL): mails stay in the outbox.',
    run: async ({ app, signal }) => {
      const { sent, failed } = await runMailRound(app, signal);
      return { itemsDone: sent + failed, summary: { sent, failed } };
    },
  },
  {
    name: 'compliance-reminders',
    title: 'Compliance deadline reminders',
    schedule: (config) => (config.reminders.enabled ? { everyMs: DAY } : null),
    timeoutMs: 30 * MINUTE,
    retry: { limit: 3, delayMs: 5 * MINUTE, backoff: true },
    run: async ({ app }) => {
      const counts = await runComplianceReminders(app);
      return { itemsDone: counts.enqueued, summary: { ...counts } };
    },
  },
  {
    name: 'gen-update-reminders',
    title: 'Annual GEN update reminders to staff',
    schedule: (config) => (config.reminders.enabled ? { everyMs: DAY } : null),
    timeoutMs: 10 * MINUTE,
    retry: { limit: 3, delayMs: 5 * MINUTE, backoff: true },
    run: async ({ app }) => {
      const counts = await runGenReminders(app);
      return { itemsDone: counts.mails, summary: { ...counts } };
    },
  },
  {
    name: 'payment-reconciliation',
    title: 'Payment reconciliation with the gateway',
    schedule: (config) =>
      config.payments.reconcileIntervalMinutes ? { everyMs: config.payments.reconcileIntervalMinutes * MINUTE } : null,
    timeoutMs: 10 * MINUTE,
    retry: { limit: 2, delayMs: MINUTE, backoff: true },
    run: async ({ app }) => {
      const summary = await runReconciliation(app);
      return { itemsDone: summary.checked + summary.refunds, summary: { ...summary } };
    },
  },
  {
    name: 'upload-housekeeping',
    title: 'Upload housekeeping',
    schedule: () => ({ everyMs: HOUSEKEEPING_EVERY_MS }),
    timeoutMs: 10 * MINUTE,
    retry: { limit: 1, delayMs: MINUTE },
    run: async ({ app }) => {
      const removed = await runHousekeeping(app);
      return {
        itemsDone: removed.partialUploads + removed.filesLeftBehind + removed.dailyCounters + removed.limitCounters,
        summary: removed,
      };
    },
  },
  {
    name: 'retention',
    title: 'Retention (pruning old rows and orphaned files)',
    // Daily, in bounded batches (docs/retention.md): a first run on a large old database catches up
    // over several days rather than in one long run.
    schedule: () => ({ everyMs: DAY }),
    timeoutMs: HOUR,
    retry: { limit: 2, delayMs: 15 * MINUTE, backoff: true },
    run: async ({ app }) => {
      const { itemsDone, byRule } = await runRetention(app);
      return { itemsDone, summary: byRule };
    },
  },
  {
    name: 'database-vacuum',
    title: 'Embedded database vacuum',
    schedule: () => ({ everyMs: DAY }),
    pgliteOnly: true,
    timeoutMs: HOUR,
    retry: { limit: 1, delayMs: 10 * MINUTE },
    run: async ({ app }) => {
      await vacuumAnalyze(app.db);
      return { itemsDone: 1 };
    },
  },
  {
    name: 'level-wizard-refresh',
    title: 'Level wizard refresh',
    schedule: () => ({ atStartup: true }),
    timeoutMs: 5 * MINUTE,
    retry: { limit: 0, delayMs: 0 },
    run: async ({ app }) => {
      const updated = await refreshLevelWizards(app.db);
      return { itemsDone: updated.length, summary: { updated } };
    },
  },
  {
    name: 'irs-data-refresh',
    title: 'IRS data refresh',
    schedule: () => ({ everyMs: DAY }),
    timeoutMs: 2 * HOUR,
    retry: { limit: 2, delayMs: 30 * MINUTE },
    unavailable: (app) =>
      app.config.jobs.irsDataDir || app.config.irsDownload.enabled
        ? undefined
        : 'IRS_DOWNLOAD is off and IRS_DATA_DIR is not set: there is nothing to load IRS data from.',
    run: ({ app, signal }) => runIrsDataRefresh(app, signal),
  },
  {
    name: 'irs-bulk-check-resume',
    title: 'Standing checks (CSV) taken over from stopped servers',
    // Every server looks: a check is claimed with FOR UPDATE SKIP LOCKED once its lease has passed,
    // so the first server to look takes it and the others skip it (docs/irs-standing.md "Checking a
    // list of EINs"). Seconds matter: staff are watching the check's progress.
    schedule: () => ({ everyMs: BULK_CHECK_POLL_MS }),
    placement: 'each-server',
    quietWhenIdle: true,
    firstRunMs: BULK_CHECK_POLL_MS,
    // 50,000 EINs take minutes; past the timeout the check is handed back and the next poll goes on.
    timeoutMs: HOUR,
    // The next poll is the retry.
    retry: { limit: 0, delayMs: 0 },
    run: async ({ app, signal }) => {
      const { checks, eins } = await resumeBulkChecks(app.db, app.log, { signal });
      return { itemsDone: checks, summary: { checks, eins } };
    },
  },
];
