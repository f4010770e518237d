import { and, eq, inArray, ne } from 'drizzle-orm';
import { ACCOUNT_USER_TEXT } from '../../../shared/schemas/account-users.ts';
import { sessions, users } from '../../db/schema.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import { verifyPassword } from '../../passwords.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { Actor } from '../../actor.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';

/** What the actor may do on account `accountId` (docs/roles.md). */
export interface ActorRole {
  /** The account's primary user, or staff: add, edit anyone, delete, make primary. */
  canManage: boolean;
  /** E-mail and password changes and primary transfers need the actor's current password. */
  needsCurrentPassword: boolean;
}

/**
 * The actor's role on account `accountId`, read inside the transaction that holds the account's
 * lock (lockAccount), so a primary transfer running at the same time cannot slip between the
 * check and the write. Reads users.
 * @param primaryUserId the account's primary_user_id, from lockAccount
 */
export async function actorRole(
  tx: DbOrTx,
  accountId: number,
  actor: Actor,
  primaryUserId: number | null,
): Promise<ActorRole> {
  const needsCurrentPassword = !actor.onBehalf;
  if (actor.isStaff) return { canManage: true, needsCurrentPassword };
  if (primaryUserId === actor.userId) return { canManage: true, needsCurrentPassword };
  const [me] = await tx
    .select({ isPrimary: users.isPrimary })
    .from(users)
    .where(and(eq(users.id, actor.userId), eq(users.accountId, accountId)))
    .limit(1);
  return { canManage: me?.isPrimary === true, needsCurrentPassword };
}

/** What a refused account user tried, for the audit row (names of fields, never their values). */
export interface RefusedAttempt {
  attempted: 'create' | 'update' | 'delete' | 'make_primary' | 'resend_invitation';
  targetUserId?: number;
  fields?: string[];
}

/**
 * 403 for an account user who is not allowed the action (docs/roles.md), carrying what they
 * tried so that {@link auditRefusals} can record it after the transaction is rolled back.
 */
export class AccountUserRefusal extends HttpError {
  readonly accountId: number;
  readonly attempt: RefusedAttempt;
  constructor(message: string, accountId: number, attempt: RefusedAttempt) {
    super(403, message);
    this.accountId = accountId;
    this.attempt = attempt;
  }
}

/**
 * Runs `work` (a service's transaction); when it throws an {@link AccountUserRefusal}, its
 * transaction has written nothing, and one audit_log row 'account_users.refused' is written
 * (actor, account, IP, what was tried; never a value sent), then the refusal is thrown on.
 */
export async function auditRefusals<T>(db: Db, actor: Actor, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AccountUserRefusal) {
      await recordAudit(db, {
        actorUserId: actor.userId,
        accountId: err.accountId,
        action: 'account_users.refused',
        details: { ...err.attempt, onBehalf: actor.onBehalf },
        ip: actor.ip,
      });
    }
    throw err;
  }
}

/**
 * A check of the actor's `current_password` made before the transaction (argon2 takes tens of
 * milliseconds, and on PGlite an open transaction holds the whole database): the password hash
 * it matched, or null when none was given or it did not match. Reads users.
 */
export async function checkCurrentPassword(db: DbOrTx, actor: Actor, currentPassword: string): Promise<string | null> {
  if (actor.onBehalf || currentPassword === '') return null;
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, actor.userId))
    .limit(1);
  if (!row) return null;
  return (await verifyPassword(row.passwordHash, currentPassword)) ? row.passwordHash : null;
}

/**
 * Inside the transaction: 422 on `current_password` unless it was given and matched the actor's
 * password hash as it still is (docs/roles.md).
 * @param matchedHash what {@link checkCurrentPassword} returned
 * @throws ValidationError 'Enter your current password to confirm this change.' when missing,
 *   'The current password is incorrect.' when wrong
 */
export async function assertCurrentPassword(
  tx: Tx,
  actor: Actor,
  given: string,
  matchedHash: string | null,
): Promise<void> {
  if (given === '') throw ValidationError.field('current_password', ACCOUNT_USER_TEXT.currentPasswordRequired);
  const [row] = await tx
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, actor.userId))
    .limit(1);
  if (!matchedHash || row?.passwordHash !== matchedHash)
    throw ValidationError.field('current_password', ACCOUNT_USER_TEXT.currentPasswordWrong);
}

/**
 * Ends every session of `userIds` but the actor's current one (docs/roles.md). Writes: deletes
 * sessions rows.
 */
export async function endOtherSessions(tx: Tx, userIds: number[], keepSessionIdHash: string): Promise<void> {
  if (!userIds.length) return;
  await tx.delete(sessions).where(and(inArray(sessions.userId, userIds), ne(sessions.idHash, keepSessionIdHash)));
}
