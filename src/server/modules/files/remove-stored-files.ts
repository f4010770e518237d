import { and, asc, inArray, isNull, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { files } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';

/**
 * Purposes whose files belong to an application or an account and to nothing else: once both are
 * gone, nobody may read the file again. (Contest files belong to their entry, roster and generic
 * uploads to the staff's uploader: never removed here.)
 */
const OWNED_PURPOSES = ['application_document', 'profile_image'] as const;

/** How many files one round reads at a time. */
const BATCH = 100;

export interface RemovedFiles {
  /** Files whose bytes and row were removed. */
  removed: number;
  /** Files whose bytes could not be removed: their rows stay, for the next call to retry. */
  failed: number;
}

/**
 * Removes the stored files that a deleted user or account left behind (docs/security.md "Files
 * of deleted users and accounts"): application documents and header images whose application
 * and account are both gone. The database already cut those links (files.application_id and
 * files.account_id are set to null when the row they point at is deleted), so this finds them
 * without being told whose they were:
 * - a deleted user leaves the documents of their own drafts (the drafts are deleted with them;
 *   the applications that became the account, and their documents, stay with the account);
 * - a deleted account leaves its header images and the documents of its applications once those
 *   are deleted too.
 * Call it after the transaction that deleted the user or account has committed (account users:
 * deleteAccountUser; there is no route that deletes an account yet — one would call this the same
 * way). The housekeeping job calls it too, so a removal that failed is retried.
 * Bytes are removed first and the row after, so a failure keeps the row for the next try; a
 * missing object counts as removed.
 * Writes: deletes storage objects, then their files rows.
 * @returns how many files were removed and how many failed
 */
export async function removeStoredFiles(db: Db, storage: FileStorage): Promise<RemovedFiles> {
  let removed = 0;
  let failed = 0;
  let afterId = 0;
  for (;;) {
    const batch = await db
      .select({ id: files.id, storageKey: files.storageKey })
      .from(files)
      .where(
        and(
          isNull(files.applicationId),
          isNull(files.accountId),
          inArray(files.purpose, [...OWNED_PURPOSES]),
          sql`${files.id} > ${afterId}`,
        ),
      )
      .orderBy(asc(files.id))
      .limit(BATCH);
    if (!batch.length) break;
    afterId = must(batch.at(-1), 'the last file read').id;
    const gone: number[] = [];
    for (const file of batch) {
      try {
        await storage.delete(file.storageKey);
        gone.push(file.id);
      } catch {
        failed++;
      }
    }
    if (gone.length) {
      // Only rows still without an owner: nothing can have claimed one since, but the check is free.
      const deleted = await db
        .delete(files)
        .where(and(inArray(files.id, gone), isNull(files.applicationId), isNull(files.accountId)))
        .returning({ id: files.id });
      removed += deleted.length;
    }
    if (batch.length < BATCH) break;
  }
  return { removed, failed };
}
