import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Gives accounts that just got an EIN the IRS's facts of the loaded BMF release at once
 * (docs/irs-data.md "IRS facts"), instead of at the next release load: for each account holding one
 * of `eins` that has no BMF release yet, or an older one than its organization's row, copies from
 * irs_organizations the codes the standing reads (STATUS, SUBSECTION, AFFILIATION, RULING,
 * DEDUCTIBILITY, FOUNDATION, FILING_REQ_CD, PF_FILING_REQ_CD, TAX_PERIOD, NTEE_CD), the legal name
 * and the release, and fills in the address and fiscal year end (ACCT_PD) where the customer gave
 * none, as a release load does (importBmf: a customer's own name and address stay theirs). An EIN
 * the IRS data does not hold changes nothing. Runs in the caller's transaction.
 * Writes accounts.
 * @param eins 9-digit EINs without the dash
 * @returns how many accounts were given facts
 */
export async function linkIrsFacts(db: DbOrTx, eins: readonly string[]): Promise<number> {
  if (!eins.length) return 0;
  const result = await db.execute(sql`
    UPDATE accounts a SET
      subsection = o.subsection, affiliation = o.affiliation, ruling = o.ruling,
      deductibility = o.deductibility, irs_status = o.irs_status, tax_period = o.tax_period,
      filing_requirement = o.filing_requirement, pf_filing_requirement = o.pf_filing_requirement,
      ntee_code = o.ntee_code, foundation = o.foundation, legal_name = o.name,
      bmf_release_id = o.release_id,
      street = CASE WHEN a.street = '' THEN o.street ELSE a.street END,
      city = CASE WHEN a.city = '' THEN o.city ELSE a.city END,
      state = CASE WHEN a.state = '' THEN o.state ELSE a.state END,
      zip = CASE WHEN a.zip = '' THEN o.zip ELSE a.zip END,
      fiscal_year_end_month = coalesce(a.fiscal_year_end_month, o.fiscal_year_end_month),
      updated_at = now()
    FROM irs_organizations o
    WHERE o.ein = a.ein AND a.ein = ANY(${sql.param([...eins])}::text[])
      AND a.bmf_release_id IS DISTINCT FROM o.release_id`);
  const counted = result as unknown as { rowCount?: number | null; affectedRows?: number };
  return Number(counted.rowCount ?? counted.affectedRows ?? 0);
}
