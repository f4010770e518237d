import { eq } from 'drizzle-orm';
import { deadlinesFor, type Deadline } from '../../../shared/rules/compliance-calendar.ts';
import { returnOwed } from '../../../shared/rules/standing.ts';
import { accounts } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { listFilings } from './list-filings.ts';
import { stateFilingsFor } from './state-filings.ts';
import type { Db } from '../../db/client.ts';

/** One deadline of the calendar; the Form 990 one says whether a filing for its tax year is recorded. */
export type CalendarDeadline = Deadline & { filed?: boolean; filed_on?: string };

/** The compliance calendar of one account (GET /api/account/calendar, the group's home). */
export interface ComplianceCalendar {
  today: string;
  fiscal_year_end_month: number | null;
  deadlines: CalendarDeadline[];
  filings: { tax_year: number; form: string; filed_on: string }[];
}

/**
 * An account's compliance calendar on `today` (docs/irs-standing.md, docs/app-home.md): the
 * deadlines of deadlinesFor (next Form 990-series due date, renewal, the state's annual filing when
 * staff keep its date), soonest first, the Form 990 one marked `filed` when a filing for its tax
 * year is recorded, and the recorded filings, newest first. Reads only.
 * @param today 'YYYY-MM-DD' (UTC calendar date)
 * @throws HttpError 404 when the account does not exist
 */
export async function getCalendar(db: Db, accountId: number, today: string): Promise<ComplianceCalendar> {
  const [account] = await db
    .select({
      fye: accounts.fiscalYearEndMonth,
      renewalDueAt: accounts.renewalDueAt,
      state: accounts.state,
      filingRequirement: accounts.filingRequirement,
      pfFilingRequirement: accounts.pfFilingRequirement,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw notFound('The account');
  const filings = await listFilings(db, accountId);
  const stateFilings = await stateFilingsFor(db, account.state);
  const deadlines = deadlinesFor(
    {
      fiscalYearEndMonth: account.fye,
      renewalDueAt: account.renewalDueAt,
      stateFilings,
      // A church or a group-return member has no Form 990 deadline (docs/irs-standing.md "Returns owed").
      returnOwed: returnOwed(account.filingRequirement, account.pfFilingRequirement),
    },
    today,
  ).map((d) => {
    if (d.kind !== 'form_990') return d;
    const filing = filings.find((f) => f.tax_year === d.taxYear);
    return filing ? { ...d, filed: true, filed_on: filing.filed_on } : { ...d, filed: false };
  });
  return { today, fiscal_year_end_month: account.fye, deadlines, filings };
}
