import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { accounts, filings, irsEpostcards, irsReleases, irsRevocations } from '../../db/schema.ts';
import { computeStanding, type Standing } from '../../../shared/rules/standing.ts';
import { latestIrsReleases } from './load-release.ts';

/** The IRS releases a standing was computed from ('YYYY-MM-DD' release dates; null when none was loaded). */
export interface StandingSources {
  /** The BMF release the account's IRS facts were read from. */
  bmfReleasedOn: string | null;
  /** The newest Form 990-N data loaded. */
  epostcardReleasedOn: string | null;
  /** The newest Automatic Revocation List loaded. */
  revocationsReleasedOn: string | null;
}

/** The account's IRS columns that the standing reads. */
export type StandingAccount = Pick<typeof accounts.$inferSelect,
  'id' | 'ein' | 'irsStatus' | 'filingRequirement' | 'fiscalYearEndMonth' | 'ruling' | 'taxPeriod' | 'bmfReleaseId'>;

/**
 * The standing of one account on `today` (docs/irs-standing.md), from its BMF facts, the Form
 * 990-N data and the revocation list for its EIN, and the filings staff recorded, with the IRS
 * releases those came from. Reads only; four small indexed queries.
 * @param today 'YYYY-MM-DD'
 */
export async function standingOfAccount(db: DbOrTx, account: StandingAccount, today: string): Promise<{ standing: Standing; sources: StandingSources }> {
  const ein = account.ein ?? '';
  const [recorded, postcards, revocations, latest, bmfRelease] = await Promise.all([
    db.select({ taxYear: filings.taxYear }).from(filings).where(eq(filings.accountId, account.id)),
    ein ? db.select({ taxYear: irsEpostcards.taxYear }).from(irsEpostcards).where(eq(irsEpostcards.ein, ein)) : Promise.resolve([]),
    ein ? db.select().from(irsRevocations).where(eq(irsRevocations.ein, ein)) : Promise.resolve([]),
    latestIrsReleases(db),
    account.bmfReleaseId
      ? db.select({ releasedOn: irsReleases.releasedOn }).from(irsReleases).where(eq(irsReleases.id, account.bmfReleaseId))
      : Promise.resolve([]),
  ]);
  const bmfReleasedOn = bmfRelease[0]?.releasedOn ?? null;
  const epostcardReleasedOn = latest.epostcard?.releasedOn ?? null;
  // A 990-N shows in the 990-N data; a 990 or 990-EZ only in the BMF's TAX_PERIOD.
  const dates = [bmfReleasedOn, account.filingRequirement === '02' ? epostcardReleasedOn : null].filter((d): d is string => d !== null);
  const standing = computeStanding({
    onBmf: account.irsStatus !== null,
    irsStatus: account.irsStatus,
    filingRequirement: account.filingRequirement,
    fiscalYearEndMonth: account.fiscalYearEndMonth,
    ruling: account.ruling,
    bmfTaxPeriod: account.taxPeriod,
    filedTaxYears: [...recorded, ...postcards].map((r) => r.taxYear),
    revocations: revocations.map((r) => ({ revokedOn: r.revokedOn, postedOn: r.postedOn, reinstatedOn: r.reinstatedOn })),
    dataAsOf: dates.length ? dates.sort().at(-1)! : null,
  }, today);
  return {
    standing,
    sources: {
      bmfReleasedOn,
      epostcardReleasedOn,
      revocationsReleasedOn: latest.revocations?.releasedOn ?? null,
    },
  };
}
