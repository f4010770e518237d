import { and, eq, ne, sql } from 'drizzle-orm';
import { ACCOUNT_USER_TEXT } from '../../../shared/schemas/account-users.ts';
import { accounts, users } from '../../db/schema.ts';
import { notFound, ValidationError } from '../../errors.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';

/** The columns of one row of GET /app/account/users/json (docs/requirements/entities.md "User"; never the password hash). */
export const accountUserColumns = {
  id: users.id,
  email: users.email,
  first_name: users.firstName,
  last_name: users.lastName,
  phone: users.phone,
  sms_phone: users.smsPhone,
  is_primary: users.isPrimary,
  is_subscribed_bulk_emails: users.isSubscribedBulkEmails,
  is_subscribed_event_emails: users.isSubscribedEventEmails,
  is_subscribed_sms: users.isSubscribedSms,
  invited_at: sql<string | null>`to_char(${users.invitedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
};

/**
 * Locks the account row for the rest of the transaction, so two requests changing its users or
 * their primary flag run one after the other (and a role checked under the lock stays true).
 * @returns the account's primary_user_id and name
 * @throws HttpError 404 when the account does not exist
 */
export async function lockAccount(tx: Tx, accountId: number): Promise<{ primaryUserId: number | null; name: string }> {
  const [row] = await tx
    .select({ primaryUserId: accounts.primaryUserId, name: accounts.name })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('update');
  if (!row) throw notFound('The account');
  return row;
}

/**
 * The user `userId` of account `accountId`, with whether it is the account's primary user (its
 * flag, or the account's primary_user_id).
 * @throws HttpError 404 when there is no such user in that account (another account's user is
 *   never revealed)
 */
export async function findAccountUser(tx: DbOrTx, accountId: number, userId: number, primaryUserId: number | null) {
  const [row] = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName, isPrimary: users.isPrimary })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.accountId, accountId)))
    .limit(1);
  if (!row) throw notFound('The user');
  return { ...row, isPrimary: row.isPrimary || primaryUserId === row.id };
}

/**
 * docs/requirements/behaviour.md "Account users": `userId` becomes the account's primary user; the flag is cleared on
 * the account's other users. Writes users (is_primary) and accounts.primary_user_id.
 * @returns the former primary user (docs/roles.md: they get a notice and their other sessions
 *   end), or null when the account had none
 */
export async function makePrimary(
  tx: Tx,
  accountId: number,
  userId: number,
): Promise<{ id: number; email: string; firstName: string } | null> {
  const [account] = await tx
    .select({ primaryUserId: accounts.primaryUserId })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  const formerId = account?.primaryUserId && account.primaryUserId !== userId ? account.primaryUserId : null;
  const [former] = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName })
    .from(users)
    .where(
      and(
        eq(users.accountId, accountId),
        ne(users.id, userId),
        formerId ? eq(users.id, formerId) : eq(users.isPrimary, true),
      ),
    )
    .limit(1);
  await tx
    .update(users)
    .set({ isPrimary: false, updatedAt: new Date() })
    .where(and(eq(users.accountId, accountId), ne(users.id, userId), eq(users.isPrimary, true)));
  await tx.update(users).set({ isPrimary: true }).where(eq(users.id, userId));
  await tx.update(accounts).set({ primaryUserId: userId, updatedAt: new Date() }).where(eq(accounts.id, accountId));
  return former ?? null;
}

/**
 * 422 on `email` unless `email` (lower case, as stored) is free (optionally apart from user `exceptId`).
 * @throws ValidationError 'The email has already been taken.'
 */
export async function assertEmailFree(tx: DbOrTx, email: string, exceptId?: number): Promise<void> {
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(exceptId === undefined ? eq(users.email, email) : and(eq(users.email, email), ne(users.id, exceptId)))
    .limit(1);
  if (taken) throw ValidationError.field('email', ACCOUNT_USER_TEXT.emailTaken);
}

/**
 * Inserts a user who has not chosen a password yet (docs/roles.md "Invitations"): their hash is of
 * a secret nobody knows (`unusableHash`), so they cannot sign in until they use their set-password
 * link, and `invited_at` is `now`, so choosing that first password sends no "password changed"
 * notice. Writes users.
 * @param person the address and names as typed; `isAdmin` for a staff user
 * @returns the new user's id
 * @throws the unique violation of users_email_unique when the address is taken
 */
export async function insertInvitedUser(
  tx: DbOrTx,
  person: { email: string; first_name: string; last_name: string; isAdmin?: boolean },
  unusableHash: string,
  now: Date,
): Promise<number> {
  const [row] = await tx
    .insert(users)
    .values({
      email: person.email,
      firstName: person.first_name,
      lastName: person.last_name,
      passwordHash: unusableHash,
      isAdmin: person.isAdmin ?? false,
      invitedAt: now,
    })
    .returning({ id: users.id });
  return row.id;
}
