import { and, asc, lt, sql, type AnyColumn, type SQLWrapper } from 'drizzle-orm';
import {
  applications,
  auditLog,
  inquiries,
  irsBulkChecks,
  mailOutbox,
  passwordResets,
  ratings,
  sessions,
} from '../../db/schema.ts';
import { removeStoredFiles } from '../files/remove-stored-files.ts';
import { inBatches, type BatchOptions } from './batches.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';

/*
 * One function per retention rule (docs/retention.md "Rules"). Each works in statements of at most
 * `batch` rows, picked through an index in the order they aged and locked with FOR UPDATE SKIP
 * LOCKED, so runs on several servers at once share the work instead of waiting on each other, and
 * a run never holds a long transaction. Predicates that partial indexes match are written as SQL
 * literals: a bound parameter cannot match an index's WHERE clause in a generic plan.
 */

/**
 * `column = ANY(ARRAY(due))`: the batch's keys are read once and the rows found by their primary
 * key. (`column IN (due)` lets the planner join the whole table against the batch instead.)
 */
const oneOf = (column: AnyColumn, due: SQLWrapper) => sql`${column} = ANY(ARRAY(${due}))`;

/**
 * Sent mail bodies (RETAIN_SENT_MAIL_DAYS): blanks the text of mails sent before `sentBefore`.
 * Subject, address, kind, status and dates stay, so staff still see what was sent to whom and when.
 * Reads through mail_outbox_sent_with_text. Writes: mail_outbox.text_body = '', html_body = null.
 * @returns how many mails were blanked
 */
