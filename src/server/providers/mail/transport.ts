import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
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
 * SMTP through nodemailer (DESIGN §1 Mail), e.g. `smtp://user:pass@mail.example:587` or
 * `smtps://...:465`. Connections are pooled.
 */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url.includes('?') ? `${url}&pool=true` : `${url}?pool=true`);
  return {
    name: 'smtp',
    async send(mail) {
      await transporter.sendMail(mail);
    },
    close() {
      transporter.close();
    },
  };
}
