import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { groups, groupUsers, users } from '../../db/schema.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { mailDateTime } from '../mail/mail-html.ts';
import { typed, typedAddress } from '../mail/mail-words.ts';
import type { Tx } from '../../db/client.ts';
import type { InvitationEndReason } from '../account-users/account-user-notices.ts';
import type { InvitationEndContext } from '../account-users/end-invitation.ts';

/**
 * Ends the pending invitation of user `userId` to central organizations' groups (docs/roles.md
 * "Central organizations", "Invitations"), in `tx`: only a user with no account, not staff, who
 * never chose a password and is a user of at least one group. The user is deleted, and with them
 * (FK cascade) their group_users rows, set-password links and sessions, so the address is free.
 * Staff are mailed at `ctx.staffEmail` with the reason and the groups.
 * Writes: users (deleted), audit_log 'group_users.invitation_ended' (actor none, `{ userId,
 * invitedEmail, reason, groupIds }`, the IP), mail_outbox (group_users.invitation_ended.staff).
 * @returns true when an invitation ended; false, writing nothing, for anyone else
 */
export async function endGroupInvitation(
  tx: Tx,
  userId: number,
  reason: InvitationEndReason,
  ctx: InvitationEndContext,
): Promise<boolean> {
  const [user] = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.accountId), eq(users.isAdmin, false), isNotNull(users.invitedAt)))
    .for('update');
  if (!user) return false;
  const memberOf = await tx
    .select({ id: groups.id, label: groups.label, gen: groups.gen })
    .from(groupUsers)
    .innerJoin(groups, eq(groups.id, groupUsers.groupId))
    .where(eq(groupUsers.userId, userId))
    .orderBy(asc(groups.id));
  if (memberOf.length === 0) return false;
  await tx.delete(users).where(eq(users.id, userId));
  await recordAudit(tx, {
    actorUserId: null,
    action: 'group_users.invitation_ended',
    details: { userId, invitedEmail: user.email, reason, groupIds: memberOf.map((g) => g.id) },
    ip: ctx.ip,
  });
  const how =
    reason === 'declined'
      ? 'The recipient pressed "This was not me" in the invitation mail.'
      : 'The address started an application of its own; the invitation was ended so that it could.';
  const at = mailDateTime(ctx.now ?? new Date());
  await enqueueMail(tx, [
    {
      kind: 'group_users.invitation_ended.staff',
      to: ctx.staffEmail,
      subject:
        reason === 'declined'
          ? 'An invitation to a central organization was declined: "This was not me"'
          : 'An invitation to a central organization was ended by an application',
      text:
        `Hello,\n\nA pending invitation to a central organization's workspace was ended on ${at}. ${how}\n\n` +
        `Invited address: ${typedAddress(user.email)}\n` +
        memberOf.map((g) => `Group: ${typed(g.label)}${g.gen ? ` (GEN ${g.gen})` : ''}, group ${g.id}\n`).join('') +
        `\nThe invited user was removed; the audit log holds the event. Check whether the group's managers invite people who do not expect it.\n`,
    },
  ]);
  return true;
}
