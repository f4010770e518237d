import type { Db } from '../client.ts';
import { accounts, users } from '../schema.ts';
import { hashPassword } from '../../passwords.ts';

/** Shared by the demo seed and the tests: one user, optionally an admin or an account holder. */
export async function createUser(db: Db, opts: { email: string; password: string; isAdmin?: boolean; accountId?: number | null; firstName?: string }) {
  const [u] = await db.insert(users).values({
    email: opts.email.toLowerCase(),
    passwordHash: await hashPassword(opts.password),
    isAdmin: opts.isAdmin ?? false,
    accountId: opts.accountId ?? null,
    firstName: opts.firstName ?? '',
  }).returning();
  return u;
}

/** One customer account with a name (not listed in the public search unless `isListed`). */
export async function createAccount(db: Db, opts: { name: string; isListed?: boolean; ein?: string; city?: string; state?: string }) {
  const [a] = await db.insert(accounts).values({
    name: opts.name,
    legalName: opts.name,
    ein: opts.ein ?? null,
    city: opts.city ?? '',
    state: opts.state ?? '',
    isListed: opts.isListed ?? false,
    searchText: opts.name.toLowerCase(),
  }).returning();
  return a;
}
