import type { FastifyInstance } from 'fastify';
import { startIntervalJob } from '../../interval-job.ts';
import { deliverPendingMail } from './deliver-pending-mail.ts';

/**
 * Polls the outbox every `config.mail.pollMs` and sends due mails when an SMTP transport is
 * configured. Stops with the app. Without SMTP, mails are kept in the outbox for admins to read.
 * Closing the app stops the round under way after its send in progress and waits for it, before
 * the transport and the database close (docs/mail.md "Shutdown").
 */
export function startMailWorker(app: FastifyInstance): void {
  const transport = app.providers.mail;
  if (!transport) return;
  const stop = new AbortController();
  let round: Promise<unknown> | null = null;
  startIntervalJob(app, {
    name: 'mail outbox round', everyMs: app.config.mail.pollMs,
    run: async () => {
      round = deliverPendingMail(app.db, transport, app.config.mail.from, {
        leaseMs: app.config.mail.leaseSeconds * 1000, signal: stop.signal, log: app.log,
      });
      try {
        const { sent, failed } = (await round) as { sent: number; failed: number };
        if (sent || failed) app.log.info({ sent, failed }, 'mail outbox delivered');
      } finally {
        round = null;
      }
    },
  });
  // onClose hooks run last-registered first: this one before buildApp's, which closes the transport.
  app.addHook('onClose', async () => {
    stop.abort();
    await round?.catch(() => undefined);
  });
}
