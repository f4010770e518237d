import { and, desc, eq, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { isLetterAwaited } from '../../../shared/rules/wizard-answers.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { accounts, determinationLetters, workItems } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { discardUpload, type ReceivedUpload } from '../files/receive-upload.ts';
import { insertFile } from '../files/stored-files.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

/** What the group's home shows while the IRS letter is awaited (docs/wizard.md "A group waiting for its IRS letter"). */
export interface LetterAwaited {
  /** '1023', '1023-EZ' or '1024', as answered. */
  form: string;
  /** 'YYYY-MM-DD' the group filed it, as answered. */
  filed_on: string;
  /** 'YYYY-MM-DD' the letter waiting for staff's review was uploaded; null when none waits. */
  received_on: string | null;
  /** The last letter staff sent back while no newer one waits: the reason, and the day ('YYYY-MM-DD'). */
  returned: { reason: string; on: string } | null;
}

/** The message of an upload while a letter already waits for review (docs/wizard.md). */
export const LETTER_PENDING_MESSAGE =
  'Your IRS letter is already waiting for our review. We will write to you once we have checked it.';

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The letter-awaited facts of an account (docs/wizard.md "A group waiting for its IRS letter"), or
 * null when its answers (accounts.data) do not say it waits for a letter. Reads the account's
 * newest determination_letters row: pending gives `received_on`, returned gives `returned`.
 */
export async function letterAwaitedOf(
  db: DbOrTx,
  accountId: number,
  data: Record<string, unknown>,
): Promise<LetterAwaited | null> {
  if (!isLetterAwaited(data)) return null;
  const text = (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : '');
  const [latest] = await db
    .select({
      status: determinationLetters.status,
      createdAt: determinationLetters.createdAt,
      reviewedAt: determinationLetters.reviewedAt,
      reason: determinationLetters.returnReason,
    })
    .from(determinationLetters)
    .where(eq(determinationLetters.accountId, accountId))
    .orderBy(desc(determinationLetters.createdAt), desc(determinationLetters.id))
    .limit(1);
  return {
    form: text('account___exemption_form'),
    filed_on: text('account___exemption_filed_on'),
    received_on: latest?.status === 'pending' ? day(latest.createdAt) : null,
    returned:
      latest?.status === 'returned' ? { reason: latest.reason, on: day(latest.reviewedAt ?? latest.createdAt) } : null,
  };
}

/**
 * The IRS determination letter, uploaded from the group's home once it arrives (docs/wizard.md "A
 * group waiting for its IRS letter"): for a user of an account whose application said it applied
 * and awaits the letter. Staff review it from the work queue (docs/work-queue.md "Determination
 * letters"). At most one letter waits for review per account: the partial unique index
 * `determination_letters_one_pending` refuses a second one, also when two uploads run at once.
 * Writes, in one transaction after the upload: the stored object, files (purpose
 * application_document, the account's), determination_letters (pending), work_items (kind
 * determination_letter, key `determination_letter:{letter id}`), accounts.data
 * (`account___determination_letter_file_id`, `account___determination_letter_received_on`), an
 * audit_log row 'account.determination_letter.uploaded'. A refused upload's stored object and
 * files row are removed.
 * @param receive reads and stores the multipart body (receiveUpload bound to the request)
 * @param today 'YYYY-MM-DD'
 * @returns the account's letter-awaited facts, now with `received_on`
 * @throws HttpError 404 when the user has no account; 409 when the account is not waiting for a
 *   letter, or a letter already waits for review (LETTER_PENDING_MESSAGE); ValidationError from receive
 */
export async function uploadDeterminationLetter(
  db: Db,
  accountId: number | null,
  userId: number,
  receive: () => Promise<ReceivedUpload>,
  storage: Parameters<typeof discardUpload>[0],
  today: string,
  ip: string,
): Promise<LetterAwaited> {
  if (accountId === null) throw notFound('The account');
  const [account] = await db
    .select({ data: accounts.data, ein: accounts.ein })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw notFound('The account');
  // Checked before the body is read: nothing is stored for an account that awaits no letter, or whose letter waits.
  if (!isLetterAwaited(account.data))
    throw new HttpError(
      409,
      'Your account is not waiting for an IRS letter. To send us a document, please contact us.',
    );
  const [pending] = await db
    .select({ id: determinationLetters.id })
    .from(determinationLetters)
    .where(and(eq(determinationLetters.accountId, accountId), eq(determinationLetters.status, 'pending')));
  if (pending) throw new HttpError(409, LETTER_PENDING_MESSAGE);
  const upload = await receive();
  try {
    return await db.transaction(async (tx) => {
      const row = await insertFile(tx, must(upload.files[0], 'the uploaded file'), 'application_document', {
        accountId,
        uploadedBy: userId,
      });
      const [letter] = await tx
        .insert(determinationLetters)
        .values({ accountId, fileId: row.id, uploadedBy: userId })
        .returning({ id: determinationLetters.id });
      const patch = {
        account___determination_letter_file_id: row.id,
        account___determination_letter_received_on: today,
      };
      const [updated] = await tx
        .update(accounts)
        .set({ data: sql`${accounts.data} || ${JSON.stringify(patch)}::jsonb`, updatedAt: new Date() })
        .where(eq(accounts.id, accountId))
        .returning({ data: accounts.data });
      const text = (k: string) => (typeof updated.data[k] === 'string' ? (updated.data[k] as string) : '');
      await tx.insert(workItems).values({
        key: `determination_letter:${letter.id}`,
        kind: 'determination_letter',
        accountId,
        ein: account.ein,
        details: {
          letter_id: letter.id,
          form: text('account___exemption_form'),
          filed_on: text('account___exemption_filed_on'),
          uploaded_on: today,
        },
      });
      await recordAudit(tx, {
        actorUserId: userId,
        accountId,
        action: 'account.determination_letter.uploaded',
        details: { fileId: row.id, letter_id: letter.id },
        ip,
      });
      return must(await letterAwaitedOf(tx, accountId, updated.data), 'the awaited letter just recorded');
    });
  } catch (err) {
    await discardUpload(storage, upload);
    // Another upload of the same account won the race: its letter is the one waiting.
    if (isUniqueViolation(err)) throw new HttpError(409, LETTER_PENDING_MESSAGE);
    throw err;
  }
}
