import { eq } from 'drizzle-orm';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { accounts, levels } from '../../db/schema.ts';
import { standingColumns, standingOfAccount, standingView } from '../irs-data/get-standing.ts';
import type { Db } from '../../db/client.ts';

/**
 * The signed-in holder's account overview for /account: organization, level, renewal date and the
 * group's standing with the IRS (docs/irs-standing.md).
 * @param today the calendar day of the standing (default: today, UTC)
 * @returns null when the user belongs to no account (admins)
 */
export async function getMyAccount(db: Db, accountId: number | null, today = calendarDate(new Date())) {
  if (!accountId) return null;
  const [row] = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      ein: accounts.ein,
      city: accounts.city,
      state: accounts.state,
      renewal_due_at: accounts.renewalDueAt,
      level: levels.name,
      public_profile_image: accounts.publicProfileImage,
      irs: standingColumns,
    })
    .from(accounts)
    .leftJoin(levels, eq(levels.id, accounts.levelId))
    .where(eq(accounts.id, accountId));
  if (!row) return null;
  const { irs, ...account } = row;
  return { ...account, standing: standingView(irs, await standingOfAccount(db, irs, today)) };
}
