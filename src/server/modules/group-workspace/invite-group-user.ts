import { eq } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { INVITATION_DAYS } from '../../../shared/schemas/account-users.ts';
import { GROUP_WORKSPACE_TEXT, type GroupUser, type GroupUserInvite } from '../../../shared/schemas/group-workspace.ts';
import { randomSecret } from '../../config.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { groupUsers, users } from '../../db/schema.ts';
import { HttpError, ValidationError } from '../../errors.ts';
import { hashPassword } from '../../passwords.ts';
import { insertInvitedUser } from '../account-users/account-user-rows.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { issueResetToken } from '../password-reset/issue-reset-token.ts';
import { groupUserNotices } from './group-user-notices.ts';
import { findGroupUser, lockGroup } from './group-users.ts';
import type { Actor } from '../../actor.ts';
import type { Db } from '../../db/client.ts';
import type { ActingGroup } from '../../plugins/resolve-group.ts';
import type { NoticeSender } from '../account-users/account-user-notices.ts';

/**
 * Refuses a viewer what only a manager of the group (or staff) may do.
 * @throws HttpError 403 GROUP_WORKSPACE_TEXT.managersOnly
 */
export function assertManager(group: ActingGroup): void {
  if (group.role !== 'manager' && group.role !== 'staff') throw new HttpError(403, GROUP_WORKSPACE_TEXT.managersOnly);
}

/**
 * POST /api/app/groups/{groupId}/users (docs/roles.md "Central organizations"): a manager of the
 * group, or staff, gives `input.email` the group's workspace in `input.role`.
 * - An address nobody signs in with becomes a new user with no account and no usable password
 *   (users.invited_at set), mailed an invitation with a one-time set-password link (INVITATION_DAYS)
 *   and the "This was not me" link (docs/roles.md "Invitations");
 * - a user who already signs in (a chapter's officer, say) is added and told by mail, with no link
 *   but the sign-in page; one still invited elsewhere (no password chosen yet) is invited again,
 *   with a new set-password link;
 * - a staff address, or one already of the group, is refused.
 * Writes in one transaction, after locking the group (lockGroup): users (a new user), group_users,
 * password_resets (the invitation's token), mail_outbox, audit_log 'group_users.invited' or
 * 'group_users.added' (the group, the user, the role, whether staff acted).
 * @returns the message to show and the user as the workspace lists them
 * @throws HttpError 403 for a viewer (assertManager); ValidationError 422 on `email` for a staff
 *   address or a user of the group already
 */
export async function inviteGroupUser(
  db: Db,
  group: ActingGroup,
  input: GroupUserInvite,
  actor: Pick<Actor, 'userId' | 'name' | 'email' | 'ip'>,
  sender: NoticeSender,
  now = new Date(),
): Promise<{ message: string; user: GroupUser }> {
  assertManager(group);
  const unusableHash = await hashPassword(randomSecret(32));
  const ctx = {
    ...sender,
    groupLabel: group.label,
    gen: group.gen,
    role: input.role,
    inviter: { isStaff: group.role === 'staff', name: actor.name, email: actor.email },
  };
  try {
    return await db.transaction(async (tx) => {
      await lockGroup(tx, group.groupId);
      const [found] = await tx
        .select({ id: users.id, isAdmin: users.isAdmin, invitedAt: users.invitedAt })
        .from(users)
        .where(eq(users.email, input.email));
      if (found?.isAdmin) throw ValidationError.field('email', GROUP_WORKSPACE_TEXT.staffAccount);
      if (found && (await findGroupUser(tx, group.groupId, found.id)))
        throw ValidationError.field('email', GROUP_WORKSPACE_TEXT.alreadyUser);
      const userId = found?.id ?? (await insertInvitedUser(tx, input, unusableHash, now));
      await tx
        .insert(groupUsers)
        .values({ groupId: group.groupId, userId, role: input.role, invitedBy: actor.userId, createdAt: now });
      // Someone invited elsewhere who has not chosen a password yet cannot "sign in as usual": they
      // get an invitation with a new link (their older links stop working, as for any new link).
      const signsIn = found !== undefined && found.invitedAt === null;
      if (signsIn) {
        await enqueueMail(tx, groupUserNotices.added(ctx, input.email, `${sender.publicUrl}/login`));
      } else {
        const { link, notMeLink, expiresAt } = await issueResetToken(tx, {
          userId,
          email: input.email,
          publicUrl: sender.publicUrl,
          lifetimeMinutes: INVITATION_DAYS * 24 * 60,
          now,
          invitation: true,
        });
        await enqueueMail(
          tx,
          groupUserNotices.invitation(ctx, input.email, {
            setPassword: link,
            notMe: must(notMeLink, 'the not-me link of an invitation token'),
            expiresAt,
          }),
        );
      }
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: signsIn ? 'group_users.added' : 'group_users.invited',
        details: { groupId: group.groupId, userId, role: input.role, byStaff: group.role === 'staff' },
        ip: actor.ip,
      });
      const user = must(await findGroupUser(tx, group.groupId, userId), 'the group user just added');
      return {
        message: signsIn ? GROUP_WORKSPACE_TEXT.added(input.email) : GROUP_WORKSPACE_TEXT.invited(input.email),
        user,
      };
    });
  } catch (err) {
    // Two invitations of one new address at once: the second finds the address taken.
    if (isUniqueViolation(err)) throw ValidationError.field('email', GROUP_WORKSPACE_TEXT.alreadyUser);
    throw err;
  }
}
