import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { ADMIN_PER_PAGE } from '../../../shared/schemas/admin.ts';
import { buildPage } from '../../../shared/rules/pagination.ts';

/** A page of the mail outbox, newest first. */
export async function listOutbox(db: Db, page: number) {
  const [{ total }] = await db.select({ total: count() }).from(mailOutbox);
  const rows = await db
    .select({
      id: mailOutbox.id, kind: mailOutbox.kind, to: mailOutbox.toAddress, subject: mailOutbox.subject,
      status: mailOutbox.status, attempts: mailOutbox.attempts, created_at: mailOutbox.createdAt, sent_at: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.id))
    .limit(ADMIN_PER_PAGE)
    .offset((page - 1) * ADMIN_PER_PAGE);
  return buildPage(rows, page, ADMIN_PER_PAGE, total, (p) => `?page=${p}`);
}

/** What replaces each address in a mail whose links staff may not see. */
export const HIDDEN_LINK = '[link hidden: it works once and is sent only to the recipient]';

/**
 * One outbox mail with its body (staff only). A mail that carries a secret link (a password
 * reset, an application's resume link) would let whoever reads it act as the recipient, so its
 * addresses are replaced by HIDDEN_LINK and `links_hidden` is true, unless `revealLinks`: the
 * server has no SMTP server and the outbox is the only place the mail can be read (development
 * and demos; docs/security.md "Outbox"). A sent mail of that kind keeps only a note anyway.
 * @throws HttpError 404
 */
export async function getOutboxMail(db: Db, id: number, opts: { revealLinks: boolean }) {
  const [row] = await db
    .select({
      id: mailOutbox.id, kind: mailOutbox.kind, to: mailOutbox.toAddress, subject: mailOutbox.subject, text: mailOutbox.textBody,
      status: mailOutbox.status, attempts: mailOutbox.attempts, last_error: mailOutbox.lastError,
      created_at: mailOutbox.createdAt, sent_at: mailOutbox.sentAt, carriesToken: mailOutbox.carriesToken,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  if (!row) throw notFound('The mail');
  const { carriesToken, ...mail } = row;
  const hide = carriesToken && !opts.revealLinks;
  return { ...mail, text: hide ? mail.text.replace(/\bhttps?:\/\/\S+/gi, HIDDEN_LINK) : mail.text, links_hidden: hide };
}
