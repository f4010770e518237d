import { and, eq, lt, sql } from 'drizzle-orm';
import { dailyCounters } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/** Today in UTC, by the database's clock, so every server agrees on when a day ends. */
export const TODAY_UTC = sql`(now() AT TIME ZONE 'UTC')::date`;

/** What one key has counted today. */
export interface DailyUsage {
  count: number;
  bytes: number;
}

/** A key's counts for today (zeros when nothing was counted yet). */
export async function usageToday(db: DbOrTx, key: string): Promise<DailyUsage> {
  const [row] = await db
    .select({ count: dailyCounters.count, bytes: dailyCounters.bytes })
    .from(dailyCounters)
    .where(and(eq(dailyCounters.key, key), eq(dailyCounters.day, TODAY_UTC)));
  return row ? { count: row.count, bytes: Number(row.bytes) } : { count: 0, bytes: 0 };
}

/**
 * Adds `add` to a key's counts for today, but only if the totals stay within `max`; one atomic
 * upsert on (key, day), so callers on several servers never pass the limits together (the row is
 * locked until the caller's transaction ends).
 * Writes: the key's daily_counters row for today.
 * @returns the totals after adding, or null when they would pass `max` (nothing changed)
 */
export async function addIfWithin(
  db: DbOrTx,
  key: string,
  add: DailyUsage,
  max: DailyUsage,
): Promise<DailyUsage | null> {
  if (add.count > max.count || add.bytes > max.bytes) return null;
  const [row] = await db
    .insert(dailyCounters)
    .values({ key, day: TODAY_UTC, count: add.count, bytes: add.bytes })
    .onConflictDoUpdate({
      target: [dailyCounters.key, dailyCounters.day],
      set: { count: sql`${dailyCounters.count} + excluded.count`, bytes: sql`${dailyCounters.bytes} + excluded.bytes` },
      setWhere: sql`${dailyCounters.count} + excluded.count <= ${max.count} AND ${dailyCounters.bytes} + excluded.bytes <= ${max.bytes}`,
    })
    .returning({ count: dailyCounters.count, bytes: dailyCounters.bytes });
  return row ? { count: row.count, bytes: Number(row.bytes) } : null;
}

/**
 * Deletes the counters of days before yesterday (UTC): nothing reads them any more.
 * @returns how many rows were deleted
 */
export async function sweepDailyCounters(db: DbOrTx): Promise<number> {
  const gone = await db
    .delete(dailyCounters)
    .where(lt(dailyCounters.day, sql`${TODAY_UTC} - 1`))
    .returning({ key: dailyCounters.key });
  return gone.length;
}
