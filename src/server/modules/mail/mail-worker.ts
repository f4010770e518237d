import type { FastifyInstance } from 'fastify';
import { deliverPendingMail } from './deliver-pending-mail.ts';

/**
 * Polls the outbox every `config.mail.pollMs` and sends due mails when an SMTP transport is
 * configured. Stops with the app. Without SMTP, mails are kept in the outbox for admins to read.
 */
export function startMailWorker(app: FastifyInstance): void {
  const transport = app.providers.mail;
  if (!transport) return;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const { sent, failed } = await deliverPendingMail(app.db, transport, app.config.mail.from);
      if (sent || failed) app.log.info({ sent, failed }, 'mail outbox delivered');
    } catch (err) {
      app.log.warn({ err }, 'mail outbox round failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, app.config.mail.pollMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
