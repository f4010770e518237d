import { sql } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { addDays } from '../../../shared/rules/compliance-calendar.ts';
import { WORK_ITEM_KINDS, type WorkItemKind } from '../../../shared/schemas/work-queue.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { workItems } from '../../db/schema.ts';
import { standingOfAccounts, type StandingAccount } from '../irs-data/get-standing.ts';
import { isMember, isPayingMember, ofGens, providerGens } from './membership.ts';
import type { Db, DbOrTx } from '../../db/client.ts';

/** What one build added, by kind. */
export interface WorkQueueBuildResult {
  added: number;
  byKind: Record<WorkItemKind, number>;
}

type NewItem = typeof workItems.$inferInsert & { kind: WorkItemKind };

/** Standing states that mean a due date passed with no return seen (docs/irs-standing.md "States"). */
const PAST_DUE_STATES = new Set(['missed_one', 'missed_two', 'past_revocation_date']);
/** A reinstatement older than this is history, not news. */
const REINSTATED_WITHIN_DAYS = 365;
/** Members whose standing is computed at once. */
const STANDING_CHUNK = 500;

async function insertItems(tx: DbOrTx, items: NewItem[], byKind: Record<WorkItemKind, number>) {
  for (let i = 0; i < items.length; i += 1000) {
    const added = await tx
      .insert(workItems)
      .values(items.slice(i, i + 1000))
      .onConflictDoNothing({ target: workItems.key })
      .returning({ kind: workItems.kind });
    for (const a of added) byKind[a.kind] += 1;
  }
}

/** Subordinates of the provider's GENs, with where each was last seen and, once it left, the first release without it. */
async function genAccounts(tx: DbOrTx, gens: string[]) {
  return rowsOf<{
    id: number;
    ein: string | null;
    gen: string;
    has_users: boolean;
    bmf_release_id: number | null;
    last_seen_on: string | null;
    file_name: string | null;
    gone_id: number | null;
    gone_on: string | null;
  }>(
    tx,
    sql`
    WITH seen AS (
      SELECT DISTINCT a.gen, a.bmf_release_id AS release_id FROM accounts a WHERE ${ofGens(gens)} AND a.bmf_release_id IS NOT NULL
    ), gen_releases AS (
      SELECT s.gen, r.id, r.file_name, r.released_on FROM seen s JOIN irs_releases r ON r.id = s.release_id
    )
    SELECT a.id, a.ein, a.gen, ${isMember} AS has_users, a.bmf_release_id,
      r0.released_on::text AS last_seen_on, r0.file_name, gone.id AS gone_id, gone.released_on::text AS gone_on
    FROM accounts a
    LEFT JOIN irs_releases r0 ON r0.id = a.bmf_release_id
    LEFT JOIN LATERAL (
      -- A newer release of the same file that carries other subordinates of this GEN but not this
      -- one: it left. (A release loaded with --gen for another GEN carries none of them: not a sign.)
      SELECT g.id, g.released_on FROM gen_releases g
      WHERE g.gen = a.gen AND g.file_name = r0.file_name AND (g.released_on, g.id) > (r0.released_on, r0.id)
      ORDER BY g.released_on, g.id LIMIT 1
    ) gone ON true
    WHERE ${ofGens(gens)}`,
  );
}

/**
 * Builds the staff work queue after an IRS data refresh (docs/work-queue.md "Kinds"): finds, from
 * the data as loaded, every
 * - `left_roster`: subordinate of a provider GEN missing from a newer BMF release of the file it
 *   was last in (one item per account and that release);
 * - `past_due`: member whose standing (standingOfAccounts) shows a missed due date (per account
 *   and latest missed tax year);
 * - `fiscal_year_mismatch`: member in the BMF whose ACCT_PD differs from the fiscal year end it
 *   gave here (`accounts.data.account___fiscal_year_end`), per account and pair of months;
 * - `name_changed`, `address_changed`: a BMF release changed the name or mailing address of a
 *   member or subordinate (irs_bmf_changes, recorded by importBmf), per account and release;
 * - `paying_not_on_roster`: paying member not on a provider GEN's roster, per account;
 * - `roster_no_membership`: subordinate on a provider GEN's roster with no user, per account;
 * - `revoked`: member or subordinate on the Automatic Revocation List, not reinstated, per EIN and
 *   revocation date, with what names its way back (its BMF filing codes and earlier revocations); `reinstated`: reinstated in the last 365 days, per EIN and dates.
 * Each item has a unique `key`, inserted with ON CONFLICT (key) DO NOTHING: building again finds
 * the same things and adds nothing, and an item staff resolved does not come back.
 * @param today 'YYYY-MM-DD' (the standing's and the reinstatements' reference day)
 * @returns the items added, by kind
 * Writes: work_items (one transaction). Reads groups, accounts, users, invoices, irs_releases,
 * irs_bmf_changes, irs_revocations, irs_epostcards, filings.
 */
