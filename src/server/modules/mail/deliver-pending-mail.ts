import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import type { MailTransport } from '../../providers/mail/transport.ts';

/** What is kept of a sent mail that carried a secret link (docs/security.md "Outbox"). */
export const SENT_TOKEN_MAIL_NOTE = 'This mail carried a one-time link. Its text was removed after it was sent.';

/** Attempts before a mail is marked 'failed' and left for an admin to see. */
export const MAX_MAIL_ATTEMPTS = 8;

/** Backoff before attempt n+1: 1 min, 2, 4, ... capped at 6 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
}

/**
 * Sends up to `batch` due mails from the outbox through `transport`.
 * Writes: status 'sent' and sent_at on success (a mail marked carries_token keeps only
 * SENT_TOKEN_MAIL_NOTE as its body, so the link no longer exists anywhere on our side); attempts, last_error and next_attempt_at on failure;
 * status 'failed' after MAX_MAIL_ATTEMPTS. Rows are claimed with FOR UPDATE SKIP LOCKED so several
 * processes on one PostgreSQL server never send a mail twice.
 * @returns how many were sent and how many failed this round
 */
export async function deliverPendingMail(
  db: Db,
  transport: MailTransport,
  from: string,
  batch = 20,
): Promise<{ sent: number; failed: number }> {
  const claimed = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(mailOutbox)
      // The database's clock decides what is due: rows are stamped with its now(), in microseconds,
      // and a JavaScript Date (milliseconds) can fall just before a row written a moment ago.
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(mailOutbox.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (rows.length) {
      // Park claimed rows briefly so another process skips them while we send.
      await tx
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now() + interval '5 minutes'` })
        .where(inArray(mailOutbox.id, rows.map((r) => r.id)));
    }
    return rows;
  });
  let sent = 0;
  let failed = 0;
  for (const row of claimed) {
    try {
      await transport.send({ from, to: row.toAddress, subject: row.subject, text: row.textBody, ...(row.requestId ? { headers: { 'X-Request-Id': row.requestId } } : {}) });
      await db.update(mailOutbox).set({
        status: 'sent', sentAt: new Date(), attempts: row.attempts + 1, lastError: '',
        ...(row.carriesToken ? { textBody: SENT_TOKEN_MAIL_NOTE } : {}),
      }).where(eq(mailOutbox.id, row.id));
      sent++;
    } catch (err) {
      const attempts = row.attempts + 1;
      await db
        .update(mailOutbox)
        .set({
          attempts,
          lastError: String((err as Error).message ?? err).slice(0, 500),
          status: attempts >= MAX_MAIL_ATTEMPTS ? 'failed' : 'pending',
          nextAttemptAt: sql`now() + make_interval(secs => ${retryDelayMs(attempts) / 1000})`,
        })
        .where(eq(mailOutbox.id, row.id));
      failed++;
    }
  }
  return { sent, failed };
}
