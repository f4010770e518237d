import type { FastifyInstance } from 'fastify';
import { startIntervalJob } from '../../interval-job.ts';
import { deliverPendingMail } from './deliver-pending-mail.ts';

/**
 * Polls the outbox every `config.mail.pollMs` and sends due mails when an SMTP transport is
 * configured. Stops with the app. Without SMTP, mails are kept in the outbox for admins to read.
 */
export function startMailWorker(app: FastifyInstance): void {
  const transport = app.providers.mail;
  if (!transport) return;
  startIntervalJob(app, {
    name: 'mail outbox round', everyMs: app.config.mail.pollMs,
    run: async () => {
      const { sent, failed } = await deliverPendingMail(app.db, transport, app.config.mail.from);
      if (sent || failed) app.log.info({ sent, failed }, 'mail outbox delivered');
    },
  });
}
