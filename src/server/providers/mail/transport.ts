import type { Transporter } from 'nodemailer';

interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML alternative of `text`: both go as one multipart/alternative message. */
  html?: string;
  /** Extra headers, e.g. `{ 'X-Request-Id': '…' }` (docs/deploy.md "Observability"). */
  headers?: Record<string, string>;
}

/** Sends one mail; throws when the peer refuses it so the outbox can retry. */
export interface MailTransport {
  readonly name: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer (docs/requirements/platform.md §1 Mail), e.g. `smtp://user:pass@mail.example:587` or
 * `smtps://...:465`. Connections are pooled. nodemailer is loaded with the first mail, so a
 * server that sends none does not hold it (docs/operations.md "Memory").
 */
export function smtpTransport(url: string): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  let closed = false;
  const open = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) => {
      const created = nodemailer.createTransport(url.includes('?') ? `${url}&pool=true` : `${url}?pool=true`);
      if (closed) created.close();
      return created;
    }));
  return {
    name: 'smtp',
    async send(mail) {
      await (await open()).sendMail(mail);
    },
    close() {
      closed = true;
      void transporter?.then((created) => created.close());
    },
  };
}
