import { sql, type SQL } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { pub78Listing, type Pub78Listing } from '../../../shared/rules/deductibility.ts';
import {
  computeStanding,
  FILING_REQUIREMENTS,
  irsStatusMeaning,
  lateCostText,
  lateCostYear,
  returnOwedText,
  type LatePenaltyFigures,
  type Standing,
  type RecordedExtension,
  type StandingFacts,
} from '../../../shared/rules/standing.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { accounts } from '../../db/schema.ts';
import { penaltyFiguresJson } from '../compliance/penalty-figures.ts';
import type { IrsFactsView, StandingView } from '../../../shared/schemas/search.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { IrsDataset } from './irs-files.ts';

/** The IRS releases a standing was computed from ('YYYY-MM-DD' release dates; null when none was loaded). */
interface StandingSources {
  /** The BMF release the account's IRS facts were read from. */
  bmfReleasedOn: string | null;
  /** The newest Form 990-N data loaded. */
  epostcardReleasedOn: string | null;
  /** The newest Automatic Revocation List loaded. */
  revocationsReleasedOn: string | null;
  /** The newest Publication 78 data loaded. */
  pub78ReleasedOn: string | null;
}

/** What standingOfAccounts reads in its one statement (dates 'YYYY-MM-DD'). */
export interface StandingLookups {
  releases: { id: number; dataset: IrsDataset; released_on: string; precision: 'day' | 'month'; is_latest: boolean }[];
  filings: { account_id: number; tax_year: number }[];
  postcards: { ein: string; period_end: string; terminated: boolean }[];
  extensions: { account_id: number; period_end: string; extended_due: string }[];
  revocations: { ein: string; revoked_on: string; posted_on: string | null; reinstated_on: string | null }[];
  /** `central_of_gen` set: the entry of that GEN's central organization (groups.central_ein). */
  pub78: { ein: string; codes: string; central_of_gen: string | null }[];
  /** Staff's §6652(c) figures, every due year entered (late_penalty_figures: a row a year). */
  penalty_figures: LatePenaltyFigures[];
}

/** The account's IRS columns that the standing reads. */
export type StandingAccount = Pick<
  typeof accounts.$inferSelect,
  | 'id'
  | 'ein'
  | 'gen'
  | 'affiliation'
  | 'irsStatus'
  | 'filingRequirement'
  | 'pfFilingRequirement'
  | 'fiscalYearEndMonth'
  | 'ruling'
  | 'taxPeriod'
  | 'bmfReleaseId'
>;

export interface AccountStanding {
  standing: Standing;
  sources: StandingSources;
  /** Its place in the Publication 78 data; null while no Publication 78 data is loaded. */
  pub78: Pub78Listing | null;
  /** Staff's §6652(c) figures for the year its first return is due (lateCostYear), when entered. */
  latePenalty: LatePenaltyFigures | null;
}

/**
 * The keys standingLookupsQuery reads by, each an SQL array expression: account ids (int[]), EINs
 * (text[]), BMF release ids (int[]) and GENs (text[]). Parameters for a list of accounts; a
 * subquery when they come from a row read in the same statement (checkOrganization).
 */
export interface StandingKeys {
  ids: SQL;
  eins: SQL;
  releaseIds: SQL;
  gens: SQL;
}

/**
 * The statement reading everything the standing reads besides the organization's own facts, as one
 * row ({@link StandingLookups}: releases, filings, extensions, 990-N rows, revocations and
 * Publication 78 entries, staff's §6652(c) figures, each a JSON array). A data set with no release
 * loaded is not looked up.
 * @param extra more CTEs (`with`, after the lookups' own `latest`) and more columns (`columns`,
 *   before the lookups'), for a caller that reads its own row in the same statement
 */
