import type { DbOrTx } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

export interface MailToQueue {
  /** What the mail is for, e.g. 'inquiry.staff', 'inquiry.ack', 'password.reset'. */
  kind: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * Writes mails to the outbox (DESIGN §1 Mail); they are kept until sent. Call it inside the
 * transaction that writes the record the mail is about, so both exist or neither does.
 * Writes: mail_outbox rows with status 'pending'.
 */
export async function enqueueMail(db: DbOrTx, mails: MailToQueue[]): Promise<void> {
  if (!mails.length) return;
  await db.insert(mailOutbox).values(
    mails.map((m) => ({ kind: m.kind, toAddress: m.to, subject: m.subject.slice(0, 300), textBody: m.text })),
  );
}
