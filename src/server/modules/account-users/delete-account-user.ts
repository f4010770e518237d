import { and, eq, exists, ne, or } from 'drizzle-orm';
import { ACCOUNT_USER_TEXT } from '../../../shared/schemas/account-users.ts';
import { applications, invoices, users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { removeStoredFiles } from '../files/remove-stored-files.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { accountUserNotices, type NoticeSender } from './account-user-notices.ts';
import { AccountUserRefusal, actorRole, auditRefusals } from './account-user-roles.ts';
import { findAccountUser, lockAccount } from './account-user-rows.ts';
import type { Actor } from '../../actor.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';

/**
 * DELETE /app/account/users/delete/{id} (docs/requirements/permissions.md, docs/requirements/errors.md "Account users"): deletes user `userId` of
 * account `accountId`; only the account's primary user and staff may (docs/roles.md). All their
 * sessions and password resets go with them (FK cascade); the applications that became the
 * account (or have an invoice) pass to the primary user, so the account's history and invoices
 * stay (other drafts of theirs go with them); the removed user gets a notice. Writes in one
 * transaction: applications.user_id, users, mail_outbox, audit_log 'account_users.deleted' when
 * an admin acts on behalf. A refusal writes only audit_log 'account_users.refused'. After it
 * commits, the stored files of their drafts are removed (removeStoredFiles).
 * @throws HttpError 404 when the user is not one of the account's users; AccountUserRefusal 403
 *   "Only the account's primary user can remove users." for any other account user (themselves
 *   included); ValidationError 422 for the primary user: message "Can't delete primary user.",
 *   errors.is_primary ['Please assign a new primary user to allow deletion.'] (also when the
 *   account has no primary user to take over the user's applications)
 */
export async function deleteAccountUser(
  db: Db,
  accountId: number,
  userId: number,
  actor: Actor,
  sender: NoticeSender,
  storage: FileStorage,
): Promise<void> {
  await auditRefusals(db, actor, () =>
    db.transaction(async (tx) => {
      const { primaryUserId, name: accountName } = await lockAccount(tx, accountId);
      const user = await findAccountUser(tx, accountId, userId, primaryUserId);
      if (!(await actorRole(tx, accountId, actor, primaryUserId)).canManage) {
        throw new AccountUserRefusal(ACCOUNT_USER_TEXT.refusedDelete, accountId, {
          attempted: 'delete',
          targetUserId: userId,
        });
      }
      if (user.isPrimary)
        throw new ValidationError(
          { is_primary: [ACCOUNT_USER_TEXT.assignNewPrimary] },
          ACCOUNT_USER_TEXT.cantDeletePrimary,
        );
      await removeUserRow(tx, accountId, userId, primaryUserId);
      await enqueueMail(tx, accountUserNotices.removed({ ...sender, accountName, actor }, user));
      if (actor.onBehalf) {
        await recordAudit(tx, {
          actorUserId: actor.userId,
          accountId,
          action: 'account_users.deleted',
          details: { userId },
          ip: actor.ip,
        });
      }
    }),
  );
  // The user is gone either way; a removal that fails here is retried by the housekeeping job.
  await removeStoredFiles(db, storage).catch(() => undefined);
}

/**
 * The removal itself, shared by deleteAccountUser and endPendingInvitation: the user's
 * applications that became the account (or have an invoice) pass to the account's primary user,
 * so the account's history and invoices stay; the user's row is deleted, and with it (FK cascade)
 * their sessions, password resets and other drafts. The caller holds the account's lock
 * (lockAccount) and removes the stored files of the drafts after its transaction commits
 * (removeStoredFiles; the housekeeping job retries). Writes applications.user_id, users.
 * @param primaryUserId the account's primary_user_id, from lockAccount
 * @throws ValidationError "Can't delete primary user." when applications must stay and no other
 *   primary user can take them
 */
export async function removeUserRow(tx: Tx, accountId: number, userId: number, primaryUserId: number | null) {
  const kept = and(
    eq(applications.userId, userId),
    or(
      eq(applications.accountId, accountId),
      exists(tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.applicationId, applications.id))),
    ),
  );
  const [heir] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.accountId, accountId),
        ne(users.id, userId),
        primaryUserId === null ? eq(users.isPrimary, true) : eq(users.id, primaryUserId),
      ),
    )
    .limit(1);
  if (heir) {
    await tx.update(applications).set({ userId: heir.id, updatedAt: new Date() }).where(kept);
  } else if ((await tx.select({ id: applications.id }).from(applications).where(kept).limit(1)).length) {
    throw new ValidationError(
      { is_primary: [ACCOUNT_USER_TEXT.assignNewPrimary] },
      ACCOUNT_USER_TEXT.cantDeletePrimary,
    );
  }
  await tx.delete(users).where(eq(users.id, userId));
}
