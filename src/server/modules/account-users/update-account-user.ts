import { eq } from 'drizzle-orm';
import {
  ACCOUNT_USER_TEXT,
  changesNeedingCurrentPassword,
  type AccountUserRow,
  type AccountUserUpdateInput,
} from '../../../shared/schemas/account-users.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail, type MailToQueue } from '../mail/enqueue-mail.ts';
import { accountUserNotices, type NoticeContext, type NoticeSender } from './account-user-notices.ts';
import {
  AccountUserRefusal,
  actorRole,
  assertCurrentPassword,
  auditRefusals,
  checkCurrentPassword,
  endOtherSessions,
} from './account-user-roles.ts';
import { accountUserColumns, assertEmailFree, findAccountUser, lockAccount, makePrimary } from './account-user-rows.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';

/**
 * PUT /app/account/users/update/{id}: updates user `userId` of account `accountId` under the
 * roles of docs/roles.md. The account's primary user and staff may edit anyone and make another
 * user primary; any other user only their own record, never is_primary. A password is only ever
 * set on one's own record (docs/roles.md "Invitations"). An account user's
 * e-mail or password change and primary transfer need their `current_password` (staff acting on
 * behalf need none). The password changes only when given; absent checkboxes keep their flags;
 * the primary user cannot be un-primaried from its own form.
 * Writes in one transaction: users (and accounts.primary_user_id); deletes the sessions of the
 * changed user (e-mail or password) and of the former and new primary user (transfer), except the
 * actor's current one; mail_outbox notices (e-mail: old and new address; password: the address before the change;
 * transfer: former and new primary); audit_log 'account_users.updated' when staff act on behalf.
 * A refusal writes only audit_log 'account_users.refused'.
 * @returns the updated row
 * @throws HttpError 404 when the user is not one of the account's users; AccountUserRefusal 403
 *   when an account user who is not the primary user edits another user or makes anyone primary;
 *   ValidationError 422 on `password` for another user's record (ACCOUNT_USER_TEXT.ownPasswordOnly),
 *   on `is_primary` when un-primarying the primary user, on `email` when the
 *   address is taken, on `current_password` when it is missing or wrong
 */
export async function updateAccountUser(
  db: Db,
  accountId: number,
  userId: number,
  input: AccountUserUpdateInput,
  actor: Actor,
  sender: NoticeSender,
): Promise<AccountUserRow> {
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const matchedHash = await checkCurrentPassword(db, actor, input.current_password);
  try {
    return await auditRefusals(db, actor, () =>
      db.transaction(async (tx) => {
        const { primaryUserId, name: accountName } = await lockAccount(tx, accountId);
        const current = await findAccountUser(tx, accountId, userId, primaryUserId);
        const role = await actorRole(tx, accountId, actor, primaryUserId);
        const before = { email: current.email, is_primary: current.isPrimary };
        const changes = changesNeedingCurrentPassword(before, input);
        if (!role.canManage && userId !== actor.userId) {
          throw new AccountUserRefusal(ACCOUNT_USER_TEXT.refusedOther, accountId, {
            attempted: 'update',
            targetUserId: userId,
            fields: changes,
          });
        }
        if (!role.canManage && changes.includes('is_primary')) {
          throw new AccountUserRefusal(ACCOUNT_USER_TEXT.refusedPrimary, accountId, {
            attempted: 'make_primary',
            targetUserId: userId,
          });
        }
        // Nobody types another person's password (docs/roles.md "Invitations"): staff included.
        if (passwordHash && userId !== actor.userId)
          throw ValidationError.field('password', ACCOUNT_USER_TEXT.ownPasswordOnly);
        if (current.isPrimary && input.is_primary === false)
          throw ValidationError.field('is_primary', ACCOUNT_USER_TEXT.keepPrimary);
        if (input.email !== current.email) await assertEmailFree(tx, input.email, userId);
        if (role.needsCurrentPassword && changes.length)
          await assertCurrentPassword(tx, actor, input.current_password, matchedHash);

        const [row] = await tx
          .update(users)
          .set({
            email: input.email,
            firstName: input.first_name,
            lastName: input.last_name,
            phone: input.phone,
            smsPhone: input.sms_phone,
            ...(passwordHash ? { passwordHash } : {}),
            ...(input.is_subscribed_bulk_emails === undefined
              ? {}
              : { isSubscribedBulkEmails: input.is_subscribed_bulk_emails }),
            ...(input.is_subscribed_event_emails === undefined
              ? {}
              : { isSubscribedEventEmails: input.is_subscribed_event_emails }),
            ...(input.is_subscribed_sms === undefined ? {} : { isSubscribedSms: input.is_subscribed_sms }),
            updatedAt: new Date(),
          })
          .where(eq(users.id, userId))
          .returning(accountUserColumns);
        const becomesPrimary = input.is_primary === true && (!current.isPrimary || primaryUserId !== userId);
        const former = becomesPrimary ? await makePrimary(tx, accountId, userId) : null;

        // docs/roles.md "Sessions" and "Notices".
        const ctx: NoticeContext = { ...sender, accountName, actor };
        const person = { id: userId, email: row.email };
        const emailChanged = row.email !== current.email;
        const mails: MailToQueue[] = [];
        const signedOut = new Set<number>();
        if (emailChanged) mails.push(...accountUserNotices.emailChanged(ctx, person, current.email, row.email));
        // To the address before this change: its owner is the one who must hear of it.
        if (passwordHash) mails.push(...accountUserNotices.passwordChanged(ctx, { ...person, email: current.email }));
        if (emailChanged || passwordHash) signedOut.add(userId);
        if (becomesPrimary) {
          mails.push(...accountUserNotices.primaryTransferred(ctx, former, person));
          signedOut.add(userId);
          if (former) signedOut.add(former.id);
        }
        await endOtherSessions(tx, [...signedOut], actor.sessionIdHash);
        await enqueueMail(tx, mails);
        if (actor.onBehalf) {
          await recordAudit(tx, {
            actorUserId: actor.userId,
            accountId,
            action: 'account_users.updated',
            details: { userId, emailChanged, passwordChanged: !!passwordHash, madePrimary: becomesPrimary },
            ip: actor.ip,
          });
        }
        return { ...row, is_primary: current.isPrimary || becomesPrimary };
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw ValidationError.field('email', ACCOUNT_USER_TEXT.emailTaken);
    throw err;
  }
}
