import { and, eq, isNotNull } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { ACCOUNT_USER_TEXT, INVITATION_DAYS, INVITATION_TEXT } from '../../../shared/schemas/account-users.ts';
import { users } from '../../db/schema.ts';
import { HttpError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { issueResetToken } from '../password-reset/issue-reset-token.ts';
import { accountUserNotices, type NoticeContext, type NoticeSender } from './account-user-notices.ts';
import { AccountUserRefusal, actorRole, auditRefusals } from './account-user-roles.ts';
import { findAccountUser, lockAccount } from './account-user-rows.ts';
import type { Actor } from '../../actor.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

/**
 * Invites user `user` to choose their password (docs/roles.md "Invitations"): a one-time
 * set-password token (issueResetToken: hashed, one use, the newest link only) that expires after
 * INVITATION_DAYS, users.invited_at = `now`, and the invitation mail with the link and the "This
 * was not me" link of the same token (endInvitationByToken), in `tx`.
 * Writes: password_resets, users.invited_at, mail_outbox (a token mail).
 * @returns when the link stops working
 */
export async function inviteAccountUser(
  tx: DbOrTx,
  ctx: NoticeContext,
  user: { id: number; email: string },
  now: Date,
): Promise<Date> {
  const { link, notMeLink, expiresAt } = await issueResetToken(tx, {
    userId: user.id,
    email: user.email,
    publicUrl: ctx.publicUrl,
    lifetimeMinutes: INVITATION_DAYS * 24 * 60,
    now,
    invitation: true,
  });
  await tx.update(users).set({ invitedAt: now }).where(eq(users.id, user.id));
  await enqueueMail(
    tx,
    accountUserNotices.invitation(ctx, user, {
      setPassword: link,
      notMe: must(notMeLink, 'the not-me link of an invitation token'),
      expiresAt,
    }),
  );
  return expiresAt;
}

/**
 * POST /app/account/users/{id}/invitation: sends user `userId` of account `accountId` a new
 * invitation; the earlier links stop working (only a user's newest link works). Only the
 * account's primary user and staff may (docs/roles.md), and only while the user has not chosen a
 * password yet.
 * Writes in one transaction: password_resets, users.invited_at, mail_outbox, audit_log
 * 'account_users.invitation_resent' when staff act on behalf; a refusal writes only audit_log
 * 'account_users.refused'.
 * @returns when the new link stops working
 * @throws HttpError 404 when the user is not one of the account's users; AccountUserRefusal 403
 *   for an account user who is not the primary user; HttpError 409 INVITATION_TEXT.alreadyAccepted
 */
export async function resendInvitation(
  db: Db,
  accountId: number,
  userId: number,
  actor: Actor,
  sender: NoticeSender,
  now = new Date(),
): Promise<Date> {
  return auditRefusals(db, actor, () =>
    db.transaction(async (tx) => {
      const { primaryUserId, name: accountName } = await lockAccount(tx, accountId);
      const current = await findAccountUser(tx, accountId, userId, primaryUserId);
      const role = await actorRole(tx, accountId, actor, primaryUserId);
      if (!role.canManage)
        throw new AccountUserRefusal(ACCOUNT_USER_TEXT.refusedOther, accountId, {
          attempted: 'resend_invitation',
          targetUserId: userId,
        });
      const [pending] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), isNotNull(users.invitedAt)))
        .for('update');
      if (!pending) throw new HttpError(409, INVITATION_TEXT.alreadyAccepted);
      const expiresAt = await inviteAccountUser(
        tx,
        { ...sender, accountName, actor, at: now },
        { id: userId, email: current.email },
        now,
      );
      if (actor.onBehalf) {
        await recordAudit(tx, {
          actorUserId: actor.userId,
          accountId,
          action: 'account_users.invitation_resent',
          details: { userId },
          ip: actor.ip,
        });
      }
      return expiresAt;
    }),
  );
}
