import type { FastifyInstance } from 'fastify';

/** A job run on a timer in this process (the mail worker, reminders, reconciliation, housekeeping). */
export interface IntervalJob {
  /** Named in the warning logged when a run throws, e.g. 'payment reconciliation'. */
  name: string;
  /** Delay of the first run after start, in ms; omitted: the first run waits `everyMs`. */
  firstRunMs?: number;
  /** Time between runs, in ms. */
  everyMs: number;
  run: () => Promise<void>;
}

/**
 * Runs `job.run` after `firstRunMs`, then every `everyMs`, in this process. Runs never overlap (a
 * tick that finds the previous run still going is skipped); a run that throws is logged as a
 * warning and the schedule goes on. The timers do not keep the process alive and stop when the app
 * closes. Several servers each run their own timers: the jobs themselves make a second run
 * harmless (claims with FOR UPDATE SKIP LOCKED, unique keys, conditional updates).
 */
export function startIntervalJob(app: FastifyInstance, job: IntervalJob): void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await job.run();
    } catch (err) {
      app.log.warn({ err }, `${job.name} failed`);
    } finally {
      running = false;
    }
  };
  const first = job.firstRunMs === undefined ? undefined : setTimeout(tick, job.firstRunMs);
  const every = setInterval(tick, job.everyMs);
  first?.unref();
  every.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
