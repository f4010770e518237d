import { deliverPendingMail } from './deliver-pending-mail.ts';
import type { FastifyInstance } from 'fastify';

/**
 * One round of the outbox: sends the due mails when an SMTP transport is configured (the job
 * `outbox-delivery` runs it every MAIL_POLL_MS on every server, docs/jobs.md). Without SMTP mails
 * stay in the outbox for admins to read and the round does nothing.
 * The round holds its mails by a lease with a heartbeat (docs/mail.md "One send per mail"); when
 * `signal` aborts (the server stopping) it finishes the send in progress, records it and hands the
 * other mails back (docs/mail.md "Shutdown").
 * Writes: what deliverPendingMail writes. @returns mails sent and failed this round
 */
export async function runMailRound(
  app: FastifyInstance,
  signal?: AbortSignal,
): Promise<{ sent: number; failed: number }> {
  const transport = app.providers.mail;
  if (!transport) return { sent: 0, failed: 0 };
  return deliverPendingMail(app.db, transport, app.config.mail.from, {
    leaseMs: app.config.mail.leaseSeconds * 1000,
    signal,
    log: app.log,
  });
}
