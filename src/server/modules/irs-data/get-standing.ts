import { eq, inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { accounts, filings, groups, irsEpostcards, irsPub78, irsReleases, irsRevocations } from '../../db/schema.ts';
import { computeStanding, FILING_REQUIREMENTS, irsStatusMeaning, type Standing, type StandingFacts } from '../../../shared/rules/standing.ts';
import type { IrsFactsView, StandingView } from '../../../shared/schemas/search.ts';
import { pub78Listing, type Pub78Listing } from '../../../shared/rules/deductibility.ts';
import { latestIrsReleases } from './load-release.ts';

/** The IRS releases a standing was computed from ('YYYY-MM-DD' release dates; null when none was loaded). */
export interface StandingSources {
  /** The BMF release the account's IRS facts were read from. */
  bmfReleasedOn: string | null;
  /** The newest Form 990-N data loaded. */
  epostcardReleasedOn: string | null;
  /** The newest Automatic Revocation List loaded. */
  revocationsReleasedOn: string | null;
  /** The newest Publication 78 data loaded. */
  pub78ReleasedOn: string | null;
}

/** The account's IRS columns that the standing reads. */
export type StandingAccount = Pick<typeof accounts.$inferSelect,
  'id' | 'ein' | 'gen' | 'affiliation' | 'irsStatus' | 'filingRequirement' | 'fiscalYearEndMonth' | 'ruling' | 'taxPeriod' | 'bmfReleaseId'>;

export interface AccountStanding {
  standing: Standing;
  sources: StandingSources;
  /** Its place in the Publication 78 data; null while no Publication 78 data is loaded. */
  pub78: Pub78Listing | null;
}

/**
 * The standing of each of `list` on `today` (docs/irs-standing.md), from its BMF facts, the Form
 * 990-N data and the revocation list for its EIN, and the filings staff recorded, with the IRS
 * releases those came from; and its Publication 78 listing, its own or through its central
 * organization's GROUP entry (groups.central_ein of its GEN). Reads only: six queries whatever the
 * number of accounts (callers page through large sets, as the reminder job does by 200).
 * @param today 'YYYY-MM-DD'
 * @returns by account id
 */
export async function standingOfAccounts(db: DbOrTx, list: StandingAccount[], today: string): Promise<Map<number, AccountStanding>> {
  const out = new Map<number, AccountStanding>();
  if (!list.length) return out;
  const ids = list.map((a) => a.id);
  const eins = [...new Set(list.map((a) => a.ein).filter((e): e is string => !!e))];
  const releaseIds = [...new Set(list.map((a) => a.bmfReleaseId).filter((r): r is number => r !== null))];
  const gens = [...new Set(list.map((a) => a.gen).filter((g): g is string => !!g))];
  const [recorded, postcards, revocations, latest, bmfReleases, pub78] = await Promise.all([
    db.select({ accountId: filings.accountId, taxYear: filings.taxYear }).from(filings).where(inArray(filings.accountId, ids)),
    eins.length ? db.select({ ein: irsEpostcards.ein, taxYear: irsEpostcards.taxYear }).from(irsEpostcards).where(inArray(irsEpostcards.ein, eins)) : Promise.resolve([]),
    eins.length ? db.select().from(irsRevocations).where(inArray(irsRevocations.ein, eins)) : Promise.resolve([]),
    latestIrsReleases(db),
    releaseIds.length ? db.select({ id: irsReleases.id, releasedOn: irsReleases.releasedOn }).from(irsReleases).where(inArray(irsReleases.id, releaseIds)) : Promise.resolve([]),
    eins.length || gens.length
      ? db.select({ ein: irsPub78.ein, codes: irsPub78.deductibilityCodes, centralOfGen: groups.gen }).from(irsPub78)
        .leftJoin(groups, eq(groups.centralEin, irsPub78.ein))
        .where(or(eins.length ? inArray(irsPub78.ein, eins) : undefined, gens.length ? inArray(groups.gen, gens) : undefined))
      : Promise.resolve([]),
  ]);
  const pub78ByEin = new Map(pub78.map((p) => [p.ein, p.codes.split(',').filter(Boolean)]));
  const centralPub78ByGen = new Map(pub78.filter((p) => p.centralOfGen).map((p) => [p.centralOfGen!, p.codes.split(',').filter(Boolean)]));
  const releasedOn = new Map(bmfReleases.map((r) => [r.id, r.releasedOn]));
  const epostcardReleasedOn = latest.epostcard?.releasedOn ?? null;
  for (const account of list) {
    const bmfReleasedOn = account.bmfReleaseId !== null ? releasedOn.get(account.bmfReleaseId) ?? null : null;
    // A 990-N shows in the 990-N data; a 990 or 990-EZ only in the BMF's TAX_PERIOD.
    const dates = [bmfReleasedOn, account.filingRequirement === '02' ? epostcardReleasedOn : null].filter((d): d is string => d !== null).sort();
    const facts: StandingFacts = {
      onBmf: account.irsStatus !== null,
      irsStatus: account.irsStatus,
      filingRequirement: account.filingRequirement,
      fiscalYearEndMonth: account.fiscalYearEndMonth,
      ruling: account.ruling,
      groupRuling: account.affiliation === '9',
      bmfTaxPeriod: account.taxPeriod,
      filedTaxYears: [
        ...recorded.filter((r) => r.accountId === account.id),
        ...(account.ein ? postcards.filter((p) => p.ein === account.ein) : []),
      ].map((r) => r.taxYear),
      revocations: (account.ein ? revocations.filter((r) => r.ein === account.ein) : [])
        .map((r) => ({ revokedOn: r.revokedOn, postedOn: r.postedOn, reinstatedOn: r.reinstatedOn })),
      dataAsOf: dates.at(-1) ?? null,
    };
    out.set(account.id, {
      standing: computeStanding(facts, today),
      sources: { bmfReleasedOn, epostcardReleasedOn, revocationsReleasedOn: latest.revocations?.releasedOn ?? null, pub78ReleasedOn: latest.pub78?.releasedOn ?? null },
      pub78: latest.pub78
        ? pub78Listing((account.ein && pub78ByEin.get(account.ein)) || null, (account.gen && centralPub78ByGen.get(account.gen)) || null)
        : null,
    });
  }
  return out;
}

/** {@link standingOfAccounts} for one account. */
export async function standingOfAccount(db: DbOrTx, account: StandingAccount, today: string): Promise<AccountStanding> {
  return (await standingOfAccounts(db, [account], today)).get(account.id)!;
}

/** The columns of accounts a {@link StandingAccount} needs, for a select. */
export const standingColumns = {
  id: accounts.id, ein: accounts.ein, gen: accounts.gen, affiliation: accounts.affiliation, irsStatus: accounts.irsStatus, filingRequirement: accounts.filingRequirement,
  fiscalYearEndMonth: accounts.fiscalYearEndMonth, ruling: accounts.ruling, taxPeriod: accounts.taxPeriod, bmfReleaseId: accounts.bmfReleaseId,
};

/**
 * The standing facts as the pages show them (IrsFactsView): the account's IRS columns with their
 * meanings, and the computed standing with its sources. No personal names.
 */
export function irsFactsView(account: StandingAccount, { standing: s, sources, pub78 }: AccountStanding): IrsFactsView {
  return {
    status_code: account.irsStatus ?? '',
    status_meaning: irsStatusMeaning(account.irsStatus),
    fiscal_year_end_month: account.fiscalYearEndMonth,
    filing_requirement: account.filingRequirement ? FILING_REQUIREMENTS[account.filingRequirement]?.label ?? `Code ${account.filingRequirement}` : '',
    latest_tax_year_filed: s.latestTaxYearFiled,
    missed_tax_years: s.missedTaxYears,
    awaiting_data_tax_years: s.awaitingDataTaxYears,
    next_due: s.nextDue ? { tax_year: s.nextDue.taxYear, due: s.nextDue.due, days_left: s.nextDue.daysLeft } : null,
    revocation_date: s.revocationDate,
    days_to_revocation: s.daysToRevocation,
    revoked_on: s.revocation?.revokedOn ?? null,
    reinstated_on: s.revocation?.reinstatedOn ?? null,
    pub78,
    sources: { bmf: sources.bmfReleasedOn, epostcard: sources.epostcardReleasedOn, revocations: sources.revocationsReleasedOn, pub78: sources.pub78ReleasedOn },
  };
}

/** The standing with its facts, as StandingView. */
export function standingView(account: StandingAccount, standing: AccountStanding): StandingView {
  return { state: standing.standing.state, label: standing.standing.label, irs: irsFactsView(account, standing) };
}
