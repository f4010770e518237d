import { eq } from 'drizzle-orm';
import { groupUsers, users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { verifyAgainstDummy, verifyPassword } from '../../passwords.ts';
import type { LoginInput } from '../../../shared/schemas/public-forms.ts';
import type { Db } from '../../db/client.ts';

const BAD_CREDENTIALS = 'These credentials do not match our records.';

/**
 * Checks an e-mail and password.
 * @returns the user's id and whether they are an admin
 * @throws ValidationError on `email` with BAD_CREDENTIALS, taking the same time whether or not the
 *   e-mail exists
 */
export async function signIn(db: Db, input: LoginInput): Promise<{ userId: number; isAdmin: boolean }> {
  const [user] = await db
    .select({ id: users.id, hash: users.passwordHash, isAdmin: users.isAdmin })
    .from(users)
    .where(eq(users.email, input.email));
  if (!user) {
    await verifyAgainstDummy(input.password);
    throw ValidationError.field('email', BAD_CREDENTIALS);
  }
  if (!(await verifyPassword(user.hash, input.password))) throw ValidationError.field('email', BAD_CREDENTIALS);
  return { userId: user.id, isAdmin: user.isAdmin };
}

/**
 * Where a user lands after signing in (or setting their password): staff on /admin; a user of a
 * central organization who has no account of their own on the workspace, /app/group (docs/roles.md
 * "Central organizations"); everyone else on their group's home (docs/app-home.md). Reads users
 * and group_users.
 */
export async function homeFor(db: Db, userId: number, isAdmin: boolean): Promise<string> {
  if (isAdmin) return '/admin';
  const [row] = await db
    .select({ accountId: users.accountId, groupId: groupUsers.groupId })
    .from(users)
    .leftJoin(groupUsers, eq(groupUsers.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row && row.accountId === null && row.groupId !== null ? '/app/group' : '/app';
}
