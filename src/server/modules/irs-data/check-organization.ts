import { eq, sql, type SQL } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { deductibilityText, nextSteps, subsectionLabel } from '../../../shared/rules/standing.ts';
import { IRS_LOOKUP_PER_PAGE } from '../../../shared/schemas/irs-check.ts';
import { preparedRowsOf, preparedStatement, rowsOf } from '../../db/rows-of.ts';
import { irsOrganizations, irsRevocations } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-like.ts';
import { notFound } from '../../errors.ts';
import { organizationName } from '../subordinates/import-bmf.ts';
import {
  standingLookupsQuery,
  standingsFrom,
  standingView,
  type StandingAccount,
  type StandingLookups,
} from './get-standing.ts';
import type { IrsCheck, IrsLookupPage } from '../../../shared/schemas/irs-check.ts';
import type { DbOrTx } from '../../db/client.ts';

/** Why an organization may not be found (docs/irs-standing.md "Instant check"). */
export const NOT_FOUND_REASONS =
  'The IRS data lists an organization once the IRS has recognized its exemption, so a new organization may not be in it yet. ' +
  'Churches need not apply for recognition, and many are not listed. ' +
  'A subordinate of a group exemption is often listed only under its central organization: search for the central organization, or for the name your group uses. ' +
  'An EIN that is not in the data at all may belong to an organization that was never exempt.';

/**
 * How a name lookup chooses its plan (docs/irs-standing.md "Name lookups at national size"): it
 * first counts the matches among the first `probe` names in name order, which tells roughly how
 * common the words are; the walk in name order is then bounded to `spare` times the names that
 * density says the page needs, and taken only up to `max` names. A setting of the code, not of an
 * installation: tests pass small ones to findOrganizations to try every plan on small data.
 */
export const NAME_WALK = { probe: 2_000, spare: 2, max: 400_000 };

/** The columns of irs_organizations the instant check reads: one list for its type and its statement. */
const CHECKED_COLUMNS = [
  'ein',
  'name',
  'sortName',
  'city',
  'state',
  'gen',
  'subsection',
  'affiliation',
  'ruling',
  'deductibility',
  'irsStatus',
  'taxPeriod',
  'filingRequirement',
  'pfFilingRequirement',
  'fiscalYearEndMonth',
  'releaseId',
] as const satisfies readonly (keyof typeof irsOrganizations.$inferSelect)[];
type CheckedOrganization = Pick<typeof irsOrganizations.$inferSelect, (typeof CHECKED_COLUMNS)[number]>;

/** The checked columns of the CTE `o` as one JSON object keyed as CheckedOrganization is. */
const checkedObject = sql`json_build_object(${sql.join(
  CHECKED_COLUMNS.map((key) => sql`${sql.raw(`'${key}'`)}, ${sql.identifier(irsOrganizations[key].name)}`),
  sql`, `,
)})`;

/** The columns a name lookup reads of each organization on its page. */
interface LookupRow {
  ein: string;
  name: string;
  sort_name: string;
  affiliation: string | null;
  city: string;
  state: string;
}

/** One organization of irs_organizations as the lookup lists it. */
function lookupRow(o: {
  ein: string;
  name: string;
  sortName: string;
  affiliation: string | null;
  city: string;
  state: string;
}): IrsLookupPage['data'][number] {
  const name = organizationName(o);
  return {
    ein: o.ein,
    ein_formatted: formatEin(o.ein),
    name,
    other_name: name === o.name ? o.sortName : o.name,
    city: o.city,
    state: o.state,
    revoked_only: false,
  };
}

/** Where a name lookup's page lies: after or before the organization of that EIN (keyset pages). */
export type LookupCursor = { after?: string; before?: string };

/**
 * Finds organizations in the IRS data loaded (irs_organizations, and the Automatic Revocation List
 * for EINs revoked and gone from the BMF) by EIN or by the words of a name (docs/irs-standing.md
 * "Instant check"). An EIN (9 digits, dash or not) is an exact lookup; words match the name, the
 * other name and the city in any order, 10 a page in name order: from a bounded walk of the
 * name-ordered index when the words are common enough to fill the page there, else through the
 * pg_trgm index. Pages are keyset pages (docs/irs-standing.md "Keyset pages"): a
 * page starts after, or ends before, the organization of the cursor's EIN in (name, EIN) order, so
 * a deep page reads only its own rows. Totals are not counted.
 * @param query the visitor's text, already trimmed (irsLookupQuery)
 * @param cursor `after` or `before`: 9 digits, as a previous answer's `next` or `previous` gave
 *   them; a cursor whose organization left the data (a new release) gives the first page
 * @param walkLimits how the plan is chosen (NAME_WALK)
 * @returns the page in name order, `next` / `previous` the cursors of the pages beside it (null when none)
 * Reads only. No personal names: the in-care-of name is never kept.
 */
