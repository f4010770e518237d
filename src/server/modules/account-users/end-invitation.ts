import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { accounts, passwordResets, users } from '../../db/schema.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { removeStoredFiles } from '../files/remove-stored-files.ts';
import { endGroupInvitation } from '../group-workspace/end-group-invitation.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { hashResetToken } from '../password-reset/issue-reset-token.ts';
import { accountUserNotices, type InvitationEndReason, type NoticeSender } from './account-user-notices.ts';
import { lockAccount, makePrimary } from './account-user-rows.ts';
import { removeUserRow } from './delete-account-user.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';

/** What ending an invitation needs besides the database: who the notices come from, the staff address, the request's IP. */
export interface InvitationEndContext {
  sender: NoticeSender;
  /** config.mail.staffEmail: staff are told of every invitation ended by its recipient. */
  staffEmail: string;
  ip: string;
  now?: Date;
}

/**
 * Ends the pending invitation of user `userId` (docs/roles.md "Invitations"), in `tx`: only a user
 * of an account who never chose a password (users.invited_at set), never staff; a user with no
 * account invited to central organizations' groups is ended by endGroupInvitation. The user is
 * removed from the account through the same removal as a delete (removeUserRow: their
 * set-password links, sessions and drafts go with them, so the address is free again). When they
 * were the account's primary user, the account's first user who chose a password becomes primary
 * instead (makePrimary), or the account has none. The account's primary user is told, in words
 * that are the same for every reason, and staff are mailed at `ctx.staffEmail` with the reason.
 * The account row is locked first (lockAccount), then the user's, as every change of an account's
 * users does, and the user is read again under the lock.
 * Writes: users (deleted; is_primary of a new primary user), accounts.primary_user_id,
 * applications.user_id, audit_log 'account_users.invitation_ended' (actor none, the account,
 * `{ userId, invitedEmail, reason }`, the IP), mail_outbox (account_users.invitation_ended to the
 * primary user, account_users.invitation_ended.staff to staff).
 * The caller removes stored files after its transaction (removeStoredFiles).
 * @returns the account the invitation was for (null for a group's invitation), or null when there is no such pending invitation
 *   (already accepted, ended, a staff user, or no user): nothing is written then
 */
export async function endPendingInvitation(
  tx: Tx,
  userId: number,
  reason: InvitationEndReason,
  ctx: InvitationEndContext,
): Promise<{ accountId: number | null } | null> {
  const [found] = await tx.select({ accountId: users.accountId }).from(users).where(eq(users.id, userId));
  if (!found) return null;
  // An invitation to a central organization's group: the user has no account (docs/roles.md "Central organizations").
  if (found.accountId === null) return (await endGroupInvitation(tx, userId, reason, ctx)) ? { accountId: null } : null;
  const accountId = found.accountId;
  const { primaryUserId, name: accountName } = await lockAccount(tx, accountId);
  const [user] = await tx
    .select({
      id: users.id,
      email: users.email,
      isPrimary: users.isPrimary,
      invitedAt: users.invitedAt,
      isAdmin: users.isAdmin,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.accountId, accountId)))
    .for('update');
  if (!user || user.invitedAt === null || user.isAdmin) return null;

  let primaryNow = primaryUserId;
  if (user.isPrimary || primaryUserId === user.id) {
    // The account keeps a primary user who can sign in, when it has one.
    const [heir] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.accountId, accountId), ne(users.id, user.id), isNull(users.invitedAt)))
      .orderBy(asc(users.id))
      .limit(1);
    if (heir) {
      await makePrimary(tx, accountId, heir.id);
      primaryNow = heir.id;
    } else {
      await tx.update(users).set({ isPrimary: false }).where(eq(users.id, user.id));
      await tx.update(accounts).set({ primaryUserId: null, updatedAt: new Date() }).where(eq(accounts.id, accountId));
      primaryNow = null;
    }
  }
  await removeUserRow(tx, accountId, user.id, primaryNow);

  const [primary] =
    primaryNow === null
      ? await tx
          .select({ email: users.email })
          .from(users)
          .where(and(eq(users.accountId, accountId), eq(users.isPrimary, true)))
          .limit(1)
      : await tx.select({ email: users.email }).from(users).where(eq(users.id, primaryNow));
  const at = ctx.now ?? new Date();
  await recordAudit(tx, {
    actorUserId: null,
    accountId,
    action: 'account_users.invitation_ended',
    details: { userId: user.id, invitedEmail: user.email, reason },
    ip: ctx.ip,
  });
  await enqueueMail(
    tx,
    accountUserNotices.invitationEnded(
      { ...ctx.sender, accountName, accountId, staffEmail: ctx.staffEmail, at },
      user.email,
      reason,
      primary ?? null,
    ),
  );
  return { accountId };
}

/** What POST /invitation/not-me answers, whatever became of the token (docs/roles.md "Invitations"). */
export const NOT_ME_ANSWER =
  'Thank you. If this invitation was still open, it has ended: the address is no longer on that account, its link to choose a password no longer works, and our staff have been told.';

/**
 * POST /invitation/not-me `{ token }`: "This was not me" (docs/roles.md "Invitations",
 * docs/security.md "Mail carries only our links"). `token` is the one of the invitation's
 * set-password link (a password_resets row, found by its sha256): while its user has not chosen a
 * password and the token is unused, the invitation ends (endPendingInvitation, reason 'declined').
 * Any of the user's unused links works, an older one or an expired one too, since it can only end
 * the invitation; once it ended, or was accepted, or for an unknown token, nothing happens. The
 * answer is the same in every case, so the page tells nobody whether an invitation existed.
 * Writes: what endPendingInvitation writes, in one transaction; then removes stored files.
 * @returns whether an invitation ended (for tests and logs; the route answers NOT_ME_ANSWER either way)
 */
export async function endInvitationByToken(
  db: Db,
  token: string,
  ctx: InvitationEndContext & { storage: FileStorage },
): Promise<boolean> {
  const ended = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ userId: passwordResets.userId })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(and(eq(passwordResets.tokenHash, hashResetToken(token)), isNull(passwordResets.usedAt)))
      .limit(1);
    if (!row) return null;
    return endPendingInvitation(tx, row.userId, 'declined', ctx);
  });
  if (!ended) return false;
  await removeStoredFiles(db, ctx.storage).catch(() => undefined);
  return true;
}
