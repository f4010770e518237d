import { and, asc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, filings, users } from '../../db/schema.ts';
import { ADMIN_PER_PAGE } from '../../../shared/schemas/admin.ts';
import { buildPage, type PageObject } from '../../../shared/rules/pagination.ts';
import { latestDueTaxYear, revocationRisk } from '../../../shared/rules/compliance-calendar.ts';
import type { RiskRow } from '../../../shared/schemas/compliance.ts';


/**
 * Customer accounts (`source <> 'irs-bmf'`) with a fiscal year end at revocation risk on `today`
 * (issue 7): revocationRisk(filed tax years, latestDueTaxYear(fye, today), firstTaxYear = the
 * calendar year the account was created, UTC) is 'at_risk' (the last two due years unfiled) or
 * 'revoked' (the last three). The test runs in SQL (the latest due year per fiscal year end month
 * is computed here and passed in), so paging and the total are exact. Ordered by name, id.
 */
export async function listRevocationRisk(db: Db, today: string, page: number): Promise<PageObject<RiskRow>> {
  const latest = Array.from({ length: 12 }, (_, i) => latestDueTaxYear(i + 1, today));
  const latestOf = sql`(CASE ${accounts.fiscalYearEndMonth} ${sql.join(latest.map((y, i) => sql.raw(`WHEN ${i + 1} THEN ${y}`)), sql` `)} END)`;
  const firstYear = sql`extract(year from ${accounts.createdAt} at time zone 'UTC')::int`;
  const missed = (year: SQL) => sql`(${year} >= ${firstYear} AND NOT EXISTS (SELECT 1 FROM ${filings} WHERE ${filings.accountId} = ${accounts.id} AND ${filings.taxYear} = ${year}))`;
  const where = and(
    ne(accounts.source, 'irs-bmf'),
    isNotNull(accounts.fiscalYearEndMonth),
    sql`${accounts.fiscalYearEndMonth} BETWEEN 1 AND 12`,
    missed(latestOf),
    missed(sql`${latestOf} - 1`),
  );
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(accounts).where(where);
  const rows = await db
    .select({
      id: accounts.id, name: accounts.name, city: accounts.city, state: accounts.state, fye: accounts.fiscalYearEndMonth,
      createdAt: accounts.createdAt, email: users.email,
    })
    .from(accounts)
    .leftJoin(users, eq(users.id, accounts.primaryUserId))
    .where(where)
    .orderBy(asc(accounts.name), asc(accounts.id))
    .limit(ADMIN_PER_PAGE)
    .offset((page - 1) * ADMIN_PER_PAGE);
  const filed = rows.length
    ? await db.select({ accountId: filings.accountId, taxYear: filings.taxYear }).from(filings).where(inArray(filings.accountId, rows.map((r) => r.id)))
    : [];
  const data = rows.map((r): RiskRow => {
    const fye = r.fye!;
    const years = filed.filter((f) => f.accountId === r.id).map((f) => f.taxYear);
    const latestYear = latest[fye - 1];
    const firstTaxYear = r.createdAt.getUTCFullYear();
    const risk = revocationRisk(years, latestYear, firstTaxYear);
    return {
      account_id: r.id,
      name: r.name,
      city: r.city,
      state: r.state,
      fiscal_year_end_month: fye,
      primary_email: r.email,
      // The SQL test and the shared rule agree; 'ok' cannot occur here.
      risk: risk === 'ok' ? 'at_risk' : risk,
      latest_due_tax_year: latestYear,
      missing_tax_years: [latestYear, latestYear - 1, latestYear - 2].filter((y) => y >= firstTaxYear && !years.includes(y)),
      last_filed_tax_year: years.length ? Math.max(...years) : null,
    };
  });
  return buildPage(data, page, ADMIN_PER_PAGE, total, (p) => `?page=${p}`);
}
