import { and, eq, or, sql } from 'drizzle-orm';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { accounts, determinationLetters, files, users, workItems } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { typed } from '../mail/mail-words.ts';
import { findWorkItem, type WorkItem } from './work-item-rows.ts';
import type { Actor } from '../../actor.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { FileRow } from '../files/stored-files.ts';
import type { WorkItemActionAnswer } from './work-item-action-answer.ts';

const LETTER_REVIEW_MESSAGES = {
  accepted: 'The letter was accepted: the exemption is recorded as recognized.',
  returned: 'The letter was sent back; the group was told why by mail.',
  notLetter: 'This item is not a determination letter to review.',
  reviewed: 'This letter was already reviewed.',
} as const;

type Letter = typeof determinationLetters.$inferSelect;

/**
 * The determination letter a `determination_letter` work item is about, locked FOR UPDATE when
 * `lock` (docs/work-queue.md "Determination letters").
 * @throws HttpError 404 unknown item or letter; 409 when the item is of another kind
 */
async function letterOfItem(db: DbOrTx, itemId: number, lock: boolean): Promise<{ item: WorkItem; letter: Letter }> {
  const item = await findWorkItem(db, itemId, lock);
  if (item.kind !== 'determination_letter') throw new HttpError(409, LETTER_REVIEW_MESSAGES.notLetter);
  const letterId = Number(item.details.letter_id);
  const query = db
    .select()
    .from(determinationLetters)
    .where(eq(determinationLetters.id, Number.isInteger(letterId) ? letterId : 0));
  const [letter] = lock ? await query.for('update') : await query;
  if (!letter) throw notFound('The determination letter');
  return { item, letter };
}

/**
 * GET /api/admin/work-queue/{id}/letter (staff only; docs/work-queue.md "Determination letters"):
 * the stored file of the letter the item is about, for the caller to send inline. Reads
 * work_items, determination_letters, files; writes nothing.
 * @throws HttpError 404 unknown item, letter or file; 409 an item of another kind
 */
export async function determinationLetterFile(db: Db, itemId: number): Promise<FileRow> {
  const { letter } = await letterOfItem(db, itemId, false);
  const [file] = letter.fileId === null ? [] : await db.select().from(files).where(eq(files.id, letter.fileId));
  if (!file) throw notFound('The file');
  return file;
}

/** Closes the item in the review's transaction, as "Resolve" would, with what the review decided. */
async function closeItem(
  tx: DbOrTx,
  item: WorkItem,
  resolution: string,
  actor: Pick<Actor, 'userId' | 'ip'>,
  now: Date,
) {
  if (item.status === 'open') {
    await tx
      .update(workItems)
      .set({ status: 'resolved', resolvedBy: actor.userId, resolvedAt: now, resolution, updatedAt: now })
      .where(eq(workItems.id, item.id));
  }
}

/**
 * POST /api/admin/work-queue/{id}/accept-letter `{ letter_date }` (staff only; docs/work-queue.md
 * "Determination letters", docs/wizard.md "A group waiting for its IRS letter"): the group's
 * exemption is recognized. The account's answers become those of a group holding its letter:
 * `account___has_501c` '1', `account___ruling_year` (the letter's year),
 * `account___determination_letter_date`, `account___determination_letter` (the file's id).
 * Writes determination_letters (accepted, reviewer, date), accounts.data, work_items (resolved),
 * audit_log 'account.determination_letter.accepted' — one transaction, item and letter locked.
 * @param letterDate 'YYYY-MM-DD' printed on the letter (checked by letterAcceptSchema)
 * @throws HttpError 404 unknown item or letter; 409 another kind of item, or the letter was already reviewed
 */