export async function blankSentMailBodies(db: Db, sentBefore: Date, opts: BatchOptions = {}): Promise<number> {
  return inBatches(async (batch) => {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(sql`${mailOutbox.status} = 'sent' AND ${mailOutbox.textBody} <> ''`, lt(mailOutbox.sentAt, sentBefore)),
      )
      .orderBy(asc(mailOutbox.sentAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    const rows = await db
      .update(mailOutbox)
      .set({ textBody: '', htmlBody: null })
      .where(oneOf(mailOutbox.id, due))
      .returning({ id: mailOutbox.id });
    return rows.length;
  }, opts);
}

/**
 * Expired one-time tokens (RETAIN_EXPIRED_TOKENS_DAYS): deletes password reset and set-password
 * tokens, used or not, and sessions that expired before `expiredBefore`. (Application links are
 * the application's own handle and go with the draft; see deleteAbandonedDrafts.)
 * Reads through password_resets_expires and sessions_expires. Writes: deletes those rows.
 * @returns how many rows were deleted, both tables together
 */
export async function deleteExpiredTokens(db: Db, expiredBefore: Date, opts: BatchOptions = {}): Promise<number> {
  const resets = await inBatches(async (batch) => {
    const due = db
      .select({ id: passwordResets.id })
      .from(passwordResets)
      .where(lt(passwordResets.expiresAt, expiredBefore))
      .orderBy(asc(passwordResets.expiresAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    return (await db.delete(passwordResets).where(oneOf(passwordResets.id, due)).returning({ id: passwordResets.id }))
      .length;
  }, opts);
  const ended = await inBatches(async (batch) => {
    const due = db
      .select({ idHash: sessions.idHash })
      .from(sessions)
      .where(lt(sessions.expiresAt, expiredBefore))
      .orderBy(asc(sessions.expiresAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    return (await db.delete(sessions).where(oneOf(sessions.idHash, due)).returning({ idHash: sessions.idHash })).length;
  }, opts);
  return resets + ended;
}

/**
 * Abandoned drafts (RETAIN_DRAFT_DAYS): deletes applications never submitted (status 'draft', or
 * 'deleted' by their owner) whose answers were last saved before `untouchedSince` and that got no
 * document since, with their answers and their link; then removes their uploaded documents (the
 * database cut their files rows loose: removeStoredFiles removes such files, bytes first). An
 * application an invoice names is never deleted. The applicant's user stays.
 * Reads through applications_status_updated. Writes: deletes applications rows, then storage
 * objects and files rows.
 * @returns drafts deleted and documents removed
 */
export async function deleteAbandonedDrafts(
  db: Db,
  storage: FileStorage,
  untouchedSince: Date,
  opts: BatchOptions = {},
): Promise<{ drafts: number; files: number }> {
  const drafts = await inBatches(async (batch) => {
    const due = db
      .select({ id: applications.id })
      .from(applications)
      .where(
        and(
          sql`${applications.status} IN ('draft', 'deleted')`,
          lt(applications.updatedAt, untouchedSince),
          sql`NOT EXISTS (SELECT 1 FROM files f WHERE f.application_id = ${applications.id} AND f.created_at >= ${at(untouchedSince)})`,
          sql`NOT EXISTS (SELECT 1 FROM invoices i WHERE i.application_id = ${applications.id})`,
        ),
      )
      .orderBy(asc(applications.updatedAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    return (await db.delete(applications).where(oneOf(applications.id, due)).returning({ id: applications.id })).length;
  }, opts);
  const { removed } = await removeStoredFiles(db, storage);
  return { drafts, files: removed };
}

/**
 * Old inquiries (RETAIN_INQUIRY_DAYS): deletes public form submissions (contact, compliance check,
 * multi-chapter, campus report) received before `receivedBefore`, handled or not.
 * Reads through inquiries_created. Writes: deletes inquiries rows.
 * @returns how many were deleted
 */
export async function deleteOldInquiries(db: Db, receivedBefore: Date, opts: BatchOptions = {}): Promise<number> {
  return inBatches(async (batch) => {
    const due = db
      .select({ id: inquiries.id })
      .from(inquiries)
      .where(lt(inquiries.createdAt, receivedBefore))
      .orderBy(asc(inquiries.createdAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    return (await db.delete(inquiries).where(oneOf(inquiries.id, due)).returning({ id: inquiries.id })).length;
  }, opts);
}

/**
 * Old ratings (RETAIN_RATING_DAYS): deletes page ratings given before `givenBefore`.
 * Reads through ratings_created. Writes: deletes ratings rows.
 * @returns how many were deleted
 */
export async function deleteOldRatings(db: Db, givenBefore: Date, opts: BatchOptions = {}): Promise<number> {
  return inBatches(async (batch) => {
    const due = db
      .select({ id: ratings.id })
      .from(ratings)
      .where(lt(ratings.createdAt, givenBefore))
      .orderBy(asc(ratings.createdAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    return (await db.delete(ratings).where(oneOf(ratings.id, due)).returning({ id: ratings.id })).length;
  }, opts);
}

/**
 * Old checks of a list of EINs (RETAIN_BULK_CHECK_DAYS; docs/irs-standing.md "Checking a list of
 * EINs"): deletes checks that finished (done or failed) before `finishedBefore`, with their EINs and
 * result CSV, which may run to megabytes. A check still running is never deleted. The audit row of
 * its upload stays.
 * Reads through irs_bulk_checks_finished_at_idx. Writes: deletes irs_bulk_checks rows.
 * @returns how many were deleted
 */
export async function deleteOldBulkChecks(db: Db, finishedBefore: Date, opts: BatchOptions = {}): Promise<number> {
  return inBatches(async (batch) => {
    const due = db
      .select({ id: irsBulkChecks.id })
      .from(irsBulkChecks)
      .where(and(sql`${irsBulkChecks.status} IN ('done', 'failed')`, lt(irsBulkChecks.finishedAt, finishedBefore)))
      .orderBy(asc(irsBulkChecks.finishedAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    return (await db.delete(irsBulkChecks).where(oneOf(irsBulkChecks.id, due)).returning({ id: irsBulkChecks.id }))
      .length;
  }, opts);
}

/** The id a payment or discrepancy audit row names in `details`, or null; never a cast error. */
const detailId = (key: 'paymentId' | 'discrepancyId') =>
  sql`CASE WHEN ${auditLog.details}->>${sql.raw(`'${key}'`)} ~ '^[0-9]{1,9}$' THEN (${auditLog.details}->>${sql.raw(`'${key}'`)})::int END`;

/** A Date as a timestamptz parameter (raw SQL fragments get no column type to convert it by). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Audit rows past their years (RETAIN_AUDIT_YEARS): deletes audit rows written before
 * `writtenBefore`, except the money records that are still alive: a row naming a payment
 * (`details.paymentId`) is kept while that payment is unfinished (pending, held, awaiting consent
 * or flagged for staff) or anything happened to it or its refunds since `writtenBefore`; a row
 * naming a gateway discrepancy (`details.discrepancyId`) while it is open or was found or resolved
 * since. So a payment's trail (who submitted it on the account's behalf, who approved, voided or
 * refunded it, and why) goes only as a whole, once its last movement of money is past the limit.
 * Payments, refunds and invoices themselves are never deleted by retention.
 * Reads through audit_log_created. Writes: deletes audit_log rows.
 * @returns how many were deleted
 */
export async function deleteOldAuditRows(db: Db, writtenBefore: Date, opts: BatchOptions = {}): Promise<number> {
  const since = at(writtenBefore);
  const paymentStillNeeded = sql`EXISTS (
    SELECT 1 FROM payments p WHERE p.id = ${detailId('paymentId')} AND (
      p.status IN ('pending', 'held', 'awaiting_consent') OR p.review_reason IS NOT NULL
      OR p.created_at >= ${since} OR p.settled_at >= ${since}
      OR EXISTS (SELECT 1 FROM payment_refunds r WHERE r.payment_id = p.id AND (r.status = 'pending' OR r.created_at >= ${since} OR r.settled_at >= ${since}))))`;
  const discrepancyStillNeeded = sql`EXISTS (
    SELECT 1 FROM gateway_discrepancies d WHERE d.id = ${detailId('discrepancyId')}
      AND (d.resolved_at IS NULL OR d.resolved_at >= ${since} OR d.found_at >= ${since}))`;
  return inBatches(async (batch) => {
    const due = db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(lt(auditLog.createdAt, writtenBefore), sql`NOT ${paymentStillNeeded}`, sql`NOT ${discrepancyStillNeeded}`),
      )
      .orderBy(asc(auditLog.createdAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    return (await db.delete(auditLog).where(oneOf(auditLog.id, due)).returning({ id: auditLog.id })).length;
  }, opts);
}
