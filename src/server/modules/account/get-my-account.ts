import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, levels } from '../../db/schema.ts';

/**
 * The signed-in holder's account overview for /account: organization, level and renewal date.
 * @returns null when the user belongs to no account (admins)
 */
export async function getMyAccount(db: Db, accountId: number | null) {
  if (!accountId) return null;
  const [row] = await db
    .select({
      id: accounts.id, name: accounts.name, ein: accounts.ein, city: accounts.city, state: accounts.state,
      renewal_due_at: accounts.renewalDueAt, level: levels.name, public_profile_image: accounts.publicProfileImage,
    })
    .from(accounts)
    .leftJoin(levels, eq(levels.id, accounts.levelId))
    .where(eq(accounts.id, accountId));
  return row ?? null;
}
