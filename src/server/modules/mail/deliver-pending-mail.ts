import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { mailOutbox } from '../../db/schema.ts';
import { defaultMailHtml } from './mail-html.ts';
import type { Db } from '../../db/client.ts';
import type { MailTransport } from '../../providers/mail/transport.ts';

/** What is kept of a sent mail that carried a secret link (docs/security.md "Outbox"). */
export const SENT_TOKEN_MAIL_NOTE = 'This mail carried a one-time link. Its text was removed after it was sent.';

/** Attempts before a mail is marked 'failed' and left for an admin to see. */
export const MAX_MAIL_ATTEMPTS = 8;

/** How long a round's claim on a mail holds without a heartbeat, by default (MAIL_LEASE_SECONDS). */
const DEFAULT_MAIL_LEASE_MS = 300_000;

/** Backoff before attempt n+1: 1 min, 2, 4, ... capped at 6 hours. */
function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
}

/** How one delivery round runs; every field is optional. */
export interface DeliveryOptions {
  /** Most mails claimed by this round (default 20). */
  batch?: number;
  /** How long the claim on each mail holds without a heartbeat, in ms (default 300 000; config.mail.leaseSeconds). */
  leaseMs?: number;
  /**
   * Stops the round (the server is shutting down): no further send starts, the send in progress
   * is finished and recorded, and the mails not yet sent are handed back at once. The promise of
   * the round settles after that, so awaiting it waits for the send in progress.
   */
  signal?: AbortSignal;
  /** Told when a mail's lease was lost (a possible second send by another server), e.g. app.log. */
  log?: { warn(obj: object, msg: string): void };
}

/**
 * One delivery round: sends up to `batch` due mails from the outbox through `transport`
 * (docs/mail.md "One send per mail"), each with its text and HTML part (its html_body, written
 * with it by enqueueMail; a row from before that gets its text in the mail layout, with no link:
 * docs/mail.md "Two parts").
 *
 * The round claims due rows that no other round holds (no lease, or a lease past its end) with
 * FOR UPDATE SKIP LOCKED and writes its lease on them (`leased_by` = a random id of this round,
 * `lease_until` = now + leaseMs) in one short transaction, then sends them one by one outside it.
 * While the round holds mails, a heartbeat every leaseMs / 3 pushes their lease on, so however
 * slow the SMTP server is, no other server takes a mail that is being sent; a server that stops
 * (crash, kill) stops its heartbeat, and its mails are taken by another after at most leaseMs.
 * A mail whose lease was lost (the heartbeat could not reach the database in time) is not sent if
 * its send has not started, and its outcome is not written over the other round's claim.
 *
 * Writes, only on rows this round still holds (`leased_by` = its id): status 'sent' and sent_at on
 * success (a mail marked carries_token keeps only SENT_TOKEN_MAIL_NOTE as its text and no HTML, so
 * the link no longer exists anywhere on our side); attempts, last_error and next_attempt_at on failure; status
 * 'failed' after MAX_MAIL_ATTEMPTS; the lease cleared in every case. `next_attempt_at` moves with
 * the lease, so a server of the release before leases, which reads only that column, skips the
 * mail too during a rolling deploy.
 *
 * @returns how many were sent and how many failed this round (a mail sent after its lease was
 *   lost counts as sent: it left)
 * @throws only when the claim itself fails (the database cannot be reached); send errors are recorded
 */
