// Longer than 400 lines: two runners with one contract, pg-boss on PostgreSQL and timers on the embedded
// database, and the record of each run they share (docs/jobs.md).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { and, count, desc, eq, gte, inArray } from 'drizzle-orm';
import { must } from '../../shared/must.ts';
import { buildPage, type PageObject } from '../../shared/rules/pagination.ts';
import { JOB_RUNS_PER_PAGE, type JobRunView, type JobView } from '../../shared/schemas/admin-jobs.ts';
import { jobRuns } from '../db/schema.ts';
import type { Database } from '../db/client.ts';
import type { JobDefinition, JobOutcome, JobSchedule, JobTrigger } from './definitions.ts';
import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';

/** A run asked for while the same job is running in this process. */
export class JobBusyError extends Error {
  job: string;
  constructor(job: string) {
    super(`The job ${job} is already running.`);
    this.job = job;
  }
}

/** A run asked for of a job that cannot run here (see JobDefinition.unavailable, pgliteOnly). */
export class JobUnavailableError extends Error {}

type RunRow = typeof jobRuns.$inferSelect;

/** A job_runs row as the API shows it. */
export function runView(r: RunRow): JobRunView {
  return {
    id: r.id,
    job_name: r.jobName,
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    result: r.result,
    error: r.error,
    items_done: r.itemsDone,
    summary: r.summary ?? null,
    attempt: r.attempt,
    trigger: r.trigger,
    server: r.server,
    staff_user_id: r.staffUserId,
  };
}

/** "Every 10 minutes", "Every day", "At server start". */
function scheduleText(s: JobSchedule | null): string {
  if (!s) return 'Off';
  if ('atStartup' in s) return 'At server start';
  const ms = s.everyMs;
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, unit] of units) {
    if (ms % size === 0) return ms === size ? `Every ${unit}` : `Every ${ms / size} ${unit}s`;
  }
  return `Every ${ms} ms`;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

export interface JobRunnerOptions {
  /** How often an idle pg-boss worker asks for work, in seconds (default 2; tests use 0.5). */
  pollSeconds?: number;
}

/**
 * Runs the job definitions of docs/jobs.md in this app: on a schedule once started, and on demand.
 *
 * - Every run (a scheduled one, a retry, one asked for by staff, one at start) is recorded in
 *   job_runs: start, end, result (`ok`, `failed`, `timed_out`), error, items done; a quiet job's
 *   scheduled round that did nothing writes no row and only moves `lastCheckedAt`.
 * - Runs of one job never overlap in this process (a second one is refused with JobBusyError).
 * - A run past `timeoutMs` is recorded as `timed_out` and its signal aborted; the job stays busy
 *   here until its work actually ends.
 * - On PGlite, timers in this process run the schedule and retry failures per the job's policy.
 *   On PostgreSQL, `cluster` jobs go through pg-boss in the schema `config.jobs.bossSchema`: each
 *   server's timer sends a job at every slot with pg-boss's singleton slot (singletonSeconds = the
 *   interval), so one run per slot happens across all servers, and pg-boss retries it per the
 *   policy; `each-server` jobs (the outbox poll) run on every server's own timer.
 * - `stop()` (on app close) stops scheduling, asks the runs in flight to wrap up, stops pg-boss
 *   gracefully and waits for them within the app's ShutdownBudget, before the database closes.
 */
export class JobRunner {
  readonly server = `${os.hostname()}:${process.pid}:${randomBytes(2).toString('hex')}`;
  private running = new Map<string, Promise<void>>();
  private inFlight = new Set<Promise<unknown>>();
  /** Abort controllers of the runs under way: stop() asks them to wrap up. */
  private controllers = new Set<AbortController>();
  private timers = new Set<NodeJS.Timeout>();
  private lastChecked = new Map<string, Date>();
  private nextEach = new Map<string, Date>();
  private boss: PgBoss | undefined;
  private started = false;
  private stopping = false;

  private app: FastifyInstance;
  private database: Database;
  readonly definitions: JobDefinition[];
  private opts: JobRunnerOptions;