export async function acceptDeterminationLetter(
  db: Db,
  itemId: number,
  letterDate: string,
  actor: Pick<Actor, 'userId' | 'ip'>,
): Promise<WorkItemActionAnswer> {
  return db.transaction(async (tx) => {
    const { item, letter } = await letterOfItem(tx, itemId, true);
    if (letter.status !== 'pending') throw new HttpError(409, LETTER_REVIEW_MESSAGES.reviewed);
    const now = new Date();
    await tx
      .update(determinationLetters)
      .set({ status: 'accepted', reviewedBy: actor.userId, reviewedAt: now, letterDate })
      .where(eq(determinationLetters.id, letter.id));
    const patch = {
      account___has_501c: '1',
      account___ruling_year: letterDate.slice(0, 4),
      account___determination_letter_date: letterDate,
      ...(letter.fileId === null ? {} : { account___determination_letter: String(letter.fileId) }),
    };
    await tx
      .update(accounts)
      .set({ data: sql`${accounts.data} || ${JSON.stringify(patch)}::jsonb`, updatedAt: now })
      .where(eq(accounts.id, letter.accountId));
    await closeItem(tx, item, `Letter accepted: dated ${letterDate}; exemption recorded as recognized.`, actor, now);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId: letter.accountId,
      action: 'account.determination_letter.accepted',
      ip: actor.ip,
      details: { item_id: item.id, letter_id: letter.id, letter_date: letterDate },
    });
    return { id: item.id, message: LETTER_REVIEW_MESSAGES.accepted };
  });
}

/**
 * POST /api/admin/work-queue/{id}/return-letter `{ reason }` (staff only; docs/work-queue.md
 * "Determination letters"): the letter cannot be used; the group's home shows the reason and asks
 * for a new upload, and the group is told by mail (kind `determination_letter.returned`, to the
 * primary user — else the account's address — and the user who uploaded it, docs/mail.md).
 * Writes determination_letters (returned, reviewer, reason), work_items (resolved), mail_outbox,
 * audit_log 'account.determination_letter.returned' — one transaction, item and letter locked.
 * @param homeUrl the group home's address for the mail, e.g. https://example.org/app
 * @throws HttpError 404 unknown item or letter; 409 another kind of item, or the letter was already reviewed
 */
export async function returnDeterminationLetter(
  db: Db,
  itemId: number,
  reason: string,
  actor: Pick<Actor, 'userId' | 'ip'>,
  homeUrl: string,
): Promise<WorkItemActionAnswer> {
  return db.transaction(async (tx) => {
    const { item, letter } = await letterOfItem(tx, itemId, true);
    if (letter.status !== 'pending') throw new HttpError(409, LETTER_REVIEW_MESSAGES.reviewed);
    const now = new Date();
    await tx
      .update(determinationLetters)
      .set({ status: 'returned', reviewedBy: actor.userId, reviewedAt: now, returnReason: reason })
      .where(eq(determinationLetters.id, letter.id));
    await closeItem(tx, item, `Letter sent back: ${reason}`, actor, now);
    const [account] = await tx
      .select({ name: accounts.name, email: accounts.email })
      .from(accounts)
      .where(eq(accounts.id, letter.accountId));
    const people = await tx
      .select({ email: users.email, isPrimary: users.isPrimary })
      .from(users)
      .where(
        and(
          eq(users.accountId, letter.accountId),
          letter.uploadedBy === null
            ? eq(users.isPrimary, true)
            : or(eq(users.isPrimary, true), eq(users.id, letter.uploadedBy)),
        ),
      );
    const primary = people.find((p) => p.isPrimary)?.email ?? account?.email ?? null;
    const to = [
      ...new Set(
        [primary, ...people.filter((p) => !p.isPrimary).map((p) => p.email)]
          .filter((e): e is string => !!e)
          .map((e) => e.toLowerCase()),
      ),
    ];
    await enqueueMail(
      tx,
      to.map((address) => ({
        kind: 'determination_letter.returned',
        to: address,
        subject: 'Please upload your IRS determination letter again',
        links: [homeUrl],
        text: [
          `We looked at the IRS determination letter uploaded for ${account ? `the group named ${typed(account.name)}` : 'your group'} on ${longDate(letter.createdAt.toISOString().slice(0, 10))}, and we cannot use it:`,
          '',
          reason,
          '',
          `Please upload the letter again from your group's home: ${homeUrl}`,
        ].join('\n'),
      })),
    );
    await recordAudit(tx, {
      actorUserId: actor.userId,
      accountId: letter.accountId,
      action: 'account.determination_letter.returned',
      ip: actor.ip,
      details: { item_id: item.id, letter_id: letter.id, reason },
    });
    return { id: item.id, message: LETTER_REVIEW_MESSAGES.returned };
  });
}