export function standingLookupsQuery(keys: StandingKeys, extra: { with?: SQL; columns?: SQL } = {}): SQL {
  return sql`WITH latest AS (SELECT DISTINCT ON (dataset) id, dataset FROM irs_releases ORDER BY dataset, released_on DESC, id DESC)${
    extra.with ? sql`, ${extra.with}` : sql``
  }
    SELECT ${extra.columns ? sql`${extra.columns},` : sql``}
      (SELECT coalesce(json_agg(json_build_object('id', r.id, 'dataset', r.dataset, 'released_on', r.released_on,
          'precision', r.released_precision, 'is_latest', r.id IN (SELECT id FROM latest))), '[]')
        FROM irs_releases r WHERE r.id IN (SELECT id FROM latest) OR r.id = ANY(${keys.releaseIds})) AS releases,
      (SELECT coalesce(json_agg(json_build_object('account_id', f.account_id, 'tax_year', f.tax_year)), '[]')
        FROM filings f WHERE f.account_id = ANY(${keys.ids})) AS filings,
      (SELECT coalesce(json_agg(json_build_object('account_id', x.account_id, 'period_end', x.period_end, 'extended_due', x.extended_due)), '[]')
        FROM filing_extensions x WHERE x.account_id = ANY(${keys.ids})) AS extensions,
      (SELECT coalesce(json_agg(json_build_object('ein', e.ein, 'period_end', e.period_end, 'terminated', e.terminated)), '[]')
        FROM irs_epostcards e WHERE e.ein = ANY(${keys.eins}) AND EXISTS (SELECT 1 FROM latest WHERE dataset = 'epostcard')) AS postcards,
      (SELECT coalesce(json_agg(json_build_object('ein', v.ein, 'revoked_on', v.revoked_on, 'posted_on', v.posted_on, 'reinstated_on', v.reinstated_on)), '[]')
        FROM irs_revocations v WHERE v.ein = ANY(${keys.eins}) AND EXISTS (SELECT 1 FROM latest WHERE dataset = 'revocations')) AS revocations,
      (SELECT coalesce(json_agg(json_build_object('ein', p.ein, 'codes', p.deductibility_codes, 'central_of_gen', p.central_of_gen)), '[]')
        FROM (
          SELECT ein, deductibility_codes, NULL::text AS central_of_gen FROM irs_pub78 WHERE ein = ANY(${keys.eins})
          UNION ALL
          SELECT p.ein, p.deductibility_codes, g.gen FROM groups g JOIN irs_pub78 p ON p.ein = g.central_ein WHERE g.gen = ANY(${keys.gens})
        ) p WHERE EXISTS (SELECT 1 FROM latest WHERE dataset = 'pub78')) AS pub78,
      ${penaltyFiguresJson} AS penalty_figures`;
}

/**
 * The standing of each of `list` on `today` (docs/irs-standing.md), from its BMF facts, the Form
 * 990-N data and the revocation list for its EIN, and the filings staff recorded, with the IRS
 * releases those came from; and its Publication 78 listing, its own or through its central
 * organization's GROUP entry (groups.central_ein of its GEN). Reads only: one statement whatever
 * the number of accounts (callers page through large sets, as the reminder job does by 200).
 * @param today 'YYYY-MM-DD'
 * @returns by account id
 */
export async function standingOfAccounts(
  db: DbOrTx,
  list: StandingAccount[],
  today: string,
): Promise<Map<number, AccountStanding>> {
  if (!list.length) return new Map();
  const ids = list.map((a) => a.id);
  const eins = [...new Set(list.map((a) => a.ein).filter((e): e is string => !!e))];
  const releaseIds = [...new Set(list.map((a) => a.bmfReleaseId).filter((r): r is number => r !== null))];
  const gens = [...new Set(list.map((a) => a.gen).filter((g): g is string => !!g))];
  // One statement for everything the standing reads besides the account row: on the embedded
  // database each statement is a round trip to its worker thread (docs/benchmarks.md "IRS data and
  // standing").
  const [found] = await rowsOf<StandingLookups>(
    db,
    standingLookupsQuery({
      ids: sql`${sql.param(ids)}::int[]`,
      eins: sql`${sql.param(eins)}::text[]`,
      releaseIds: sql`${sql.param(releaseIds)}::int[]`,
      gens: sql`${sql.param(gens)}::text[]`,
    }),
  );
  return standingsFrom(list, found, today);
}

/**
 * The standings of `list` from what standingLookupsQuery read for them. Pure.
 * @param today 'YYYY-MM-DD'
 * @returns by account id
 */
