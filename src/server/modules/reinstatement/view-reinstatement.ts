import { and, eq, sql } from 'drizzle-orm';
import { reinstatementChecklist, users } from '../../db/schema.ts';
import { findReinstatementOrder } from './order-reinstatement.ts';
import { accountRevocation, reinstatementLevel } from './reinstatement-account.ts';
import type { ReinstatementView } from '../../../shared/schemas/reinstatement.ts';
import type { Actor } from '../../actor.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * GET /api/account/reinstatement (docs/irs-standing.md "Reinstatement"): for a revoked account, its
 * revocation, the 15-month deadline counted from the list's posting date, and the Rev. Proc. 2014-11
 * paths in order, each item with when and by whom it was ticked (a staff member's name only when
 * `viewer.isStaff`; a group reads "Staff"); for any other account no revocation and no paths. And the
 * "Reinstatement application" level the group orders, with the order placed for this revocation
 * (orderReinstatement) and its invoice's balance. Reads only.
 * @param today 'YYYY-MM-DD'
 * @throws HttpError 404 when the account does not exist
 */
export async function viewReinstatement(
  db: DbOrTx,
  accountId: number,
  viewer: Pick<Actor, 'isStaff'>,
  today: string,
): Promise<ReinstatementView> {
  const revocation = await accountRevocation(db, accountId, today);
  const level = await reinstatementLevel(db);
  if (!revocation) return { today, revocation: null, paths: [], level, order: null };
  const rows = await db
    .select({
      key: reinstatementChecklist.itemKey,
      checkedAt: reinstatementChecklist.checkedAt,
      name: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`,
      email: users.email,
      isAdmin: users.isAdmin,
    })
    .from(reinstatementChecklist)
    .leftJoin(users, eq(users.id, reinstatementChecklist.checkedBy))
    .where(
      and(eq(reinstatementChecklist.accountId, accountId), eq(reinstatementChecklist.revokedOn, revocation.revokedOn)),
    );
  const ticked = new Map(rows.map((r) => [r.key, r]));
  const checkerOf = (r: (typeof rows)[number]) =>
    r.isAdmin ? (viewer.isStaff ? `${r.name ?? r.email ?? 'Staff'} (staff)` : 'Staff') : (r.name ?? r.email ?? null);
  const deadline = revocation.paths.find((p) => p.deadline)?.deadline ?? null;
  return {
    today,
    revocation: { revoked_on: revocation.revokedOn, posted_on: revocation.postedOn, deadline },
    paths: revocation.paths.map((p) => ({
      ...p,
      items: p.items.map((i) => {
        const row = ticked.get(i.key);
        return { ...i, checked_at: row?.checkedAt ?? null, checked_by: row ? checkerOf(row) : null };
      }),
    })),
    level,
    order: await findReinstatementOrder(db, accountId, revocation.revokedOn),
  };
}
