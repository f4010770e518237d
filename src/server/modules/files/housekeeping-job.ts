import { sweepLimitCounters } from '../limits/take-limit.ts';
import { sweepDailyCounters } from '../quotas/daily-counters.ts';
import { removeStoredFiles } from './remove-stored-files.ts';
import type { FastifyInstance } from 'fastify';

/** Partial uploads untouched this long were cut off (a killed process) and are removed. */
export const PARTIAL_UPLOAD_MAX_AGE_MS = 3_600_000;
/** How often the sweep runs (the job `upload-housekeeping`, docs/jobs.md). */
export const HOUSEKEEPING_EVERY_MS = 15 * 60_000;

/**
 * One round of upload housekeeping (docs/security.md "Upload quotas"): removes the partial
 * uploads (`.part` files of the disk storage) untouched for an hour, the stored files deleted users
 * and accounts left behind that an earlier removal could not delete (removeStoredFiles), and the
 * daily counters (upload quotas, acknowledgements) of days before yesterday, and the abuse limits'
 * counters whose window has ended (docs/security.md "Limits on mail and payments").
 * @returns how many of each were removed
 */
export async function runHousekeeping(
  app: FastifyInstance,
  now = new Date(),
): Promise<{ partialUploads: number; filesLeftBehind: number; dailyCounters: number; limitCounters: number }> {
  const partialUploads = (await app.providers.storage.sweepPartial?.(PARTIAL_UPLOAD_MAX_AGE_MS, now)) ?? 0;
  const { removed: filesLeftBehind } = await removeStoredFiles(app.db, app.providers.storage);
  const dailyCounters = await sweepDailyCounters(app.db);
  const limitCounters = await sweepLimitCounters(app.db);
  return { partialUploads, filesLeftBehind, dailyCounters, limitCounters };
}
