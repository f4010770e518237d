import { eq } from 'drizzle-orm';
import { accounts } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import type { DbOrTx } from '../db/client.ts';
import type { SessionUser } from './session.ts';

/** The account a request acts on, and whether an admin is acting on its behalf. */
export interface ActingAccount {
  accountId: number;
  /** true when the user acts for an account that is not their own (an admin; audited). */
  onBehalf: boolean;
}

/**
 * The account a signed-in user may act on (docs/requirements/platform.md §5.6, docs/requirements/permissions.md): their own account, or, for an
 * admin, any existing account named by `requestedAccountId`. Reads accounts. Routes do not call it:
 * their `config.access` 'account-user' or 'primary-user' does (plugins/access.ts, `req.account`).
 * @throws HttpError 404 when the user has no account and names none, names another account
 *   without being an admin, or names an account that does not exist (never reveal it exists)
 */
export async function resolveAccount(
  db: DbOrTx,
  user: SessionUser,
  requestedAccountId?: number | null,
): Promise<ActingAccount> {
  const accountId = requestedAccountId ?? user.accountId;
  if (accountId === null || accountId === undefined) throw notFound('The account');
  if (accountId !== user.accountId && !user.isAdmin) throw notFound('The account');
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!row) throw notFound('The account');
  return { accountId, onBehalf: accountId !== user.accountId };
}
