import { runHousekeeping } from '../files/housekeeping-job.ts';
import { daysBefore, hoursBefore, yearsBefore } from './batches.ts';
import { deleteOrphanedFiles } from './orphaned-files.ts';
import {
  blankSentMailBodies,
  deleteAbandonedDrafts,
  deleteExpiredTokens,
  deleteOldAuditRows,
  deleteOldBulkChecks,
  deleteOldInquiries,
  deleteOldRatings,
} from './rules.ts';
import type { FastifyInstance } from 'fastify';

/** What one retention run did: items removed or blanked, in all and per rule (docs/retention.md "Rules"). */
export interface RetentionResult {
  itemsDone: number;
  /**
   * Per rule: sentMailBodies, expiredTokens, abandonedDrafts, draftFiles, inquiries, ratings,
   * auditRows, bulkChecks, orphanedFiles, partialUploads, filesLeftBehind. A rule turned off
   * (setting 0) is absent.
   */
  byRule: Record<string, number>;
}

/** Thrown after a run in which some rules failed; the others ran. */
class RetentionError extends Error {
  failedRules: string[];
  result: RetentionResult;
  causes: unknown[];
  constructor(failedRules: string[], result: RetentionResult, causes: unknown[]) {
    super(`retention rules failed: ${failedRules.join(', ')}`);
    this.failedRules = failedRules;
    this.result = result;
    this.causes = causes;
  }
}

/**
 * One run of the retention policy (docs/retention.md): every rule whose setting
 * (app.config.retention) is not 0, one after the other, each in bounded batches, with the limits
 * counted back from `now`. Safe on several servers at once (rows are taken with FOR UPDATE SKIP
 * LOCKED; removing a removed object is a no-op). Runs daily through the jobs module; nothing here
 * schedules it.
 * Writes: see each rule in rules.ts and orphaned-files.ts; the orphaned-uploads rule also runs the
 * upload housekeeping round (runHousekeeping: partial uploads, files left behind by deletions).
 * @param now the moment the limits count back from (tests pass a fixed one)
 * @returns items done in all and per rule
 * @throws RetentionError naming the rules that failed, after the others ran (its `result` has their counts)
 */
export async function runRetention(app: FastifyInstance, now = new Date()): Promise<RetentionResult> {
  const limits = app.config.retention;
  const { db } = app;
  const storage = app.providers.storage;
  const byRule: Record<string, number> = {};
  const failedRules: string[] = [];
  const causes: unknown[] = [];
  const rule = async (name: string, setting: number, run: () => Promise<Record<string, number>>) => {
    if (setting === 0) return;
    try {
      Object.assign(byRule, await run());
    } catch (err) {
      failedRules.push(name);
      causes.push(err);
      app.log.error({ err, rule: name }, 'retention rule failed');
    }
  };

  await rule('sentMailBodies', limits.sentMailDays, async () => ({
    sentMailBodies: await blankSentMailBodies(db, daysBefore(now, limits.sentMailDays)),
  }));
  await rule('expiredTokens', limits.expiredTokenDays, async () => ({
    expiredTokens: await deleteExpiredTokens(db, daysBefore(now, limits.expiredTokenDays)),
  }));
  await rule('abandonedDrafts', limits.draftDays, async () => {
    const { drafts, files } = await deleteAbandonedDrafts(db, storage, daysBefore(now, limits.draftDays));
    return { abandonedDrafts: drafts, draftFiles: files };
  });
  await rule('inquiries', limits.inquiryDays, async () => ({
    inquiries: await deleteOldInquiries(db, daysBefore(now, limits.inquiryDays)),
  }));
  await rule('ratings', limits.ratingDays, async () => ({
    ratings: await deleteOldRatings(db, daysBefore(now, limits.ratingDays)),
  }));
  await rule('auditRows', limits.auditYears, async () => ({
    auditRows: await deleteOldAuditRows(db, yearsBefore(now, limits.auditYears)),
  }));
  await rule('bulkChecks', limits.bulkCheckDays, async () => ({
    bulkChecks: await deleteOldBulkChecks(db, daysBefore(now, limits.bulkCheckDays)),
  }));
  await rule('orphanedFiles', limits.orphanFileHours, async () => {
    // Partial uploads and files left behind by deletions: the housekeeping round's own work, reused.
    const housekeeping = await runHousekeeping(app, now);
    const orphans = await deleteOrphanedFiles(db, storage, hoursBefore(now, limits.orphanFileHours));
    return {
      orphanedFiles: orphans.removed,
      partialUploads: housekeeping.partialUploads,
      filesLeftBehind: housekeeping.filesLeftBehind,
    };
  });

  const result = { itemsDone: Object.values(byRule).reduce((a, b) => a + b, 0), byRule };
  if (failedRules.length) throw new RetentionError(failedRules, result, causes);
  return result;
}
