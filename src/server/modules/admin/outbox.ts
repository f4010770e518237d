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

/** One outbox mail with its body. @throws HttpError 404 */
export async function getOutboxMail(db: Db, id: number) {
  const [row] = await db
    .select({
      id: mailOutbox.id, kind: mailOutbox.kind, to: mailOutbox.toAddress, subject: mailOutbox.subject, text: mailOutbox.textBody,
      status: mailOutbox.status, attempts: mailOutbox.attempts, last_error: mailOutbox.lastError,
      created_at: mailOutbox.createdAt, sent_at: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  if (!row) throw notFound('The mail');
  return row;
}
