import {
  ACCOUNT_USER_TEXT,
  changesNeedingCurrentPassword,
  type AccountUserRow,
  type AccountUserStoreInput,
} from '../../../shared/schemas/account-users.ts';
import { randomSecret } from '../../config.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { accountUserNotices, type NoticeContext, type NoticeSender } from './account-user-notices.ts';
import {
  AccountUserRefusal,
  actorRole,
  assertCurrentPassword,
  auditRefusals,
  checkCurrentPassword,
  endOtherSessions,
} from './account-user-roles.ts';
import { accountUserColumns, assertEmailFree, lockAccount, makePrimary } from './account-user-rows.ts';
import { inviteAccountUser } from './invite-account-user.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';

/**
 * POST /app/account/users/store: a new user of account `accountId`, never an admin; only the
 * account's primary user and staff may add users (docs/roles.md). Nobody types the new user's
 * password: it is the hash of a random secret nobody sees, so they cannot sign in until they
 * choose their own with the invitation mailed to them (a one-time set-password link that expires
 * after INVITATION_DAYS; docs/roles.md "Invitations"). With is_primary it becomes the account's
 * primary user and the flag is cleared on the others: a primary transfer, which takes an account
 * user's `current_password` (not staff acting on behalf), ends the former primary user's other
 * sessions and sends both a notice.
 * Writes in one transaction: users (invited_at; and accounts.primary_user_id), password_resets
 * (the invitation's token), sessions (deleted, on a transfer), mail_outbox (the invitation; the
 * notices of a transfer), audit_log 'account_users.created' when staff act on behalf. A refusal
 * writes only audit_log 'account_users.refused'.
 * @returns the new user's row
 * @throws AccountUserRefusal 403 "Only the account's primary user can add users." for any other
 *   account user; ValidationError 422 on `email` 'The email has already been taken.', on
 *   `current_password` when a transfer lacks it or it is wrong; HttpError 404 when the account
 *   does not exist
 */
export async function createAccountUser(
  db: Db,
  accountId: number,
  input: AccountUserStoreInput,
  actor: Actor,
  sender: NoticeSender,
): Promise<AccountUserRow> {
  // Nobody knows it: the user cannot sign in until they choose their own password.
  const passwordHash = await hashPassword(randomSecret(32));
  const now = new Date();
  const matchedHash = await checkCurrentPassword(db, actor, input.current_password);
  try {
    return await auditRefusals(db, actor, () =>
      db.transaction(async (tx) => {
        const { primaryUserId, name: accountName } = await lockAccount(tx, accountId);
        const role = await actorRole(tx, accountId, actor, primaryUserId);
        if (!role.canManage)
          throw new AccountUserRefusal(ACCOUNT_USER_TEXT.refusedCreate, accountId, { attempted: 'create' });
        const changes = changesNeedingCurrentPassword(null, { ...input, password: '' });
        if (role.needsCurrentPassword && changes.length)
          await assertCurrentPassword(tx, actor, input.current_password, matchedHash);
        await assertEmailFree(tx, input.email);
        const [row] = await tx
          .insert(users)
          .values({
            email: input.email,
            firstName: input.first_name,
            lastName: input.last_name,
            passwordHash,
            phone: input.phone,
            smsPhone: input.sms_phone,
            accountId,
            isAdmin: false,
            isPrimary: false,
            isSubscribedBulkEmails: input.is_subscribed_bulk_emails,
            isSubscribedEventEmails: input.is_subscribed_event_emails,
            isSubscribedSms: input.is_subscribed_sms,
          })
          .returning(accountUserColumns);
        const ctx: NoticeContext = { ...sender, accountName, actor, at: now };
        await inviteAccountUser(tx, ctx, { id: row.id, email: row.email }, now);
        if (input.is_primary) {
          const former = await makePrimary(tx, accountId, row.id);
          await enqueueMail(tx, accountUserNotices.primaryTransferred(ctx, former, { id: row.id, email: row.email }));
          if (former) await endOtherSessions(tx, [former.id], actor.sessionIdHash);
        }
        if (actor.onBehalf) {
          await recordAudit(tx, {
            actorUserId: actor.userId,
            accountId,
            action: 'account_users.created',
            details: { userId: row.id, isPrimary: input.is_primary },
            ip: actor.ip,
          });
        }
        return { ...row, is_primary: input.is_primary, invited_at: now.toISOString() };
      }),
    );
  } catch (err) {
    // A concurrent insert of the same address got there first.
    if (isUniqueViolation(err)) throw ValidationError.field('email', ACCOUNT_USER_TEXT.emailTaken);
    throw err;
  }
}