  constructor(app: FastifyInstance, database: Database, definitions: JobDefinition[], opts: JobRunnerOptions = {}) {
    this.app = app;
    this.database = database;
    this.definitions = definitions;
    this.opts = opts;
  }

  /** The definition named `name`, or undefined. */
  find(name: string): JobDefinition | undefined {
    return this.definitions.find((d) => d.name === name);
  }

  /** Why `def` cannot run in this app, or undefined. */
  unavailable(def: JobDefinition): string | undefined {
    if (def.pgliteOnly && this.database.kind !== 'pglite')
      return 'Runs on the embedded database only: a database server vacuums by itself.';
    return def.unavailable?.(this.app);
  }

  private scheduleOf(def: JobDefinition): JobSchedule | null {
    return def.schedule(this.app.config);
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        fn();
      },
      Math.max(0, ms),
    );
    timer.unref();
    this.timers.add(timer);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  /**
   * Runs `work` in this process now, outside any job's schedule and records (a check of a list of
   * EINs that a request started, docs/irs-standing.md "Checking a list of EINs"), but stopped like a
   * run: stop() aborts its signal and waits for it before the database closes. Once the runner is
   * stopping the signal is aborted from the start, so the work hands over at once.
   * @param work given the signal; what it answers or throws is not looked at, so it handles its own errors
   */
  runApart(work: (signal: AbortSignal) => Promise<unknown>): void {
    const controller = new AbortController();
    if (this.stopping) controller.abort(new Error('the server is stopping'));
    this.controllers.add(controller);
    void this.track(Promise.resolve().then(() => work(controller.signal)))
      .catch((err: unknown) => this.app.log.error({ err }, 'work apart from the jobs failed'))
      .finally(() => this.controllers.delete(controller));
  }

  /**
   * Runs `def` once now in this process and records it.
   * Writes: job_runs (one row; none for a quiet scheduled round that did nothing and did not fail).
   * @returns the recorded run (for a quiet idle round, the row it would have written, id 0)
   * @throws JobBusyError when the job is running in this process
   */
  execute(
    def: JobDefinition,
    trigger: JobTrigger,
    opts: { attempt?: number; staffUserId?: number; slot?: Date } = {},
  ): Promise<RunRow> {
    if (this.running.has(def.name)) return Promise.reject(new JobBusyError(def.name));
    let release!: () => void;
    this.running.set(
      def.name,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    return this.track(
      this.record(def, trigger, opts, () => {
        this.running.delete(def.name);
        release();
      }),
    );
  }

  private async record(
    def: JobDefinition,
    trigger: JobTrigger,
    opts: { attempt?: number; staffUserId?: number; slot?: Date },
    done: () => void,
  ): Promise<RunRow> {
    const db = this.app.db;
    const quiet = def.quietWhenIdle === true && trigger === 'schedule';
    const base = {
      jobName: def.name,
      trigger,
      server: this.server,
      attempt: opts.attempt ?? 1,
      staffUserId: opts.staffUserId ?? null,
    };
    let inserted: RunRow | undefined;
    let workEnded = false;
    try {
      const startedAt = new Date();
      if (!quiet)
        [inserted] = await db
          .insert(jobRuns)
          .values({ ...base, startedAt })
          .returning();
      const controller = new AbortController();
      this.controllers.add(controller);
      const work = Promise.resolve().then(() =>
        def.run({ app: this.app, signal: controller.signal, trigger, slot: opts.slot }),
      );
      void work.finally(() => this.controllers.delete(controller)).catch(() => undefined);
      // The job stays busy here until its work really ends, even past its timeout.
      void work.then(done, done);
      workEnded = true;
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        work.then(
          (o: JobOutcome) => ({ result: 'ok' as const, o }),
          (err: unknown) => ({ result: 'failed' as const, err }),
        ),
        new Promise<{ result: 'timed_out' }>((resolve) => {
          timer = setTimeout(() => resolve({ result: 'timed_out' }), def.timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (outcome.result === 'timed_out') controller.abort(new Error('timed out'));
      const finishedAt = new Date();
      this.lastChecked.set(def.name, finishedAt);
      const end = {
        finishedAt,
        result: outcome.result,
        itemsDone: outcome.result === 'ok' ? Math.max(0, Math.trunc(outcome.o?.itemsDone ?? 0)) : 0,
        summary: outcome.result === 'ok' ? (outcome.o?.summary ?? null) : null,
        error:
          outcome.result === 'failed'
            ? errorText(outcome.err)
            : outcome.result === 'timed_out'
              ? `Timed out after ${def.timeoutMs} ms`
              : null,
      };
      if (outcome.result === 'failed') this.app.log.warn({ err: outcome.err, job: def.name }, `job ${def.name} failed`);
      if (outcome.result === 'timed_out')
        this.app.log.warn({ job: def.name, timeoutMs: def.timeoutMs }, `job ${def.name} timed out`);
      if (inserted) {
        const [row] = await db.update(jobRuns).set(end).where(eq(jobRuns.id, inserted.id)).returning();
        return row;
      }
      if (end.result === 'ok' && end.itemsDone === 0) return { id: 0, ...base, startedAt, ...end };
      const [row] = await db
        .insert(jobRuns)
        .values({ ...base, startedAt, ...end })
        .returning();
      return row;
    } finally {
      if (!workEnded) done();
    }
  }

  /** A scheduled run with this process's retries (PGlite, and `each-server` jobs). */
  private async runWithRetries(def: JobDefinition, trigger: JobTrigger, attempt = 1, slot?: Date): Promise<void> {
    if (this.stopping) return;
    let row: RunRow;
    try {
      row = await this.execute(def, trigger, { attempt, slot });
    } catch (err) {
      if (!(err instanceof JobBusyError))
        this.app.log.warn({ err, job: def.name }, `job ${def.name} could not be recorded`);
      return;
    }
    if (row.result !== 'ok' && attempt <= def.retry.limit && !this.stopping) {
      const delay = def.retry.delayMs * (def.retry.backoff ? 2 ** (attempt - 1) : 1);
      this.later(delay, () => void this.runWithRetries(def, trigger, attempt + 1, slot));
    }
  }

  /** Whether a scheduled or start run of `def` began in the slot holding `now` (PGlite catch-up). */
  private async ranInSlot(def: JobDefinition, everyMs: number, now: number): Promise<boolean> {
    const slotStart = new Date(Math.floor(now / everyMs) * everyMs);
    const [row] = await this.app.db
      .select({ n: count() })
      .from(jobRuns)
      .where(
        and(
          eq(jobRuns.jobName, def.name),
          inArray(jobRuns.trigger, ['schedule', 'startup']),
          gte(jobRuns.startedAt, slotStart),
        ),
      );
    return row.n > 0;
  }

  /** One slot's turn of a `cluster` job: a pg-boss singleton on PostgreSQL, a local run on PGlite. */
  private async slot(def: JobDefinition, everyMs: number, catchUp: boolean): Promise<void> {
    if (this.stopping) return;
    const now = Date.now();
    const slot = new Date(Math.floor(now / everyMs) * everyMs);
    try {
      if (this.boss) {
        await this.boss.send(
          def.name,
          { trigger: 'schedule', slot: slot.toISOString() },
          { singletonKey: def.name, singletonSeconds: Math.max(1, Math.round(everyMs / 1000)) },
        );
      } else if (!catchUp || !(await this.ranInSlot(def, everyMs, now))) {
        await this.runWithRetries(def, 'schedule', 1, slot);
      }
    } catch (err) {
      this.app.log.warn({ err, job: def.name }, `job ${def.name} could not be scheduled`);
    }
  }

  /** Arms the timer of the next slot boundary of `def`, plus a beat so every clock is past it. */
  private armSlot(def: JobDefinition, everyMs: number): void {
    const beat = Math.min(2000, everyMs / 4);
    const now = Date.now();
    const next = Math.floor(now / everyMs) * everyMs + everyMs;
    this.later(next + beat - now, () => {
      if (this.stopping) return;
      void this.slot(def, everyMs, false);
      this.armSlot(def, everyMs);
    });
  }

  private armEachServer(def: JobDefinition, everyMs: number, delay: number): void {
    this.nextEach.set(def.name, new Date(Date.now() + delay));
    this.later(delay, () => {
      void this.runWithRetries(def, 'schedule').finally(() => {
        if (!this.stopping) this.armEachServer(def, everyMs, everyMs);
      });
    });
  }

  /**
   * Starts the schedule: runs the start-up jobs (awaited, recorded with trigger `startup`), then
   * arms the timers; on PostgreSQL first starts pg-boss (creating its schema and one queue per
   * `cluster` job with the job's retry policy) and its workers.
   * @throws what pg-boss throws when it cannot start
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const active = this.definitions.filter((d) => this.scheduleOf(d) && !this.unavailable(d));
    const cluster = active.filter(
      (d) =>
        (d.placement ?? 'cluster') === 'cluster' &&
        !('atStartup' in must(this.scheduleOf(d), `the schedule of ${d.name}`)),
    );
    if (this.database.kind === 'postgres' && cluster.length) {
      if (!this.database.url) throw new Error('The PostgreSQL database has no URL for the job library');
      // Loaded only here: the embedded database never needs pg-boss (docs/operations.md "Memory").
      const { PgBoss } = await import('pg-boss');
      const boss = new PgBoss({
        connectionString: this.database.url,
        schema: this.app.config.jobs.bossSchema,
        max: 3,
        supervise: true,
        schedule: false,
      });
      boss.on('error', (err) => this.app.log.warn({ err }, 'job library error'));
      await boss.start();
      this.boss = boss;
      for (const def of cluster) {
        const policy = {
          retryLimit: def.retry.limit,
          retryDelay: Math.max(1, Math.round(def.retry.delayMs / 1000)),
          retryBackoff: def.retry.backoff ?? false,
          expireInSeconds: Math.ceil(def.timeoutMs / 1000) + 60,
        };
        await boss.createQueue(def.name, policy);
        await boss.updateQueue(def.name, policy);
        await boss.work<{ trigger?: JobTrigger; slot?: string }>(
          def.name,
          { pollingIntervalSeconds: this.opts.pollSeconds ?? 2, batchSize: 1 },
          async ([job]) => {
            let row: RunRow;
            try {
              row = await this.execute(def, job.data?.trigger ?? 'schedule', {
                attempt: job.retryCount + 1,
                slot: job.data?.slot ? new Date(job.data.slot) : undefined,
              });
            } catch (err) {
              // Running here already (asked for by staff): that run serves this slot.
              if (err instanceof JobBusyError) return { busy: true };
              throw err;
            }
            if (row.result !== 'ok') throw new Error(row.error ?? row.result);
            return { runId: row.id };
          },
        );
      }
    }
    for (const def of active) {
      const schedule = must(this.scheduleOf(def), `the schedule of ${def.name}`);
      if ('atStartup' in schedule) await this.runWithRetries(def, 'startup');
    }
    for (const def of active) {
      const schedule = must(this.scheduleOf(def), `the schedule of ${def.name}`);
      if ('atStartup' in schedule) continue;
      const firstRunMs = def.firstRunMs ?? 60_000;
      if ((def.placement ?? 'cluster') === 'each-server') {
        this.armEachServer(def, schedule.everyMs, firstRunMs);
      } else {
        this.later(firstRunMs, () => void this.slot(def, schedule.everyMs, true));
        this.armSlot(def, schedule.everyMs);
      }
    }
  }

  /**
   * Stops scheduling, aborts the runs in flight through their signal, stops pg-boss gracefully and
   * waits for the runs, all within what app.shutdownBudget has left. Called on app close (preClose),
   * before the database closes.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    // The runs under way are asked to wrap up (an outbox round finishes its send in progress and
    // hands the rest back) and get SHUTDOWN_TIMEOUT_MS to do so (docs/operations.md "Stopping").
    // The wait is shared with the requests still being handled (app.shutdownBudget).
    for (const controller of this.controllers) controller.abort(new Error('the server is stopping'));
    const budget = this.app.shutdownBudget;
    if (this.boss) {
      const boss = this.boss;
      this.boss = undefined;
      await boss
        .stop({ graceful: true, close: true, timeout: Math.max(1, budget.remainingMs()) })
        .catch((err) => this.app.log.warn({ err }, 'job library did not stop cleanly'));
    }
    let timer: NodeJS.Timeout | undefined;
    const waitMs = budget.remainingMs();
    const settled = await Promise.race([
      Promise.allSettled([...this.inFlight]).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), waitMs);
      }),
    ]);
    clearTimeout(timer);
    if (!settled)
      this.app.log.warn(
        { jobs: [...this.running.keys()], waitMs },
        'closing: jobs still running after the wait; closing anyway',
      );
  }

  /**
   * Runs the job `name` now in this process for staff (or a caller), recorded with `trigger`.
   * @returns the recorded run
   * @throws JobUnavailableError when the job cannot run here; JobBusyError when it is running here
   */
  async runNow(def: JobDefinition, opts: { trigger?: JobTrigger; staffUserId?: number } = {}): Promise<RunRow> {
    const why = this.unavailable(def);
    if (why) throw new JobUnavailableError(why);
    if (this.stopping) throw new JobUnavailableError('The server is shutting down.');
    return this.execute(def, opts.trigger ?? 'staff', { staffUserId: opts.staffUserId });
  }

  private nextRunAt(def: JobDefinition): Date | null {
    const schedule = this.scheduleOf(def);
    if (!schedule || 'atStartup' in schedule || this.unavailable(def)) return null;
    if ((def.placement ?? 'cluster') === 'each-server') {
      const last = this.lastChecked.get(def.name);
      return this.nextEach.get(def.name) ?? (last ? new Date(last.getTime() + schedule.everyMs) : null);
    }
    return new Date(Math.floor(Date.now() / schedule.everyMs) * schedule.everyMs + schedule.everyMs);
  }

  /** Every job with its last run, next run and five most recent failures (Admin → Jobs). */
  async list(): Promise<JobView[]> {
    const db = this.app.db;
    return Promise.all(
      this.definitions.map(async (def) => {
        const [last] = await db
          .select()
          .from(jobRuns)
          .where(eq(jobRuns.jobName, def.name))
          .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
          .limit(1);
        const failures = await db
          .select()
          .from(jobRuns)
          .where(and(eq(jobRuns.jobName, def.name), inArray(jobRuns.result, ['failed', 'timed_out'])))
          .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
          .limit(5);
        return {
          name: def.name,
          title: def.title,
          schedule: scheduleText(this.scheduleOf(def)),
          timeout_ms: def.timeoutMs,
          retry: { limit: def.retry.limit, delay_ms: def.retry.delayMs, backoff: def.retry.backoff ?? false },
          embedded_only: def.pgliteOnly ?? false,
          unavailable: this.unavailable(def) ?? null,
          running: this.running.has(def.name),
          last_run: last ? runView(last) : null,
          last_checked_at: this.lastChecked.get(def.name)?.toISOString() ?? null,
          next_run_at: this.nextRunAt(def)?.toISOString() ?? null,
          recent_failures: failures.map(runView),
        };
      }),
    );
  }

  /** A page of `name`'s runs, newest first, JOB_RUNS_PER_PAGE a page. */
  async runs(name: string, page: number): Promise<PageObject<JobRunView>> {
    const db = this.app.db;
    const [{ total }] = await db.select({ total: count() }).from(jobRuns).where(eq(jobRuns.jobName, name));
    const rows = await db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.jobName, name))
      .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
      .limit(JOB_RUNS_PER_PAGE)
      .offset((page - 1) * JOB_RUNS_PER_PAGE);
    return buildPage(
      rows.map(runView),
      page,
      JOB_RUNS_PER_PAGE,
      total,
      (p) => `/api/admin/jobs/${encodeURIComponent(name)}/runs?page=${p}`,
    );
  }
}
