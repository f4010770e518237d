import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import { ACCOUNT_USER_TEXT, type AccountUserRow, type AccountUserUpdateInput } from '../../../shared/schemas/account-users.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { accountUserColumns, assertEmailFree, findAccountUser, isUniqueViolation, lockAccount, makePrimary } from './account-user-rows.ts';
import type { AccountUserActor } from './create-account-user.ts';

/**
 * PUT /app/account/users/update/{id} (SPEC §4 "Account users"): updates user `userId` of account
 * `accountId`. The password changes only when given; absent checkboxes keep their flags.
 * is_primary on another user makes it the primary user and clears the flag on the rest; the
 * primary user cannot be un-primaried from its own form. Writes in one transaction: users (and
 * accounts.primary_user_id), audit_log 'account_users.updated' when an admin acts on behalf.
 * @returns the updated row
 * @throws HttpError 404 when the user is not one of the account's users; ValidationError 422 on
 *   `is_primary` when un-primarying the primary user, on `email` when the address is taken
 */
export async function updateAccountUser(db: Db, accountId: number, userId: number, input: AccountUserUpdateInput, actor: AccountUserActor): Promise<AccountUserRow> {
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  try {
    return await db.transaction(async (tx) => {
      const { primaryUserId } = await lockAccount(tx, accountId);
      const current = await findAccountUser(tx, accountId, userId, primaryUserId);
      if (current.isPrimary && input.is_primary === false) throw ValidationError.field('is_primary', ACCOUNT_USER_TEXT.keepPrimary);
      if (input.email !== current.email) await assertEmailFree(tx, input.email, userId);
      const [row] = await tx.update(users).set({
        email: input.email,
        firstName: input.first_name,
        lastName: input.last_name,
        phone: input.phone,
        smsPhone: input.sms_phone,
        ...(passwordHash ? { passwordHash } : {}),
        ...(input.is_subscribed_bulk_emails === undefined ? {} : { isSubscribedBulkEmails: input.is_subscribed_bulk_emails }),
        ...(input.is_subscribed_event_emails === undefined ? {} : { isSubscribedEventEmails: input.is_subscribed_event_emails }),
        ...(input.is_subscribed_sms === undefined ? {} : { isSubscribedSms: input.is_subscribed_sms }),
        updatedAt: new Date(),
      }).where(eq(users.id, userId)).returning(accountUserColumns);
      const becomesPrimary = input.is_primary === true && (!current.isPrimary || primaryUserId !== userId);
      if (becomesPrimary) await makePrimary(tx, accountId, userId);
      if (actor.onBehalf) {
        await recordAudit(tx, {
          actorUserId: actor.userId, accountId, action: 'account_users.updated',
          details: { userId, passwordChanged: !!passwordHash, madePrimary: becomesPrimary }, ip: actor.ip,
        });
      }
      return { ...row, is_primary: current.isPrimary || becomesPrimary };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw ValidationError.field('email', ACCOUNT_USER_TEXT.emailTaken);
    throw err;
  }
}
