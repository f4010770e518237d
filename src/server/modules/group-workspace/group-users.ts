import { and, asc, eq, sql } from 'drizzle-orm';
import { groups, groupUsers, users } from '../../db/schema.ts';
import type { GroupUser, WorkspaceSummary } from '../../../shared/schemas/group-workspace.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ActingGroup } from '../../plugins/resolve-group.ts';

/**
 * The central organizations whose workspace user `userId` may open (docs/roles.md "Central
 * organizations"), by name. Staff reach every group from Admin → GEN update, so only their own
 * group_users rows are listed here. Reads groups, group_users.
 * @returns `{ data }`, each group with the user's role in it
 */
export async function listWorkspaces(db: DbOrTx, userId: number): Promise<{ data: WorkspaceSummary[] }> {
  const rows = await db
    .select({
      id: groups.id,
      label: groups.label,
      gen: groups.gen,
      central_name: groups.centralName,
      role: groupUsers.role,
    })
    .from(groupUsers)
    .innerJoin(groups, eq(groups.id, groupUsers.groupId))
    .where(eq(groupUsers.userId, userId))
    .orderBy(asc(groups.label), asc(groups.id));
  return { data: rows };
}

/**
 * The workspace's heading: the group `req.group` resolved (plugins/resolve-group.ts), as the page
 * shows it. Reads nothing.
 */
export function workspaceSummary(group: ActingGroup): WorkspaceSummary {
  return { id: group.groupId, label: group.label, gen: group.gen, central_name: group.centralName, role: group.role };
}

/** The columns of one of the group's users as the workspace lists them. */
const groupUserColumns = {
  user_id: users.id,
  email: users.email,
  first_name: users.firstName,
  last_name: users.lastName,
  role: groupUsers.role,
  invited_at: sql<string | null>`to_char(${users.invitedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
  added_at: sql<string>`to_char(${groupUsers.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
};

/**
 * The users of group `groupId`: managers first, then by e-mail. Reads group_users, users.
 * @returns `{ data }`; `invited_at` is set while a user has not chosen a password yet
 */
export async function listGroupUsers(db: DbOrTx, groupId: number): Promise<{ data: GroupUser[] }> {
  const rows = await db
    .select(groupUserColumns)
    .from(groupUsers)
    .innerJoin(users, eq(users.id, groupUsers.userId))
    .where(eq(groupUsers.groupId, groupId))
    .orderBy(asc(groupUsers.role), asc(users.email));
  return { data: rows };
}

/**
 * One user of group `groupId`, or undefined when they are not one of its users. Reads group_users, users.
 */
export async function findGroupUser(db: DbOrTx, groupId: number, userId: number): Promise<GroupUser | undefined> {
  const [row] = await db
    .select(groupUserColumns)
    .from(groupUsers)
    .innerJoin(users, eq(users.id, groupUsers.userId))
    .where(and(eq(groupUsers.groupId, groupId), eq(groupUsers.userId, userId)));
  return row;
}

/**
 * Locks group `groupId`'s row for the rest of `tx`: every change of a group's users takes it first,
 * so two managers removing each other cannot leave the group without one.
 */
export async function lockGroup(tx: DbOrTx, groupId: number): Promise<void> {
  await tx.select({ id: groups.id }).from(groups).where(eq(groups.id, groupId)).for('update');
}
