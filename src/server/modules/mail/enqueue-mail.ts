import { mailOutbox } from '../../db/schema.ts';
import { currentRequest } from '../../request-context.ts';
import type { DbOrTx } from '../../db/client.ts';

export interface MailToQueue {
  /** What the mail is for, e.g. 'inquiry.staff', 'inquiry.ack', 'password.reset'. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  /**
   * The HTML part, a whole document (see mail-html.ts mailLayout). Without it the HTML part is
   * the text in the same layout (defaultMailHtml), so every mail has both parts (docs/mail.md).
   */
  html?: string;
  /**
   * The text (and the HTML) holds a secret link (password reset, application resume): the body is replaced by a
   * note once the mail is sent, and staff see the link hidden while it waits (docs/security.md).
   */
  carriesToken?: boolean;
}

/**
 * Writes mails to the outbox (docs/requirements/platform.md §1 Mail); they are kept until sent. Call it inside the
 * transaction that writes the record the mail is about, so both exist or neither does.
 * Writes: mail_outbox rows with status 'pending' (text_body, html_body when given), each with the id of the request being handled
 * (request_id, sent as X-Request-Id; docs/deploy.md "Observability"), or null outside a request.
 * @returns the new outbox rows' ids, in the order of `mails`
 */
export async function enqueueMail(db: DbOrTx, mails: MailToQueue[]): Promise<number[]> {
  if (!mails.length) return [];
  const requestId = currentRequest()?.requestId ?? null;
  const rows = await db
    .insert(mailOutbox)
    .values(
      mails.map((m) => ({
        kind: m.kind,
        toAddress: m.to,
        subject: m.subject.slice(0, 300),
        textBody: m.text,
        htmlBody: m.html ?? null,
        carriesToken: m.carriesToken ?? false,
        requestId,
      })),
    )
    .returning({ id: mailOutbox.id });
  return rows.map((r) => r.id);
}
