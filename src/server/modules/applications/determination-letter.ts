import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { discardUpload, type ReceivedUpload } from '../files/receive-upload.ts';
import { insertFile } from '../files/stored-files.ts';
import { isLetterAwaited } from '../../../shared/rules/wizard-answers.ts';

/** What the group's home shows while the IRS letter is awaited (docs/wizard.md "A group waiting for its IRS letter"). */
export interface LetterAwaited {
  /** '1023', '1023-EZ' or '1024', as answered. */
  form: string;
  /** 'YYYY-MM-DD' the group filed it, as answered. */
  filed_on: string;
  /** 'YYYY-MM-DD' the letter was uploaded; null while it is still awaited. */
  received_on: string | null;
}

/** The letter-awaited facts of an account's answers (accounts.data), or null when it is not waiting for a letter. */
export function letterAwaitedOf(data: Record<string, unknown>): LetterAwaited | null {
  if (!isLetterAwaited(data)) return null;
  const text = (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : '');
  return { form: text('account___exemption_form'), filed_on: text('account___exemption_filed_on'), received_on: text('account___determination_letter_received_on') || null };
}

/**
 * The IRS determination letter, uploaded from the group's home once it arrives (docs/wizard.md "A
 * group waiting for its IRS letter"): for a user of an account whose application said it applied
 * and awaits the letter. Staff check the letter and enter the ruling year.
 * Writes: the stored object, files (purpose application_document, the account's), accounts.data
 * (`account___determination_letter_file_id`, `account___determination_letter_received_on`), an
 * audit_log row 'account.determination_letter.uploaded' — in one transaction after the upload.
 * @param receive reads and stores the multipart body (receiveUpload bound to the request)
 * @param today 'YYYY-MM-DD'
 * @returns the account's letter-awaited facts, now with `received_on`
 * @throws HttpError 404 when the user has no account; 409 when the account is not waiting for a letter; ValidationError from receive
 */
export async function uploadDeterminationLetter(
  db: Db, accountId: number | null, userId: number, receive: () => Promise<ReceivedUpload>, storage: Parameters<typeof discardUpload>[0], today: string, ip: string,
): Promise<LetterAwaited> {
  if (accountId === null) throw notFound('The account');
  const [account] = await db.select({ data: accounts.data }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw notFound('The account');
  // Checked before the body is read: nothing is stored for an account that awaits no letter.
  if (!isLetterAwaited(account.data)) throw new HttpError(409, 'Your account is not waiting for an IRS letter. To send us a document, please contact us.');
  const upload = await receive();
  try {
    return await db.transaction(async (tx) => {
      const row = await insertFile(tx, upload.files[0]!, 'application_document', { accountId, uploadedBy: userId });
      const patch = { account___determination_letter_file_id: row.id, account___determination_letter_received_on: today };
      const [updated] = await tx.update(accounts)
        .set({ data: sql`${accounts.data} || ${JSON.stringify(patch)}::jsonb`, updatedAt: new Date() })
        .where(eq(accounts.id, accountId)).returning({ data: accounts.data });
      await recordAudit(tx, { actorUserId: userId, accountId, action: 'account.determination_letter.uploaded', details: { fileId: row.id }, ip });
      return letterAwaitedOf(updated.data)!;
    });
  } catch (err) {
    await discardUpload(storage, upload);
    throw err;
  }
}