export async function buildWorkQueue(db: Db, today: string): Promise<WorkQueueBuildResult> {
  const byKind = Object.fromEntries(WORK_ITEM_KINDS.map((k) => [k, 0])) as Record<WorkItemKind, number>;
  await db.transaction(async (tx) => {
    const gens = await providerGens(tx);
    const subordinates = await genAccounts(tx, gens);
    const items: NewItem[] = [];
    const onRoster = new Set<number>();
    const left = new Map<number, string>();
    for (const s of subordinates) {
      if (s.gone_id !== null) {
        left.set(s.id, s.gen);
        items.push({
          key: `left_roster:${s.id}:${s.gone_id}`,
          kind: 'left_roster',
          accountId: s.id,
          ein: s.ein,
          releaseId: s.gone_id,
          details: {
            gen: s.gen,
            file: s.file_name,
            last_seen_released_on: s.last_seen_on,
            missing_from_released_on: s.gone_on,
          },
        });
        continue;
      }
      onRoster.add(s.id);
      if (!s.has_users) {
        items.push({
          key: `roster_no_membership:${s.id}`,
          kind: 'roster_no_membership',
          accountId: s.id,
          ein: s.ein,
          releaseId: s.bmf_release_id,
          details: { gen: s.gen },
        });
      }
    }

    const paying = await rowsOf<{
      id: number;
      ein: string | null;
      gen: string | null;
      bmf_release_id: number | null;
      irs_status: string | null;
    }>(
      tx,
      sql`
      SELECT a.id, a.ein, a.gen, a.bmf_release_id, a.irs_status FROM accounts a WHERE ${isPayingMember} ORDER BY a.id`,
    );
    for (const p of paying) {
      if (onRoster.has(p.id)) continue;
      const reason = !p.ein
        ? 'no_ein'
        : left.has(p.id)
          ? 'left'
          : p.bmf_release_id === null || p.irs_status === null
            ? 'not_in_bmf'
            : p.gen
              ? 'other_gen'
              : 'independent';
      items.push({
        key: `paying_not_on_roster:${p.id}`,
        kind: 'paying_not_on_roster',
        accountId: p.id,
        ein: p.ein,
        details: { reason, gen: p.gen },
      });
    }

    // Members' standing, a chunk at a time (standingOfAccounts reads five queries per call).
    let after = 0;
    for (;;) {
      const members = await rowsOf<StandingAccount & { own_fye: string | null }>(
        tx,
        sql`
        SELECT a.id, a.ein, a.irs_status AS "irsStatus", a.filing_requirement AS "filingRequirement",
          a.pf_filing_requirement AS "pfFilingRequirement", a.gen, a.affiliation,
          a.fiscal_year_end_month AS "fiscalYearEndMonth", a.ruling, a.tax_period AS "taxPeriod", a.bmf_release_id AS "bmfReleaseId",
          a.data->>'account___fiscal_year_end' AS own_fye
        FROM accounts a WHERE ${isMember} AND a.id > ${after} ORDER BY a.id LIMIT ${STANDING_CHUNK}`,
      );
      if (!members.length) break;
      after = must(members.at(-1), 'the last member read').id;
      const standings = await standingOfAccounts(tx, members, today);
      for (const m of members) {
        const { standing: s, sources } = must(standings.get(m.id), `the standing of account ${m.id}`);
        if (PAST_DUE_STATES.has(s.state)) {
          const lastMissed = s.missedTaxYears.at(-1);
          items.push({
            key: `past_due:${m.id}:${lastMissed ?? s.revocationDate}`,
            kind: 'past_due',
            accountId: m.id,
            ein: m.ein,
            releaseId: m.bmfReleaseId,
            details: {
              state: s.state,
              label: s.label,
              missed_tax_years: s.missedTaxYears,
              revocation_date: s.revocationDate,
              latest_tax_year_filed: s.latestTaxYearFiled,
              bmf_released_on: sources.bmfReleasedOn,
              epostcard_released_on: sources.epostcardReleasedOn,
            },
          });
        }
        const own = Number(m.own_fye);
        if (
          m.irsStatus !== null &&
          m.bmfReleaseId !== null &&
          m.fiscalYearEndMonth !== null &&
          own >= 1 &&
          own <= 12 &&
          own !== m.fiscalYearEndMonth
        ) {
          items.push({
            key: `fiscal_year_mismatch:${m.id}:${m.fiscalYearEndMonth}:${own}`,
            kind: 'fiscal_year_mismatch',
            accountId: m.id,
            ein: m.ein,
            releaseId: m.bmfReleaseId,
            details: { irs_month: m.fiscalYearEndMonth, own_month: own },
          });
        }
      }
    }

    const changes = await rowsOf<{
      account_id: number;
      ein: string | null;
      release_id: number;
      field: 'name' | 'address';
      before: Record<string, string>;
      after: Record<string, string>;
      released_on: string;
    }>(
      tx,
      sql`
      SELECT c.account_id, a.ein, c.release_id, c.field, c.before, c.after, r.released_on::text AS released_on
      FROM irs_bmf_changes c JOIN accounts a ON a.id = c.account_id JOIN irs_releases r ON r.id = c.release_id
      WHERE ${ofGens(gens)} OR ${isMember}
      ORDER BY c.id`,
    );
    for (const c of changes) {
      const kind = c.field === 'name' ? 'name_changed' : 'address_changed';
      items.push({
        key: `${kind}:${c.account_id}:${c.release_id}`,
        kind,
        accountId: c.account_id,
        ein: c.ein,
        releaseId: c.release_id,
        details: { before: c.before, after: c.after, released_on: c.released_on },
      });
    }

    const revocations = await rowsOf<{
      account_id: number;
      ein: string;
      legal_name: string;
      revoked_on: string;
      posted_on: string | null;
      reinstated_on: string | null;
      release_id: number;
      filing_requirement: string | null;
      pf_filing_requirement: string | null;
    }>(
      tx,
      sql`
      SELECT a.id AS account_id, v.ein, v.legal_name, v.revoked_on::text AS revoked_on, v.posted_on::text AS posted_on,
        v.reinstated_on::text AS reinstated_on, v.release_id, a.filing_requirement, a.pf_filing_requirement
      FROM irs_revocations v JOIN accounts a ON a.ein = v.ein
      WHERE ${ofGens(gens)} OR ${isMember}
      ORDER BY v.ein, v.revoked_on`,
    );
    const reinstatedSince = addDays(today, -REINSTATED_WITHIN_DAYS);
    // Rows come by EIN and revocation date: the entries of an EIN before this one are its earlier revocations.
    const earlier = new Map<string, number>();
    for (const v of revocations) {
      const base = { accountId: v.account_id, ein: v.ein, releaseId: v.release_id };
      const earlierRevocations = earlier.get(`${v.account_id}:${v.ein}`) ?? 0;
      earlier.set(`${v.account_id}:${v.ein}`, earlierRevocations + 1);
      if (v.reinstated_on === null || v.reinstated_on > today) {
        items.push({
          ...base,
          key: `revoked:${v.ein}:${v.revoked_on}`,
          kind: 'revoked',
          // What names the way back in the item (workItemSummary, reinstatementWorkText).
          details: {
            revoked_on: v.revoked_on,
            posted_on: v.posted_on,
            legal_name: v.legal_name,
            filing_requirement: v.filing_requirement,
            pf_filing_requirement: v.pf_filing_requirement,
            earlier_revocations: earlierRevocations,
          },
        });
      } else if (v.reinstated_on >= reinstatedSince) {
        items.push({
          ...base,
          key: `reinstated:${v.ein}:${v.revoked_on}:${v.reinstated_on}`,
          kind: 'reinstated',
          details: { revoked_on: v.revoked_on, reinstated_on: v.reinstated_on, legal_name: v.legal_name },
        });
      }
    }
    await insertItems(tx, items, byKind);
  });
  return { added: Object.values(byKind).reduce((a, b) => a + b, 0), byKind };
}
