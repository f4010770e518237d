import { and, eq } from 'drizzle-orm';
import { accounts, users } from '../../db/schema.ts';
import { takeLimits, type LimitActor } from '../limits/take-limit.ts';
import { actorRole } from './account-user-roles.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';
import type { LimitSettings } from '../limits/limit-rules.ts';

/*
 * The limits on account-user changes that mail someone (docs/security.md "Limits on mail and
 * payments"), taken before the change's transaction: a count must stay when the change then
 * fails, and on the embedded database nothing may run beside an open transaction. Only changes
 * the actor may make are counted; one the roles refuse is left to the service, which refuses and
 * audits it (docs/roles.md), so another user of the account cannot use up its primary user's limits.
 */

/** The actor as the limits record them. */
const who = (accountId: number, actor: Actor): LimitActor => ({
  userId: actor.userId,
  accountId,
  ip: actor.ip,
});

/** The client address the per-address limits count, or null for staff (they work from the provider's own network). */
const clientAddress = (actor: Actor) => (actor.isStaff ? null : actor.ip);

/** Whether `actor` may manage account `accountId`'s users, read without a lock (the service checks again under it). */
async function mayManage(db: Db, accountId: number, actor: Actor): Promise<boolean> {
  const [account] = await db
    .select({ primaryUserId: accounts.primaryUserId })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) return false;
  return (await actorRole(db, accountId, actor, account.primaryUserId)).canManage;
}

/**
 * Before a user is added to account `accountId` with address `email` (an invitation is mailed, and
 * the answer tells a known address from an unknown one): the account's users added per day, the
 * invitations to `email` per day, and the client address's address checks per hour.
 * Writes: limit_counters (and what a refusal writes: takeLimit).
 * @throws TooManyRequests 429 past a limit
 */
export async function takeAddUserLimits(
  db: Db,
  settings: LimitSettings,
  accountId: number,
  actor: Actor,
  email: string,
): Promise<void> {
  if (!(await mayManage(db, accountId, actor))) return;
  await takeLimits(
    db,
    settings,
    [
      ['address_checks_per_ip', clientAddress(actor)],
      ['users_added_per_account', accountId],
      ['invitations_per_address', email],
    ],
    who(accountId, actor),
  );
}

/**
 * Before an invitation to user `userId` of account `accountId` is mailed again: the account's
 * invitations resent per day and the invitations to the user's address per day. Nothing is
 * counted for a user who is not the account's, or who has already chosen a password (the service
 * answers 404 or 409).
 * Writes: limit_counters (and what a refusal writes: takeLimit).
 * @throws TooManyRequests 429 past a limit
 */
export async function takeResendLimits(
  db: Db,
  settings: LimitSettings,
  accountId: number,
  actor: Actor,
  userId: number,
): Promise<void> {
  if (!(await mayManage(db, accountId, actor))) return;
  const [target] = await db
    .select({ email: users.email, invitedAt: users.invitedAt })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.accountId, accountId)));
  if (!target?.invitedAt) return;
  await takeLimits(
    db,
    settings,
    [
      ['invitations_resent_per_account', accountId],
      ['invitations_per_address', target.email],
    ],
    who(accountId, actor),
  );
}

/**
 * Before user `userId` of account `accountId` gets the sign-in address `email`, when it is a
 * change (both addresses are mailed, and the answer tells a known address from an unknown one): the
 * account's e-mail changes per day and the client address's address checks per hour. Nothing is
 * counted for the same address, an unknown user, or a change the actor may not make.
 * Writes: limit_counters (and what a refusal writes: takeLimit).
 * @throws TooManyRequests 429 past a limit
 */
export async function takeEmailChangeLimits(
  db: Db,
  settings: LimitSettings,
  accountId: number,
  actor: Actor,
  userId: number,
  email: string,
): Promise<void> {
  const [target] = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.accountId, accountId)));
  if (!target || target.email === email) return;
  if (userId !== actor.userId && !(await mayManage(db, accountId, actor))) return;
  await takeLimits(
    db,
    settings,
    [
      ['address_checks_per_ip', clientAddress(actor)],
      ['email_changes_per_account', accountId],
    ],
    who(accountId, actor),
  );
}