export async function deliverPendingMail(
  db: Db,
  transport: MailTransport,
  from: string,
  opts: DeliveryOptions = {},
): Promise<{ sent: number; failed: number }> {
  const batch = opts.batch ?? 20;
  const leaseMs = Math.max(1, Math.round(opts.leaseMs ?? DEFAULT_MAIL_LEASE_MS));
  const leaseUntil = sql`now() + make_interval(secs => ${leaseMs / 1000})`;
  if (opts.signal?.aborted) return { sent: 0, failed: 0 };
  const roundId = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  const heldByUs = eq(mailOutbox.leasedBy, roundId);

  const claimed = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(mailOutbox)
      // The database's clock decides what is due and whose lease has ended: rows are stamped with
      // its now(), in microseconds, and the servers' clocks may differ from it and from each other.
      .where(
        and(
          eq(mailOutbox.status, 'pending'),
          lte(mailOutbox.nextAttemptAt, sql`now()`),
          or(isNull(mailOutbox.leaseUntil), lt(mailOutbox.leaseUntil, sql`now()`)),
        ),
      )
      .orderBy(asc(mailOutbox.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (rows.length) {
      await tx
        .update(mailOutbox)
        .set({ leasedBy: roundId, leaseUntil, nextAttemptAt: leaseUntil })
        .where(
          inArray(
            mailOutbox.id,
            rows.map((r) => r.id),
          ),
        );
    }
    return rows;
  });
  if (!claimed.length) return { sent: 0, failed: 0 };

  // Rows this round still holds and has not finished: what the heartbeat extends.
  const held = new Set(claimed.map((r) => r.id));
  let beating: Promise<void> | null = null;
  const beat = async () => {
    const ids = [...held];
    if (!ids.length) return;
    try {
      const kept = await db
        .update(mailOutbox)
        .set({ leaseUntil, nextAttemptAt: leaseUntil })
        .where(and(inArray(mailOutbox.id, ids), heldByUs, eq(mailOutbox.status, 'pending')))
        .returning({ id: mailOutbox.id });
      const still = new Set(kept.map((r) => r.id));
      for (const id of ids) {
        if (!still.has(id) && held.delete(id))
          opts.log?.warn({ mailId: id }, 'mail outbox: lease lost before the mail was sent');
      }
    } catch {
      // The database did not answer: the next beat tries again; if the lease ends meanwhile,
      // another server may take the mail and this round will not overwrite its outcome.
    }
  };
  const heartbeat = setInterval(
    () => {
      // One beat at a time: a slow database must not pile them up.
      if (!beating)
        beating = beat().finally(() => {
          beating = null;
        });
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );

  let sent = 0;
  let failed = 0;
  try {
    for (const row of claimed) {
      if (opts.signal?.aborted) break;
      // Lost while waiting behind a slow send: another round may have it now.
      if (!held.has(row.id)) continue;
      let error: unknown = null;
      try {
        await transport.send({
          from,
          to: row.toAddress,
          subject: row.subject,
          text: row.textBody,
          html: row.htmlBody ?? defaultMailHtml(row.subject, row.textBody),
          ...(row.requestId ? { headers: { 'X-Request-Id': row.requestId } } : {}),
        });
      } catch (err) {
        error = err;
      }
      held.delete(row.id);
      const release = { leasedBy: null, leaseUntil: null };
      let written: { id: number }[];
      if (error === null) {
        sent++;
        written = await db
          .update(mailOutbox)
          .set({
            status: 'sent',
            sentAt: new Date(),
            attempts: row.attempts + 1,
            lastError: '',
            ...release,
            ...(row.carriesToken ? { textBody: SENT_TOKEN_MAIL_NOTE, htmlBody: null } : {}),
          })
          .where(and(eq(mailOutbox.id, row.id), heldByUs))
          .returning({ id: mailOutbox.id });
      } else {
        failed++;
        const attempts = row.attempts + 1;
        written = await db
          .update(mailOutbox)
          .set({
            attempts,
            lastError: String((error as Error).message ?? error).slice(0, 500),
            status: attempts >= MAX_MAIL_ATTEMPTS ? 'failed' : 'pending',
            nextAttemptAt: sql`now() + make_interval(secs => ${retryDelayMs(attempts) / 1000})`,
            ...release,
          })
          .where(and(eq(mailOutbox.id, row.id), heldByUs))
          .returning({ id: mailOutbox.id });
      }
      if (!written.length)
        opts.log?.warn(
          { mailId: row.id, sent: error === null },
          'mail outbox: lease lost during the send; its outcome is left to the round that took it',
        );
    }
  } finally {
    clearInterval(heartbeat);
    await beating;
    // Mails claimed but not sent (shutdown, or an error above): hand them back, due at once.
    const unsent = [...held];
    if (unsent.length) {
      await db
        .update(mailOutbox)
        .set({ leasedBy: null, leaseUntil: null, nextAttemptAt: sql`now()` })
        .where(and(inArray(mailOutbox.id, unsent), heldByUs))
        .catch(() => undefined);
    }
  }
  return { sent, failed };
}