export async function findOrganizations(
  db: DbOrTx,
  query: string,
  cursor: LookupCursor = {},
  walkLimits: { probe: number; spare: number; max: number } = NAME_WALK,
): Promise<IrsLookupPage> {
  const digits = query.replace(/[\s-]/g, '');
  if (/^\d{9}$/.test(digits)) {
    const [org] = await db.select().from(irsOrganizations).where(eq(irsOrganizations.ein, digits));
    const rows = org
      ? [lookupRow(org)]
      : (
          await db
            .select({ ein: irsRevocations.ein, name: irsRevocations.legalName })
            .from(irsRevocations)
            .where(eq(irsRevocations.ein, digits))
            .limit(1)
        ).map((r) => ({
          ein: r.ein,
          ein_formatted: formatEin(r.ein),
          name: r.name,
          other_name: '',
          city: '',
          state: '',
          revoked_only: true,
        }));
    return { data: rows, next: null, previous: null, not_found: rows.length ? null : NOT_FOUND_REASONS };
  }
  const words = [...new Set(query.toLowerCase().split(' ').filter(Boolean))];
  const matches = sql.join(
    words.map((w) => sql`search_text LIKE ${`%${escapeLike(w)}%`}`),
    sql` AND `,
  );
  // The cursor's place in name order; an organization gone from the data (a new release) gives the first page.
  const cursorEin = cursor.after ?? cursor.before;
  const [at] = cursorEin
    ? await db
        .select({ name: irsOrganizations.name, ein: irsOrganizations.ein })
        .from(irsOrganizations)
        .where(eq(irsOrganizations.ein, cursorEin))
    : [];
  const backward = at !== undefined && cursor.before !== undefined;
  // Backward pages walk the same index in reverse (a btree scans both ways) and are turned round below.
  const order = backward ? sql`name DESC, ein DESC` : sql`name, ein`;
  const from = at
    ? backward
      ? sql`(name, ein) < (${at.name}, ${at.ein})`
      : sql`(name, ein) > (${at.name}, ${at.ein})`
    : sql`true`;
  // The names a page needs: its own, and one more to tell whether another follows.
  const wanted = IRS_LOOKUP_PER_PAGE + 1;
  // Two plans, chosen by how common the words turn out to be (docs/irs-standing.md "Name lookups
  // at national size"). A common word fills its page soon after the cursor in name order: a walk of
  // irs_organizations_name_order (migration 0041, an index-only scan that reads search_text from the
  // index) answers it without sorting. A rare one would make that walk read most of the table: the
  // pg_trgm index finds its few rows, which are then sorted. The walk's answer is exact whenever it
  // holds the page and one more name (it is in the page's own order); otherwise the page is read
  // through the pg_trgm index.
  const walkOf = (names: number) =>
    sql`(SELECT ein, name, search_text FROM irs_organizations WHERE ${from} ORDER BY ${order} LIMIT ${names}) walk`;
  // The page's EINs first, then the rest of those rows only.
  const pageSql = (source: SQL) =>
    sql`SELECT o.ein, o.name, o.sort_name, o.affiliation, o.city, o.state
      FROM (SELECT ein, name FROM ${source} WHERE ${matches} AND ${from}
        ORDER BY ${order} LIMIT ${wanted}) page
      JOIN irs_organizations o ON o.ein = page.ein`;
  const pageOf = async (source: SQL) => rowsOf<LookupRow>(db, sql`${pageSql(source)} ORDER BY ${order}`);
  // The probe: the page as the first names give it, and how many of them match. A page of a
  // common word is answered here, in one statement.
  // Prepared (one text per number of words, cursor and direction): its plan is the same walk of
  // the name order whatever the words, and parsing and planning it cost more than running it.
  const probed = await preparedRowsOf<Partial<LookupRow> & { seen: number }>(
    db,
    'irs_name_probe',
    sql`SELECT s.seen, p.* FROM (SELECT count(*)::int AS seen FROM ${walkOf(walkLimits.probe)} WHERE ${matches}) s
      LEFT JOIN LATERAL (${pageSql(walkOf(walkLimits.probe))}) p ON true
      ORDER BY ${backward ? sql`p.name DESC, p.ein DESC` : sql`p.name, p.ein`}`,
  );
  const seen = probed[0].seen;
  const fromProbe = probed.filter((r): r is LookupRow & { seen: number } => r.ein != null);
  // Names the walk reads to find `wanted` matches at the density the probe saw, with room to spare.
  const walkNames = seen ? Math.ceil((wanted * walkLimits.probe * walkLimits.spare) / seen) : Infinity;
  const full = (rows: LookupRow[]) => rows.length === wanted;
  const walked =
    full(fromProbe) || walkNames > walkLimits.max || walkNames <= walkLimits.probe
      ? fromProbe
      : await pageOf(walkOf(walkNames));
  const found = full(walked) ? walked : await pageOf(sql`irs_organizations`);
  // `found` runs away from the cursor; the page shows the 10 nearest to it, in name order.
  const shown = found.slice(0, IRS_LOOKUP_PER_PAGE);
  if (backward) shown.reverse();
  const data = shown.map((o) => lookupRow({ ...o, sortName: o.sort_name }));
  const beyond = found.length > IRS_LOOKUP_PER_PAGE;
  const first = data.at(0)?.ein ?? null;
  const last = data.at(-1)?.ein ?? null;
  return {
    data,
    // Going back, the cursor's own organization follows the page; going forward, one before it.
    next: backward || beyond ? last : null,
    previous: backward ? (beyond ? first : null) : at ? first : null,
    not_found: data.length || at ? null : NOT_FOUND_REASONS,
  };
}

