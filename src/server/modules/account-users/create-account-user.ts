import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import { ACCOUNT_USER_TEXT, type AccountUserRow, type AccountUserStoreInput } from '../../../shared/schemas/account-users.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { accountUserColumns, assertEmailFree, isUniqueViolation, lockAccount, makePrimary } from './account-user-rows.ts';

/** Who acts, for the audit trail. */
export interface AccountUserActor {
  userId: number;
  /** An admin acting for an account that is not their own: audited (DESIGN §5.6). */
  onBehalf: boolean;
  ip: string;
}

/**
 * POST /app/account/users/store (SPEC §3 "User", §4 "Account users"): a new user of account
 * `accountId`, never an admin. With is_primary it becomes the account's primary user and the flag
 * is cleared on the others. Writes in one transaction: users (and accounts.primary_user_id),
 * audit_log 'account_users.created' when an admin acts on behalf.
 * @returns the new user's row
 * @throws ValidationError 422 on `email` 'The email has already been taken.'; HttpError 404 when
 *   the account does not exist
 */
export async function createAccountUser(db: Db, accountId: number, input: AccountUserStoreInput, actor: AccountUserActor): Promise<AccountUserRow> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      await lockAccount(tx, accountId);
      await assertEmailFree(tx, input.email);
      const [row] = await tx.insert(users).values({
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
      }).returning(accountUserColumns);
      if (input.is_primary) await makePrimary(tx, accountId, row.id);
      if (actor.onBehalf) {
        await recordAudit(tx, { actorUserId: actor.userId, accountId, action: 'account_users.created', details: { userId: row.id, isPrimary: input.is_primary }, ip: actor.ip });
      }
      return { ...row, is_primary: input.is_primary };
    });
  } catch (err) {
    // A concurrent insert of the same address got there first.
    if (isUniqueViolation(err)) throw ValidationError.field('email', ACCOUNT_USER_TEXT.emailTaken);
    throw err;
  }
}
