import { mailOutbox } from '../../db/schema.ts';
import { currentRequest } from '../../request-context.ts';
import { defaultMailHtml } from './mail-html.ts';
import { defangOtherAddresses, findLinks } from './mail-words.ts';
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
   * A service that writes its own links only what `links` lists and shows typed text with
   * mail-words.ts, as the text does.
   */
  html?: string;
  /**
   * The mail's own links, as they stand in `text`: each made from config.publicUrl, or one of
   * IRS_PAGES. Only these become links in the HTML part; any other web address in the subject or
   * the text is defanged (docs/security.md "Mail carries only our links").
   */
  links?: string[];
  /**
   * The text (and the HTML) holds a secret link (password reset, application resume): the body is replaced by a
   * note once the mail is sent, and staff see the link hidden while it waits (docs/security.md).
   */
  carriesToken?: boolean;
}

/**
 * Writes mails to the outbox (docs/requirements/platform.md §1 Mail); they are kept until sent. Call it inside the
 * transaction that writes the record the mail is about, so both exist or neither does.
 * Each mail carries only its own links (docs/security.md "Mail carries only our links"): any web
 * address in its subject or text that is not one of its `links` is defanged (mail-words.ts), and
 * its HTML part, unless it brings its own, is drawn now from the text with only those links
 * linked, so the outbox holds both parts as they will be sent.
 * Writes: mail_outbox rows with status 'pending' (text_body, html_body), each with the id of the request being handled
 * (request_id, sent as X-Request-Id; docs/deploy.md "Observability"), or null outside a request.
 * @returns the new outbox rows' ids, in the order of `mails`
 * @throws Error when a listed link is not an http(s) address or does not stand whole in the text (a mistake in the service)
 */
export async function enqueueMail(db: DbOrTx, mails: MailToQueue[]): Promise<number[]> {
  if (!mails.length) return [];
  const requestId = currentRequest()?.requestId ?? null;
  const rows = await db
    .insert(mailOutbox)
    .values(
      mails.map((m) => {
        const links = m.links ?? [];
        for (const link of links) {
          if (!/^https?:\/\/[^\s<>"]+$/i.test(link) || !URL.canParse(link))
            throw new Error(`mail ${m.kind}: ${link} is not a web address`);
          if (!findLinks(m.text, [link]).length) throw new Error(`mail ${m.kind}: the link ${link} is not in its text`);
        }
        const subject = defangOtherAddresses(m.subject, []).slice(0, 300);
        const text = defangOtherAddresses(m.text, links);
        return {
          kind: m.kind,
          toAddress: m.to,
          subject,
          textBody: text,
          htmlBody: m.html ?? defaultMailHtml(subject, text, links),
          carriesToken: m.carriesToken ?? false,
          requestId,
        };
      }),
    )
    .returning({ id: mailOutbox.id });
  return rows.map((r) => r.id);
}