export function standingsFrom(
  list: StandingAccount[],
  found: StandingLookups,
  today: string,
): Map<number, AccountStanding> {
  const out = new Map<number, AccountStanding>();
  const latest = Object.fromEntries(
    found.releases.filter((r) => r.is_latest).map((r) => [r.dataset, { releasedOn: r.released_on }]),
  ) as Partial<Record<IrsDataset, { releasedOn: string }>>;
  const codes = (text: string) => text.split(',').filter(Boolean);
  const pub78ByEin = new Map(found.pub78.filter((p) => !p.central_of_gen).map((p) => [p.ein, codes(p.codes)]));
  const centralPub78ByGen = new Map(
    found.pub78.flatMap((p) => (p.central_of_gen ? [[p.central_of_gen, codes(p.codes)] as const] : [])),
  );
  const releasedOn = new Map(found.releases.map((r) => [r.id, r.released_on]));
  // A release whose day the IRS did not give is cited by its month ('YYYY-MM'), never a made-up day.
  const cited = new Map(
    found.releases.map((r) => [r.id, r.precision === 'month' ? r.released_on.slice(0, 7) : r.released_on]),
  );
  const citedLatest = (dataset: IrsDataset) => {
    const r = found.releases.find((x) => x.is_latest && x.dataset === dataset);
    return r ? (cited.get(r.id) ?? null) : null;
  };
  const recorded = found.filings.map((f) => ({ accountId: f.account_id, taxYear: f.tax_year }));
  const postcards = found.postcards.map((p) => ({
    ein: p.ein,
    period: p.period_end.slice(0, 7),
    terminated: p.terminated,
  }));
  const revocations = found.revocations.map((v) => ({
    ein: v.ein,
    revokedOn: v.revoked_on,
    postedOn: v.posted_on,
    reinstatedOn: v.reinstated_on,
  }));
  const epostcardReleasedOn = latest.epostcard?.releasedOn ?? null;
  const figuresOf = new Map(found.penalty_figures.map((f) => [f.dueYear, f]));
  for (const account of list) {
    const bmfReleasedOn = account.bmfReleaseId !== null ? (releasedOn.get(account.bmfReleaseId) ?? null) : null;
    const own = account.ein ? postcards.filter((p) => p.ein === account.ein) : [];
    // A 990-N shows in the 990-N data; a 990 or 990-EZ only in the BMF's TAX_PERIOD.
    const dates = [bmfReleasedOn, account.filingRequirement === '02' ? epostcardReleasedOn : null]
      .filter((d): d is string => d !== null)
      .sort();
    const facts = standingFactsOf(
      account,
      {
        recordedTaxYears: recorded.filter((r) => r.accountId === account.id).map((r) => r.taxYear),
        postcards: own,
        extensions: found.extensions
          .filter((x) => x.account_id === account.id)
          .map((x) => ({ periodEnd: x.period_end, extendedDue: x.extended_due })),
        revocations: account.ein ? revocations.filter((r) => r.ein === account.ein) : [],
      },
      dates.at(-1) ?? null,
    );
    const standing = computeStanding(facts, today);
    out.set(account.id, {
      standing,
      latePenalty: figuresOf.get(lateCostYear(standing) ?? 0) ?? null,
      sources: {
        bmfReleasedOn: account.bmfReleaseId !== null ? (cited.get(account.bmfReleaseId) ?? null) : null,
        epostcardReleasedOn: citedLatest('epostcard'),
        revocationsReleasedOn: citedLatest('revocations'),
        pub78ReleasedOn: citedLatest('pub78'),
      },
      pub78: latest.pub78
        ? pub78Listing(
            (account.ein && pub78ByEin.get(account.ein)) || null,
            (account.gen && centralPub78ByGen.get(account.gen)) || null,
          )
        : null,
    });
  }
  return out;
}

/** What the IRS data and staff show an organization filed, besides its BMF row. */
export interface SeenFilings {
  /** Tax years with a filing staff recorded (filings). */
  recordedTaxYears: number[];
  /** Its Form 990-N data rows: the period's end 'YYYY-MM' and whether it said it terminated. */
  postcards: { period: string; terminated: boolean }[];
  extensions: RecordedExtension[];
  revocations: { revokedOn: string; postedOn: string | null; reinstatedOn: string | null }[];
}

/**
 * The facts computeStanding reads for an account (docs/irs-standing.md): its BMF columns and what
 * was seen filed. Pure; the one place an account becomes StandingFacts.
 * @param dataAsOf the release date of the newest data the filings were read from, 'YYYY-MM-DD', or null
 */
