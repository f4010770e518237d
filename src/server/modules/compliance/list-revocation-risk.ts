import { inArray, sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';
import { ADMIN_PER_PAGE } from '../../../shared/schemas/admin.ts';
import { RISK_STATES, type RiskRow, type RiskState } from '../../../shared/schemas/compliance.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { accounts, users } from '../../db/schema.ts';
import { standingColumns, standingOfAccounts } from '../irs-data/get-standing.ts';
import { ofGens, providerGens } from '../work-queue/membership.ts';
import type { Db } from '../../db/client.ts';

/** Accounts whose standing is computed at once (standingOfAccounts reads five queries per call). */
const CHUNK = 1000;

/**
 * GET /api/admin/compliance/risk (docs/irs-standing.md "Where it shows"; staff only): the groups
 * staff look after — customer accounts, accounts with users (members) and the subordinates of the
 * provider's GENs (docs/work-queue.md "Members and the roster") — that have IRS facts (a BMF record
 * or a revocation list entry) and whose standing on `today` is revoked, past its revocation date,
 * two years missed or one year missed. The standing is standingOfAccounts', the one the standing
 * card shows: the BMF's TAX_PERIOD, the Form 990-N data and the filings staff recorded all count,
 * and a return due after the IRS data's release is not counted as missed. Most urgent first
 * (RISK_STATES order, then the revocation date, the name, the id); 25 a page, exact total.
 * The candidates are found through indexes (accounts_gen, users_account, the customer index);
 * a group in no IRS file is "not yet on the IRS list", never at risk.
 * Reads groups, accounts, users, filings, irs_epostcards, irs_revocations, irs_releases; writes nothing.
 */
export async function listRevocationRisk(db: Db, today: string, page: number): Promise<PageObject<RiskRow>> {
  const gens = await providerGens(db);
  const candidates = await rowsOf<{ id: number }>(
    db,
    sql`
    SELECT c.id FROM (
      SELECT a.id FROM accounts a WHERE ${ofGens(gens)}
      UNION SELECT u.account_id FROM users u WHERE u.account_id IS NOT NULL
      UNION SELECT a.id FROM accounts a WHERE a.is_listed = false AND a.source <> 'irs-bmf'
    ) c JOIN accounts a ON a.id = c.id
    WHERE a.bmf_release_id IS NOT NULL OR a.irs_status IS NOT NULL OR EXISTS (SELECT 1 FROM irs_revocations v WHERE v.ein = a.ein)
    ORDER BY c.id`,
  );
  const atRisk: { primaryUserId: number | null; risk: RiskRow }[] = [];
  for (let i = 0; i < candidates.length; i += CHUNK) {
    const ids = candidates.slice(i, i + CHUNK).map((c) => Number(c.id));
    const list = await db
      .select({
        ...standingColumns,
        name: accounts.name,
        city: accounts.city,
        state: accounts.state,
        gen: accounts.gen,
        primaryUserId: accounts.primaryUserId,
        source: accounts.source,
      })
      .from(accounts)
      .where(inArray(accounts.id, ids));
    const standings = await standingOfAccounts(db, list, today);
    for (const a of list) {
      const { standing: s, sources } = must(standings.get(a.id), `the standing of account ${a.id}`);
      if (!(RISK_STATES as readonly string[]).includes(s.state)) continue;
      atRisk.push({
        primaryUserId: a.primaryUserId,
        risk: {
          account_id: a.id,
          name: a.name,
          city: a.city,
          state: a.state,
          ein: a.ein,
          gen: a.gen,
          fiscal_year_end_month: a.fiscalYearEndMonth,
          primary_email: null,
          standing: s.state as RiskState,
          standing_label: s.label,
          missed_tax_years: s.missedTaxYears,
          latest_tax_year_filed: s.latestTaxYearFiled,
          revocation_date: s.revocationDate,
          days_to_revocation: s.daysToRevocation,
          revoked_on: s.state === 'revoked' ? (s.revocation?.revokedOn ?? null) : null,
          sources: {
            bmf: sources.bmfReleasedOn,
            epostcard: sources.epostcardReleasedOn,
            revocations: sources.revocationsReleasedOn,
          },
          can_record_filing: a.source !== 'irs-bmf',
        },
      });
    }
  }
  const rank = (r: RiskRow) => RISK_STATES.indexOf(r.standing);
  const date = (r: RiskRow) => r.revoked_on ?? r.revocation_date ?? '9999-12-31';
  atRisk.sort(
    (x, y) =>
      rank(x.risk) - rank(y.risk) ||
      date(x.risk).localeCompare(date(y.risk)) ||
      x.risk.name.localeCompare(y.risk.name) ||
      x.risk.account_id - y.risk.account_id,
  );
  const shown = atRisk.slice((page - 1) * ADMIN_PER_PAGE, page * ADMIN_PER_PAGE);
  const primaryIds = shown.map((s) => s.primaryUserId).filter((id): id is number => id !== null);
  const emails = primaryIds.length
    ? await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, primaryIds))
    : [];
  const data = shown.map((s) => ({
    ...s.risk,
    primary_email: emails.find((e) => e.id === s.primaryUserId)?.email ?? null,
  }));
  return buildPage(data, page, ADMIN_PER_PAGE, atRisk.length, (p) => `?page=${p}`);
}
