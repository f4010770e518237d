import { and, eq } from 'drizzle-orm';
import { groups, groupUsers } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import type { GroupRole } from '../../shared/schemas/group-workspace.ts';
import type { DbOrTx } from '../db/client.ts';
import type { SessionUser } from './session.ts';

/** The central organization a `group-user` route acts for, and in which role. */
export interface ActingGroup {
  groupId: number;
  label: string;
  gen: string | null;
  centralName: string;
  /** The caller's role in the group; 'staff' for the provider's staff, who reach every group (audited where they write). */
  role: GroupRole | 'staff';
}

/** The 404 of a group the caller is not a user of: the same as for a group that does not exist. */
export const GROUP = 'The group';

/**
 * The group a signed-in user may act for (docs/roles.md "Central organizations"): a group they are
 * a user of (group_users), or, for staff, any existing group. Reads groups and group_users. Routes
 * do not call it: their `config.access` 'group-user' does (plugins/access.ts, `req.group`).
 * @param groupId the group's id from the path (`:groupId`), already a positive integer
 * @throws HttpError 404 'The group could not be found.' when the group does not exist or the user is not
 *   one of its users and not staff (never reveal that it exists)
 */
export async function resolveGroup(db: DbOrTx, user: SessionUser, groupId: number): Promise<ActingGroup> {
  const [row] = await db
    .select({
      label: groups.label,
      gen: groups.gen,
      centralName: groups.centralName,
      role: groupUsers.role,
    })
    .from(groups)
    .leftJoin(groupUsers, and(eq(groupUsers.groupId, groups.id), eq(groupUsers.userId, user.id)))
    .where(eq(groups.id, groupId))
    .limit(1);
  if (!row || (!row.role && !user.isAdmin)) throw notFound(GROUP);
  return {
    groupId,
    label: row.label,
    gen: row.gen,
    centralName: row.centralName,
    role: user.isAdmin ? 'staff' : (row.role ?? 'viewer'),
  };
}
