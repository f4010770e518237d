import { and, eq, exists, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applications, invoices, users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { ACCOUNT_USER_TEXT } from '../../../shared/schemas/account-users.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';
import { removeStoredFiles } from '../files/remove-stored-files.ts';
import { findAccountUser, lockAccount } from './account-user-rows.ts';
import type { AccountUserActor } from './create-account-user.ts';

/**
 * DELETE /app/account/users/delete/{id} (SPEC §6, §8 "Account users"): deletes user `userId` of
 * account `accountId`. Their sessions and password resets go with them (FK cascade); the
 * applications that became the account (or have an invoice) pass to the primary user, so the
 * account's history and invoices stay (other drafts of theirs go with them). Writes in one
 * transaction: applications.user_id, users, audit_log 'account_users.deleted' when an admin acts
 * on behalf. After it commits, the stored files of their drafts are removed (removeStoredFiles).
 * @throws HttpError 404 when the user is not one of the account's users; ValidationError 422 for
 *   the primary user: message "Can't delete primary user.", errors.is_primary
 *   ['Please assign a new primary user to allow deletion.'] (also when the account has no primary
 *   user to take over the user's applications)
 */
export async function deleteAccountUser(db: Db, accountId: number, userId: number, actor: AccountUserActor, storage: FileStorage): Promise<void> {
  await db.transaction(async (tx) => {
    const { primaryUserId } = await lockAccount(tx, accountId);
    const user = await findAccountUser(tx, accountId, userId, primaryUserId);
    if (user.isPrimary) throw new ValidationError({ is_primary: [ACCOUNT_USER_TEXT.assignNewPrimary] }, ACCOUNT_USER_TEXT.cantDeletePrimary);
    const kept = and(
      eq(applications.userId, userId),
      or(eq(applications.accountId, accountId), exists(tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.applicationId, applications.id)))),
    );
    const [heir] = await tx.select({ id: users.id }).from(users)
      .where(and(eq(users.accountId, accountId), ne(users.id, userId), primaryUserId === null ? eq(users.isPrimary, true) : eq(users.id, primaryUserId)))
      .limit(1);
    if (heir) {
      await tx.update(applications).set({ userId: heir.id, updatedAt: new Date() }).where(kept);
    } else if ((await tx.select({ id: applications.id }).from(applications).where(kept).limit(1)).length) {
      throw new ValidationError({ is_primary: [ACCOUNT_USER_TEXT.assignNewPrimary] }, ACCOUNT_USER_TEXT.cantDeletePrimary);
    }
    await tx.delete(users).where(eq(users.id, userId));
    if (actor.onBehalf) {
      await recordAudit(tx, { actorUserId: actor.userId, accountId, action: 'account_users.deleted', details: { userId }, ip: actor.ip });
    }
  });
  // The user is gone either way; a removal that fails here is retried by the housekeeping job.
  await removeStoredFiles(db, storage).catch(() => undefined);
}
