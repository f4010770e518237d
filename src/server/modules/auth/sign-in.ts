import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
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

/** Where a user lands after signing in (or resetting the password): staff on /admin, everyone else on their group's home (docs/app-home.md). */
export function homeFor(isAdmin: boolean): string {
  return isAdmin ? '/admin' : '/app';
}
