import { and, count, eq, isNotNull, isNull } from 'drizzle-orm';
import { GROUP_WORKSPACE_TEXT } from '../../../shared/schemas/group-workspace.ts';
import { groupUsers, users } from '../../db/schema.ts';
import { HttpError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { findGroupUser, lockGroup } from './group-users.ts';
import { assertManager } from './invite-group-user.ts';
import type { Actor } from '../../actor.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { ActingGroup } from '../../plugins/resolve-group.ts';

/**
 * Deletes user `userId` when they were only ever an invitation to central organizations' groups
 * and belong to none now: no account, not staff, no password chosen (users.invited_at set), no
 * group left. Their set-password links and sessions go with them (FK cascade), so the links stop
 * working and the address is free. Writes: users.
 * @returns whether the user was deleted
 */
async function dropUnusedInvitee(tx: DbOrTx, userId: number): Promise<boolean> {
  const [{ n }] = await tx.select({ n: count() }).from(groupUsers).where(eq(groupUsers.userId, userId));
  if (n > 0) return false;
  const gone = await tx
    .delete(users)
    .where(and(eq(users.id, userId), isNull(users.accountId), eq(users.isAdmin, false), isNotNull(users.invitedAt)))
    .returning({ id: users.id });
  return gone.length > 0;
}

/**
 * DELETE /api/app/groups/{groupId}/users/{userId} (docs/roles.md "Central organizations"): a
 * manager of the group, or staff, takes a user off the group; they may take themselves off. The
 * group keeps at least one manager. A user who never chose a password and has nothing else is
 * deleted (dropUnusedInvitee); anyone else keeps their sign-in and loses only this workspace, at
 * their next request.
 * Writes in one transaction, after locking the group: group_users, users (dropUnusedInvitee),
 * audit_log 'group_users.removed' (the group, the user, their role, whether staff acted).
 * @returns the message to show
 * @throws HttpError 403 for a viewer (assertManager); 404 'The user could not be found.' when
 *   `userId` is not one of the group's users; 409 GROUP_WORKSPACE_TEXT.lastManager
 */
export async function removeGroupUser(
  db: Db,
  group: ActingGroup,
  userId: number,
  actor: Pick<Pick<Actor, 'userId' | 'name' | 'email' | 'ip'>, 'userId' | 'ip'>,
): Promise<{ message: string }> {
  assertManager(group);
  return db.transaction(async (tx) => {
    await lockGroup(tx, group.groupId);
    const target = await findGroupUser(tx, group.groupId, userId);
    if (!target) throw notFound('The user');
    if (target.role === 'manager') {
      const [{ n }] = await tx
        .select({ n: count() })
        .from(groupUsers)
        .where(and(eq(groupUsers.groupId, group.groupId), eq(groupUsers.role, 'manager')));
      if (n <= 1) throw new HttpError(409, GROUP_WORKSPACE_TEXT.lastManager);
    }
    await tx.delete(groupUsers).where(and(eq(groupUsers.groupId, group.groupId), eq(groupUsers.userId, userId)));
    const deleted = await dropUnusedInvitee(tx, userId);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'group_users.removed',
      details: {
        groupId: group.groupId,
        userId,
        role: target.role,
        userDeleted: deleted,
        byStaff: group.role === 'staff',
      },
      ip: actor.ip,
    });
    return { message: GROUP_WORKSPACE_TEXT.removed(target.email) };
  });
}
