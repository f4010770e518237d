import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { calendarDate, deadlinesFor } from '../../../shared/rules/compliance-calendar.ts';
import { accounts } from '../../db/schema.ts';
import { requireUser } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { accountChoiceSchema } from '../../../shared/schemas/account-choice.ts';
import { resolveAccount } from '../accounts/resolve-account.ts';

/**
 * The organization's compliance calendar (issue 7, beyond SPEC): `GET /api/account/calendar`
 * answers `{ today, fiscal_year_end_month, deadlines }`, today and due dates as 'YYYY-MM-DD' (UTC
 * calendar date), deadlines from deadlinesFor (src/shared/rules/compliance-calendar.ts): the next
 * Form 990-series due date from the fiscal year end (1-based month), and the renewal date. The
 * holder's own account, or any account for an admin (`account_id`); others 404. Reads only.
 */
export async function complianceRoutes(app: FastifyInstance) {
  app.get('/api/account/calendar', { preHandler: requireUser }, async (req) => {
    const { account_id } = parseInput(accountChoiceSchema, req.query);
    const { accountId } = await resolveAccount(app.db, req.user!, account_id);
    const [account] = await app.db.select({ fye: accounts.fiscalYearEndMonth, renewalDueAt: accounts.renewalDueAt }).from(accounts).where(eq(accounts.id, accountId));
    const today = calendarDate(new Date());
    return {
      today,
      fiscal_year_end_month: account.fye,
      deadlines: deadlinesFor({ fiscalYearEndMonth: account.fye, renewalDueAt: account.renewalDueAt }, today),
    };
  });
}
