import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { buildPage } from '../../../shared/rules/pagination.ts';
import { ADMIN_PER_PAGE, OUTBOX_EXPORT_CAP, type OutboxQuery } from '../../../shared/schemas/admin.ts';
import { listCountCap, listPageQuery, sortParam } from '../../../shared/schemas/list-params.ts';
import { csvText } from '../../csv.ts';
import { mailOutbox } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { cappedCount, markCapped, wordPatterns } from './list-count.ts';
import type { Db } from '../../db/client.ts';

/** What the outbox search reads: recipient and subject, lower case (pg_trgm GIN index mail_outbox_search_trgm). */
const outboxSearchText = sql`lower(${mailOutbox.toAddress} || ' ' || ${mailOutbox.subject})`;

/** Rows of the outbox a search reads in id order before it turns to the trigram index (see listOutbox). */
const OUTBOX_WALK_ROWS = 2_000;

/** The query string of another page of the same search (for the page object's links). */
function pageUrl(q: OutboxQuery, page: number): string {
  return `?${listPageQuery({ search: q.search, status: q.status }, sortParam(q.sort), '-created_at', page)}`;
}

/** The conditions of the query's search (every word in recipient and subject) and status. */
function outboxConditions(q: OutboxQuery): SQL[] {
  const conds: SQL[] = wordPatterns(q.search ?? '').map((p) => sql`${outboxSearchText} LIKE ${p}`);
  if (q.status) conds.push(eq(mailOutbox.status, q.status));
  return conds;
}
const outboxWhere = (q: OutboxQuery) => {
  const conds = outboxConditions(q);
  return conds.length ? and(...conds) : undefined;
};

/**
 * GET /api/admin/outbox: a page of the mail outbox, 25 a page, newest first (`sort=created_at`
 * for oldest first; by id, the order mails were written in; or by `to`, `subject`, `status`, ties by id), narrowed by `search` (every word in the recipient's address or the
 * subject) and `status`. The total is counted a few pages ahead only (listCountCap, `total_is_capped`).
 * Reads mail_outbox; writes nothing. Requirement: docs/benchmarks.md "Staff lists at scale".
 */
export async function listOutbox(db: Db, q: OutboxQuery) {
  const conds = outboxConditions(q);
  const where = outboxWhere(q);
  const cap = listCountCap(q.page, ADMIN_PER_PAGE);
  const order = sql.raw(q.sort.desc ? 'DESC' : 'ASC');
  const offset = (q.page - 1) * ADMIN_PER_PAGE;
  // A search matching many mails is answered from the newest (or oldest) OUTBOX_WALK_ROWS alone
  // when they hold the counted rows: a bounded walk of the primary key, instead of collecting
  // every match through the trigram index and sorting them (which the planner does when it
  // underestimates a common word). When they do not, the matches are few: the index finds them.
  let ids: number[] | undefined;
  let counted: { total: number; capped: boolean } | undefined;
  if (conds.length && q.sort.column === 'created_at') {
    // The walked rows keep the table's name, so the conditions (which name its columns) apply to them.
    const walked = (
      (await db.execute(sql`SELECT "mail_outbox".id FROM (SELECT id, to_address, subject, status FROM mail_outbox ORDER BY id ${order} LIMIT ${OUTBOX_WALK_ROWS}) "mail_outbox"
      WHERE ${sql.join(
        conds.map((c) => sql`(${c})`),
        sql` AND `,
      )} ORDER BY "mail_outbox".id ${order} LIMIT ${cap + 1}`)) as unknown as { rows: { id: number }[] }
    ).rows;
    if (walked.length > cap) {
      counted = { total: cap, capped: true };
      ids = walked.slice(offset, offset + ADMIN_PER_PAGE).map((r) => Number(r.id));
    }
  }
  const { total, capped } =
    counted ?? (await cappedCount(db, sql`SELECT 1 FROM ${mailOutbox}${where ? sql` WHERE ${where}` : sql``}`, cap));
  const rows =
    total === 0 || ids?.length === 0
      ? []
      : await outboxRows(db, q, ids ? inArray(mailOutbox.id, ids) : where, ADMIN_PER_PAGE, ids ? 0 : offset);
  return markCapped(
    buildPage(rows, q.page, ADMIN_PER_PAGE, total, (p) => pageUrl(q, p)),
    capped,
  );
}

/**
 * The column each of OUTBOX_SORTS orders by, then id. Ids follow the time mails were written
 * (created_at is their insert time): the primary key walks the outbox in that order and stops after
 * a page, where a created_at sort would sort every match. The others have mail_outbox_* indexes.
 */
const SORT_COLUMNS = {
  created_at: null,
  to: mailOutbox.toAddress,
  subject: mailOutbox.subject,
  status: mailOutbox.status,
} as const;

/** The outbox rows matching `where`, in the query's order, `limit` from `offset`. */
function outboxRows(db: Db, q: OutboxQuery, where: SQL | undefined, limit: number, offset: number) {
  const dir = q.sort.desc ? desc : asc;
  const column = SORT_COLUMNS[q.sort.column];
  return db
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      to: mailOutbox.toAddress,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      created_at: mailOutbox.createdAt,
      sent_at: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(where)
    .orderBy(...(column ? [dir(column)] : []), dir(mailOutbox.id))
    .limit(limit)
    .offset(offset);
}

/** Words of the outbox statuses in the export. */
const STATUS_WORDS: Record<string, string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed' };

/** A timestamp as the exports write it: 'YYYY-MM-DD HH:MM:SS UTC'. */
const utc = (d: Date | null) => (d ? `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC` : '');

/**
 * GET /api/admin/outbox/export.csv (docs/staff-lists.md "Export"): every mail the list's search
 * and status match (the page is ignored), in the list's order, at most OUTBOX_EXPORT_CAP, as CSV:
 * Written (UTC), To, Subject, Kind, Status, Attempts, Sent (UTC), Mail id. No bodies: a mail that
 * carries a secret link is read one at a time (getOutboxMail). Staff only (the route's
 * access 'staff'). Reads mail_outbox; writes nothing.
 */
export async function exportOutboxCsv(db: Db, q: OutboxQuery): Promise<string> {
  const rows = await outboxRows(db, q, outboxWhere(q), OUTBOX_EXPORT_CAP, 0);
  return csvText(
    ['Written', 'To', 'Subject', 'Kind', 'Status', 'Attempts', 'Sent', 'Mail id'],
    rows.map((m) => [
      utc(m.created_at),
      m.to,
      m.subject,
      m.kind,
      STATUS_WORDS[m.status] ?? m.status,
      m.attempts,
      utc(m.sent_at),
      m.id,
    ]),
  );
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
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      to: mailOutbox.toAddress,
      subject: mailOutbox.subject,
      text: mailOutbox.textBody,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      last_error: mailOutbox.lastError,
      created_at: mailOutbox.createdAt,
      sent_at: mailOutbox.sentAt,
      carriesToken: mailOutbox.carriesToken,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  if (!row) throw notFound('The mail');
  const { carriesToken, ...mail } = row;
  const hide = carriesToken && !opts.revealLinks;
  return { ...mail, text: hide ? mail.text.replace(/\bhttps?:\/\/\S+/gi, HIDDEN_LINK) : mail.text, links_hidden: hide };
}