export function standingFactsOf(account: StandingAccount, seen: SeenFilings, dataAsOf: string | null): StandingFacts {
  return {
    onBmf: account.irsStatus !== null,
    irsStatus: account.irsStatus,
    filingRequirement: account.filingRequirement,
    pfFilingRequirement: account.pfFilingRequirement,
    fiscalYearEndMonth: account.fiscalYearEndMonth,
    ruling: account.ruling,
    groupRuling: account.affiliation === '9',
    bmfTaxPeriod: account.taxPeriod,
    filedTaxYears: seen.recordedTaxYears,
    filedPeriods: seen.postcards.map((p) => p.period),
    terminatedPeriod: seen.postcards
      .filter((p) => p.terminated)
      .reduce<string | null>((a, p) => (a && a > p.period ? a : p.period), null),
    extensions: seen.extensions,
    revocations: seen.revocations.map((r) => ({
      revokedOn: r.revokedOn,
      postedOn: r.postedOn,
      reinstatedOn: r.reinstatedOn,
    })),
    dataAsOf,
  };
}

/** {@link standingOfAccounts} for one account. */
export async function standingOfAccount(db: DbOrTx, account: StandingAccount, today: string): Promise<AccountStanding> {
  return must(
    (await standingOfAccounts(db, [account], today)).get(account.id),
    `the standing of account ${account.id}`,
  );
}

/** The columns of accounts a {@link StandingAccount} needs, for a select. */
export const standingColumns = {
  id: accounts.id,
  ein: accounts.ein,
  gen: accounts.gen,
  affiliation: accounts.affiliation,
  irsStatus: accounts.irsStatus,
  filingRequirement: accounts.filingRequirement,
  pfFilingRequirement: accounts.pfFilingRequirement,
  fiscalYearEndMonth: accounts.fiscalYearEndMonth,
  ruling: accounts.ruling,
  taxPeriod: accounts.taxPeriod,
  bmfReleaseId: accounts.bmfReleaseId,
};

/**
 * The standing facts as the pages show them (IrsFactsView): the account's IRS columns with their
 * meanings, and the computed standing with its sources. No personal names.
 */
export function irsFactsView(
  account: StandingAccount,
  { standing: s, sources, pub78, latePenalty }: AccountStanding,
): IrsFactsView {
  return {
    status_code: account.irsStatus ?? '',
    status_meaning: irsStatusMeaning(account.irsStatus),
    fiscal_year_end_month: account.fiscalYearEndMonth,
    filing_requirement: account.filingRequirement
      ? (FILING_REQUIREMENTS[account.filingRequirement]?.label ?? `Code ${account.filingRequirement}`)
      : '',
    return_owed: returnOwedText(s.obligation),
    late_cost: lateCostText(s.obligation, lateCostYear(s), latePenalty),
    latest_tax_year_filed: s.latestTaxYearFiled,
    latest_period_filed: s.latestPeriodFiled,
    missed_tax_years: s.missedTaxYears,
    unless_extended_tax_years: s.unlessExtendedTaxYears,
    returns: s.returns.map((r) => ({
      period_end: r.periodEnd,
      due: r.due,
      extended_due: r.extendedDue,
      extension: r.extension,
      status: r.status,
    })),
    awaiting_data_tax_years: s.awaitingDataTaxYears,
    next_due: s.nextDue ? { tax_year: s.nextDue.taxYear, due: s.nextDue.due, days_left: s.nextDue.daysLeft } : null,
    revocation_date: s.revocationDate,
    revocation_date_if_extended: s.revocationDateIfExtended,
    days_to_revocation: s.daysToRevocation,
    revoked_on: s.revocation?.revokedOn ?? null,
    reinstated_on: s.revocation?.reinstatedOn ?? null,
    pub78,
    sources: {
      bmf: sources.bmfReleasedOn,
      epostcard: sources.epostcardReleasedOn,
      revocations: sources.revocationsReleasedOn,
      pub78: sources.pub78ReleasedOn,
    },
  };
}

/** The standing with its facts, as StandingView. */
export function standingView(account: StandingAccount, standing: AccountStanding): StandingView {
  return { state: standing.standing.state, label: standing.standing.label, irs: irsFactsView(account, standing) };
}