const ein = sql.placeholder('ein');
/**
 * The check's one statement: the organization's BMF row, its revocation list entry when it has
 * none, and everything its standing reads, keyed by that row (the round trips were a large part of
 * a check's cost). Built once and prepared: building, parsing and planning it cost more than
 * running it (docs/benchmarks.md "IRS national files on PostgreSQL").
 */
const checkStatement = preparedStatement<
  StandingLookups & { org: CheckedOrganization | null; revoked_name: string | null }
>(
  'irs_check',
  standingLookupsQuery(
    {
      // id 0 holds no filing or extension of ours.
      ids: sql`ARRAY[]::int[]`,
      eins: sql`ARRAY[${ein}]::text[]`,
      releaseIds: sql`ARRAY(SELECT release_id FROM o)`,
      gens: sql`ARRAY(SELECT gen FROM o WHERE gen IS NOT NULL)`,
    },
    {
      with: sql`o AS (SELECT * FROM irs_organizations WHERE ein = ${ein})`,
      columns: sql`(SELECT ${checkedObject} FROM o) AS org,
        (SELECT legal_name FROM irs_revocations WHERE ein = ${ein} AND NOT EXISTS (SELECT 1 FROM o) LIMIT 1) AS revoked_name`,
    },
  ),
);

/**
 * The instant standing of any organization the IRS publishes (docs/irs-standing.md "Instant check"):
 * its BMF facts (irs_organizations) or, revoked and gone from the BMF, its Automatic Revocation List
 * entry, computed by the standing engine exactly as for an account (standingOfAccount), with the
 * return it owes, missed years, revocation date or list entry, deductibility, what to do next, and
 * each data set cited with its release.
 * @param ein 9 digits, dash or not
 * @param today 'YYYY-MM-DD'
 * @throws HttpError 404 when the EIN is in none of the IRS data loaded
 * Reads only.
 */
export async function checkOrganization(db: DbOrTx, ein: string, today: string): Promise<IrsCheck> {
  const digits = ein.replace(/-/g, '');
  if (!/^\d{9}$/.test(digits)) throw notFound('The organization');
  const [found] = await checkStatement.rows(db, { ein: digits });
  const { org, revoked_name } = found;
  if (!org && revoked_name === null) throw notFound('The organization');
  // The IRS facts as an account would hold them.
  const account: StandingAccount = {
    id: 0,
    ein: digits,
    gen: org?.gen ?? null,
    affiliation: org?.affiliation ?? null,
    irsStatus: org?.irsStatus ?? null,
    filingRequirement: org?.filingRequirement ?? null,
    pfFilingRequirement: org?.pfFilingRequirement ?? null,
    fiscalYearEndMonth: org?.fiscalYearEndMonth ?? null,
    ruling: org?.ruling ?? null,
    taxPeriod: org?.taxPeriod ?? null,
    bmfReleaseId: org?.releaseId ?? null,
  };
  const standing = must(standingsFrom([account], found, today).get(0), 'the standing of the organization');
  const view = standingView(account, standing);
  const name = org ? organizationName(org) : (revoked_name ?? '');
  const cited = [
    ['EO Business Master File extract', view.irs.sources.bmf],
    ['Form 990-N (e-Postcard) data', view.irs.sources.epostcard],
    ['Automatic Revocation List', view.irs.sources.revocations],
    ['Publication 78 data', view.irs.sources.pub78],
  ] as const;
  return {
    ein: digits,
    ein_formatted: formatEin(digits),
    name,
    other_name: org && name !== org.name ? org.name : '',
    city: org?.city ?? '',
    state: org?.state ?? '',
    gen: org?.gen ?? '',
    subsection: subsectionLabel(org?.subsection ?? null),
    ruling_year: org?.ruling && org.ruling !== '000000' ? org.ruling.slice(0, 4) : '',
    ruling_is_group: org?.affiliation === '9',
    deductible: deductibilityText(org?.deductibility ?? null, standing.standing.state),
    standing: view,
    next_steps: nextSteps(standing.standing, standing.latePenalty),
    sources: cited.flatMap(([dataset, released]) => (released ? [{ dataset, released_on: released }] : [])),
  };
}
