/** Rows one retention statement touches at most: short statements, short locks. */
export const RETENTION_BATCH = 1_000;

/** Rows one rule touches at most in one run; the rest waits for the next day's run. */
export const RETENTION_MAX_PER_RUN = 100_000;

/** How a rule works through its rows; tests give small batches to see it loop. */
export interface BatchOptions {
  /** Rows per statement (default RETENTION_BATCH). */
  batch?: number;
  /** Rows per run (default RETENTION_MAX_PER_RUN). */
  maxPerRun?: number;
}

/**
 * Runs `step` (one statement over at most `batch` rows, returning how many it touched) until a
 * step touches fewer than `batch` rows or `maxPerRun` rows are done. Each step is its own
 * statement and transaction, so a table of millions of rows is never locked for long.
 * @returns rows touched in all
 */
export async function inBatches(step: (batch: number) => Promise<number>, opts: BatchOptions = {}): Promise<number> {
  const batch = opts.batch ?? RETENTION_BATCH;
  const max = opts.maxPerRun ?? RETENTION_MAX_PER_RUN;
  let done = 0;
  while (done < max) {
    const size = Math.min(batch, max - done);
    const n = await step(size);
    done += n;
    if (n < size) break;
  }
  return done;
}

/** `now` minus `days` days. */
export const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/** `now` minus `hours` hours. */
export const hoursBefore = (now: Date, hours: number) => new Date(now.getTime() - hours * 3_600_000);

/** The same instant `years` calendar years earlier (UTC; 29 February becomes 1 March). */
export function yearsBefore(now: Date, years: number): Date {
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d;
}
