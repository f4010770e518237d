import { and, asc, count, eq, lt } from 'drizzle-orm';
import { reinstatementPaths, type ReinstatementPath } from '../../../shared/rules/reinstatement.ts';
import { accounts, irsRevocations, levels } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { standingColumns, standingOfAccount } from '../irs-data/get-standing.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The slug of the level that sells the reinstatement application (src/server/db/seed/reference-data.ts). */
const REINSTATEMENT_LEVEL_SLUG = 'reinstatement';

/** An account's revocation and the ways back from it (docs/irs-standing.md "Reinstatement"). */
export interface AccountRevocation {
  /** The Automatic Revocation List's revocation date of its latest entry, 'YYYY-MM-DD'. */
  revokedOn: string;
  /** The list's posting date, 'YYYY-MM-DD', or null when the list gives none. */
  postedOn: string | null;
  /** The Rev. Proc. 2014-11 paths in order (reinstatementPaths). */
  paths: ReinstatementPath[];
}

/**
 * The revocation of the account as its standing reads it, and the ways back on `today`: its standing
 * (standingOfAccount) must be 'revoked' (on the Automatic Revocation List, not reinstated since);
 * the paths are judged from the return it owes (its BMF codes), its earlier entries on the list
 * (revocations before this one) and the list's posting date. Gross receipts are not known to the
 * IRS data the product keeps, so a Form 990 or 990-EZ filer "may" fit the streamlined process.
 * Reads accounts, the standing's IRS tables and irs_revocations.
 * @param today 'YYYY-MM-DD'
 * @returns null when the account is not revoked
 * @throws HttpError 404 when the account does not exist
 */
export async function accountRevocation(
  db: DbOrTx,
  accountId: number,
  today: string,
): Promise<AccountRevocation | null> {
  const [account] = await db.select(standingColumns).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!account) throw notFound('The account');
  const { standing } = await standingOfAccount(db, account, today);
  const revocation = standing.revocation;
  if (standing.state !== 'revoked' || !revocation || !account.ein) return null;
  const [{ n }] = await db
    .select({ n: count() })
    .from(irsRevocations)
    .where(and(eq(irsRevocations.ein, account.ein), lt(irsRevocations.revokedOn, revocation.revokedOn)));
  return {
    revokedOn: revocation.revokedOn,
    postedOn: revocation.postedOn,
    paths: reinstatementPaths(
      {
        obligation: standing.obligation,
        grossReceipts: null,
        earlierRevocations: n,
        revokedOn: revocation.revokedOn,
        postedOn: revocation.postedOn,
      },
      today,
    ),
  };
}

/** The public "Reinstatement application" level, where the group buys it, or null when none is offered. */
export async function reinstatementLevel(db: DbOrTx) {
  const [level] = await db
    .select({ id: levels.id, name: levels.name, price_cents: levels.priceCents })
    .from(levels)
    .where(and(eq(levels.slug, REINSTATEMENT_LEVEL_SLUG), eq(levels.isPublic, true)))
    .orderBy(asc(levels.id))
    .limit(1);
  return level ?? null;
}
