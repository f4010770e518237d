import { asc, desc, eq } from 'drizzle-orm';
import { accounts, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { actorRole } from './account-user-roles.ts';
import { accountUserColumns } from './account-user-rows.ts';
import type { AccountUserList } from '../../../shared/schemas/account-users.ts';
import type { Actor } from '../../actor.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * GET /app/account/users/json (docs/requirements/calls.md): the account's name and its users, the primary user
 * first, then by name and id, and what the viewer may do (docs/roles.md: `can_manage` for the
 * primary user and staff; `must_confirm` unless staff act on behalf). Any user of the
 * account may read it. Reads accounts, users; never the password hash.
 * @param accountId an account the caller may act on (resolveAccount)
 * @throws HttpError 404 when the account does not exist
 */
export async function listAccountUsers(db: DbOrTx, accountId: number, viewer: Actor): Promise<AccountUserList> {
  const [account] = await db
    .select({ id: accounts.id, name: accounts.name, primaryUserId: accounts.primaryUserId })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw notFound('The account');
  const rows = await db
    .select(accountUserColumns)
    .from(users)
    .where(eq(users.accountId, accountId))
    .orderBy(desc(users.isPrimary), asc(users.lastName), asc(users.firstName), asc(users.id));
  const role = await actorRole(db, accountId, viewer, account.primaryUserId);
  return {
    account: { id: account.id, name: account.name },
    users: rows.map((u) => ({ ...u, is_primary: u.is_primary || u.id === account.primaryUserId })),
    viewer: { id: viewer.userId, can_manage: role.canManage, must_confirm: role.needsCurrentPassword },
  };
}
