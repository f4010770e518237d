import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  standingFactsOf,
  type SeenFilings,
  type StandingAccount,
} from '../../src/server/modules/irs-data/get-standing.ts';
import { bmfToAccount, type BmfRecord } from '../../src/server/modules/subordinates/import-bmf.ts';
import { deadlinesFor } from '../../src/shared/rules/compliance-calendar.ts';
import {
  computeStanding,
  deductibilityText,
  irsStatusMeaning,
  lateCostText,
  releaseDateText,
  returnOwedText,
  type Standing,
} from '../../src/shared/rules/standing.ts';

/**
 * The standing engine over real rows of the IRS's April 2026 EO BMF extract (../shared/data/irs-eo-bmf,
 * docs/irs-standing.md): one row of every filer type the IRS publishes, each case with the rule it
 * checks and its source. A row becomes an account exactly as a BMF load makes it (bmfToAccount), and
 * its facts exactly as the pages read them (standingFactsOf). The release is recorded by its month
 * (the IRS gave no day), so the data is taken as of 1 April 2026; today is 28 November 2026.
 */

const DATA = path.resolve('../shared/data/irs-eo-bmf');
const TODAY = '2026-11-28';
const RELEASE = '2026-04-01';

const NO_FILINGS: SeenFilings = { recordedTaxYears: [], postcards: [], extensions: [], revocations: [] };
const rows = new Map<string, BmfRecord & { file: string }>();

interface Case {
  ein: string;
  /** The rule checked, and where it comes from. */
  rule: string;
  seen?: Partial<SeenFilings>;
  expect: (s: Standing) => void;
}

/** Reads the BMF rows of the cases' EINs from the 26 real files (a line starts with its EIN). */
function loadRows(eins: string[]) {
  const wanted = new Set(eins);
  for (const file of readdirSync(DATA).filter((f) => f.endsWith('.csv'))) {
    const text = readFileSync(path.join(DATA, file), 'latin1');
    const header = text.slice(0, text.indexOf('\r\n'));
    const lines = text.split('\r\n').filter((l) => wanted.has(l.slice(0, 9)));
    if (!lines.length) continue;
    const parsed = parse([header, ...lines].join('\r\n'), { columns: true }) as BmfRecord[];
    for (const r of parsed) rows.set(r.EIN, { ...r, file });
  }
}

function accountOf(ein: string): StandingAccount {
  const row = rows.get(ein);
  if (!row) throw new Error(`EIN ${ein} is not in ${DATA}`);
  const a = bmfToAccount(row, new Map());
  if (!a) throw new Error(`EIN ${ein} did not load`);
  return { id: 1, bmfReleaseId: 1, ...a };
}

function standingOf(ein: string, seen: Partial<SeenFilings> = {}, today = TODAY): Standing {
  return computeStanding(standingFactsOf(accountOf(ein), { ...NO_FILINGS, ...seen }, RELEASE), today);
}

const CASES: Case[] = [
  {
    ein: '841973353',
    rule: 'TAX_PERIOD keeps its month: a December 2024 return with a June year end (eo_ok.csv); FILING_REQ_CD 01 owes a Form 990 or 990-EZ, and its June 2025 return, due 17 Nov 2025, could be extended to 15 May 2026, after the April release: missed unless extended (IRS EO BMF data dictionary; Instructions for Form 8868)',
    expect: (s) => {
      expect(s.latestPeriodFiled).toBe('2024-12');
      expect(returnOwedText(s.obligation)).toBe('Form 990-EZ or 990 every year');
      expect(s.state).toBe('unless_extended');
      expect(s.returns).toEqual([
        {
          periodEnd: '2025-06',
          taxYear: 2025,
          due: '2025-11-17',
          extendedDue: '2026-05-15',
          extension: 'possible',
          status: 'missed_unless_extended',
        },
        {
          periodEnd: '2026-06',
          taxYear: 2026,
          due: '2026-11-16',
          extendedDue: '2027-05-17',
          extension: 'possible',
          status: 'awaiting_data',
        },
      ]);
      expect(s.revocationDate).toBe('2027-11-15');
      expect(s.revocationDateIfExtended).toBe('2028-05-15');
    },
  },
  {
    ein: '710724563',
    rule: 'A short-period return counts: TAX_PERIOD 202506 with ACCT_PD 12 (eo_ar.csv) is followed by the period ending December 2025, so the third return is December 2027, due 15 May 2028 (IRC §6033(j); TAX_PERIOD and ACCT_PD in the EO BMF data dictionary)',
    expect: (s) => {
      expect(s.latestPeriodFiled).toBe('2025-06');
      expect(s.state).toBe('good');
      expect(s.returns.map((r) => [r.periodEnd, r.status])).toEqual([['2025-12', 'awaiting_data']]);
      expect(s.revocationDate).toBe('2028-05-15');
      expect(s.revocationDateIfExtended).toBeNull();
      expect(lateCostText(s.obligation, 2026)).toBe('No penalty for a late Form 990-N, and a late one still counts.');
    },
  },
  {
    ein: '660243651',
    rule: 'A short period before an accounting-period change (TAX_PERIOD 202306, ACCT_PD 12, FILING_REQ_CD 01, eo4.csv): the returns for December 2023 and 2024 are missed even with an extension, and the third (December 2025) was due 15 May 2026, 16 Nov 2026 if extended: past its revocation date (IRC §6033(j); Rev. Proc. 2014-11 §3)',
    expect: (s) => {
      expect(s.returns.map((r) => [r.periodEnd, r.status])).toEqual([
        ['2023-12', 'missed'],
        ['2024-12', 'missed'],
        ['2025-12', 'awaiting_data'],
      ]);
      expect(s.state).toBe('past_revocation_date');
      expect(s.revocationDate).toBe('2026-05-15');
      expect(s.revocationDateIfExtended).toBe('2026-11-16');
      expect(deductibilityText('1', s.state)).toBe('Not assured: past its revocation date');
    },
  },
  {
    ein: '061497455',
    rule: 'PF_FILING_REQ_CD 1 is a Form 990-PF every year, though FILING_REQ_CD is 00 (eo4.csv): never "no return required"; a late one is penalised per day (EO BMF data dictionary; IRC §6652(c)(1)(A))',
    expect: (s) => {
      expect(s.obligation).toEqual({ kind: 'return', form: '990-PF', extension: true, latePenalty: true });
      expect(s.state).toBe('good');
      expect(s.returns.map((r) => [r.periodEnd, r.status])).toEqual([['2025-12', 'awaiting_data']]);
      expect(lateCostText(s.obligation, 2026)).toContain('Instructions for Form 990-PF for tax year 2025');
    },
  },
  {
    ein: '932477959',
    rule: 'A GEN 5271 subordinate with FILING_REQ_CD 01 and no return on file (eo_la.csv): it owes a Form 990 or 990-EZ, not a 990-N, and a late one is penalised (EO BMF data dictionary; IRC §6652(c)(1)(A))',
    expect: (s) => {
      expect(s.state).toBe('no_return_seen');
      expect(returnOwedText(s.obligation)).toBe('Form 990-EZ or 990 every year');
      const cost = lateCostText(s.obligation, 2026);
      expect(cost).toContain('penalised for each day');
      expect(cost).not.toContain('No penalty');
      expect(s.returns.map((r) => [r.periodEnd, r.due, r.status])).toEqual([
        ['2025-12', '2026-05-15', 'awaiting_data'],
      ]);
    },
  },
  {
    ein: '333808893',
    rule: 'A June-year-end subordinate with no return (FILING_REQ_CD 01, eo_ok.csv): the return for June 2026, due 16 Nov 2026, after the release, is listed, not skipped; the next due date is 15 Nov 2027',
    expect: (s) => {
      expect(s.returns.map((r) => [r.periodEnd, r.due, r.status])).toEqual([
        ['2026-06', '2026-11-16', 'awaiting_data'],
      ]);
      expect(s.nextDue).toEqual({ taxYear: 2027, due: '2027-11-15', daysLeft: 352 });
    },
  },
  {
    ein: '393095719',
    rule: 'The same for a 990-N filer of GEN 5271 with a June year end and no return (eo_ak.csv)',
    expect: (s) => {
      expect(s.state).toBe('no_return_seen');
      expect(s.returns.map((r) => r.due)).toEqual(['2026-11-16']);
      expect(s.awaitingDataTaxYears).toEqual([2026]);
    },
  },
  {
    ein: '824433738',
    rule: 'A Form 8868 extension recorded moves the due date: the June 2025 return (FILING_REQ_CD 01, eo_ok.csv), due 17 Nov 2025, extended to 15 May 2026, after the release: not missed (Instructions for Form 8868; Rev. Proc. 2014-11 §3)',
    seen: { extensions: [{ periodEnd: '2025-06', extendedDue: '2026-05-15' }] },
    expect: (s) => {
      expect(s.returns[0]).toMatchObject({ periodEnd: '2025-06', extension: 'recorded', status: 'awaiting_data' });
      expect(s.state).toBe('good');
    },
  },
  {
    ein: '824433738',
    rule: 'Without it, the same return is missed unless extended',
    expect: (s) => {
      expect(s.returns[0]).toMatchObject({
        periodEnd: '2025-06',
        extension: 'possible',
        status: 'missed_unless_extended',
      });
      expect(s.state).toBe('unless_extended');
    },
  },
  {
    ein: '010674605',
    rule: 'FILING_REQ_CD 06, a church (eo4.csv), owes no annual return, and the calendar shows it none (IRC §6033(a)(3)(A)(i); EO BMF data dictionary)',
    expect: (s) => {
      expect(s.state).toBe('not_required');
      expect(returnOwedText(s.obligation)).toBe('Not required to file (church)');
      expect(s.nextDue).toBeNull();
      expect(
        deadlinesFor({ fiscalYearEndMonth: 12, renewalDueAt: null, returnOwed: s.obligation }, TODAY).map(
          (d) => d.kind,
        ),
      ).toEqual([]);
    },
  },
  {
    ein: '660600186',
    rule: 'FILING_REQ_CD 07, a governmental unit (eo4.csv), owes no annual return (IRC §6033(a)(3)(C); EO BMF data dictionary)',
    expect: (s) => {
      expect(s.state).toBe('not_required');
      expect(returnOwedText(s.obligation)).toBe('Not required to file (governmental unit)');
    },
  },
  {
    ein: '251501364',
    rule: 'FILING_REQ_CD 13, a religious organization (eo4.csv), owes no annual return (EO BMF data dictionary)',
    expect: (s) => expect(s.state).toBe('not_required'),
  },
  {
    ein: '311627616',
    rule: 'FILING_REQ_CD 14, an instrumentality of a state (eo4.csv), owes none, whatever its old TAX_PERIOD (EO BMF data dictionary)',
    expect: (s) => expect(s.state).toBe('not_required'),
  },
  {
    ein: '981103828',
    rule: 'FILING_REQ_CD 03 (eo4.csv): included in its central organization\'s group return, which is filed for it: not "no annual return required", and no due date of its own (EO BMF data dictionary; Rev. Proc. 2026-8)',
    expect: (s) => {
      expect(s.state).toBe('group_return');
      expect(s.label).toBe("Included in its central organization's group return");
      expect(
        deadlinesFor({ fiscalYearEndMonth: 12, renewalDueAt: null, returnOwed: s.obligation }, TODAY).map(
          (d) => d.kind,
        ),
      ).toEqual([]);
    },
  },
  {
    ein: '991174855',
    rule: "PF_FILING_REQ_CD 2 (eo_id.csv) is not in the IRS's published list (0 and 1 are): the return owed is not made up",
    expect: (s) => {
      expect(s.state).toBe('unknown_requirement');
      expect(returnOwedText(s.obligation)).toContain('not in the IRS');
    },
  },
  {
    ein: '043740092',
    rule: 'PF_FILING_REQ_CD 3 (eo_ar.csv), the same',
    expect: (s) => expect(s.state).toBe('unknown_requirement'),
  },
  {
    ein: '736219080',
    rule: 'FILING_REQ_CD 04, a black lung trust (eo_ct.csv), owes a Form 990-BL from its ruling (September 2025): the December 2025 return is due 15 May 2026 (EO BMF data dictionary)',
    expect: (s) => {
      expect(returnOwedText(s.obligation)).toBe('Form 990-BL every year');
      expect(s.returns.map((r) => [r.periodEnd, r.status])).toEqual([['2025-12', 'awaiting_data']]);
    },
  },
  {
    ein: '237424478',
    rule: 'STATUS 02, a conditional exemption (eo_ar.csv), is an exemption in force (EO BMF data dictionary)',
    expect: (s) => {
      expect(irsStatusMeaning('02')).toBe('Conditional exemption');
      expect(s.state).toBe('good');
      expect(s.latestPeriodFiled).toBe('2025-12');
    },
  },
  {
    ein: '716086419',
    rule: 'STATUS 12, a §4947(a)(2) trust (eo_ar.csv), owes its return but is not exempt under §501(a): no automatic revocation date (IRC §6033(j)(1))',
    expect: (s) => {
      expect(s.state).toBe('good');
      expect(s.revocationDate).toBeNull();
    },
  },
  {
    ein: '521107833',
    rule: 'STATUS 25, terminating private foundation status under §507(b)(1)(B) (eo_dc.csv), is an exemption in force (EO BMF data dictionary)',
    expect: (s) => {
      expect(irsStatusMeaning('25')).toMatch(/^Organization terminating its private foundation status/);
      expect(s.state).toBe('good');
    },
  },
  {
    ein: '873240715',
    rule: 'GEN 5271, latest return December 2022, a 990-N filer (eo_ok.csv): two returns missed, the third (due 15 May 2026) after the release: past its revocation date (IRC §6033(j))',
    expect: (s) => {
      expect(s.missedTaxYears).toEqual([2023, 2024]);
      expect(s.state).toBe('past_revocation_date');
      expect(s.revocationDate).toBe('2026-05-15');
    },
  },
  {
    ein: '710724563',
    rule: 'A Form 990-N that said the organization terminated (the 990-N data\'s "terminated" field, row in the IRS layout for this real EIN): no further return is tracked (IRS Form 990-N item 8)',
    seen: { postcards: [{ period: '2025-12', terminated: true }] },
    expect: (s) => {
      expect(s.state).toBe('terminated');
      expect(s.nextDue).toBeNull();
    },
  },
  {
    ein: '873240715',
    rule: 'On the Automatic Revocation List with no reinstatement: revoked, and never called deductible (Rev. Proc. 2014-11)',
    seen: { revocations: [{ revokedOn: '2026-05-15', postedOn: '2026-08-10', reinstatedOn: null }] },
    expect: (s) => {
      expect(s.state).toBe('revoked');
      expect(deductibilityText('1', s.state)).toBe('No: the exemption is revoked');
    },
  },
  {
    ein: '841973353',
    rule: 'Reinstated: the count of returns owed starts again from the period the reinstatement took effect (Rev. Proc. 2014-11 §§4-7)',
    seen: { revocations: [{ revokedOn: '2020-11-16', postedOn: '2021-03-01', reinstatedOn: '2026-02-01' }] },
    expect: (s) => {
      expect(s.state).toBe('reinstated');
      expect(s.returns.map((r) => r.periodEnd)).toEqual(['2026-06']);
    },
  },
];

beforeAll(() => loadRows(CASES.map((c) => c.ein)));

describe('the standing engine on real rows of the IRS EO BMF (April 2026)', () => {
  it.each(CASES.map((c) => [c.ein, c.rule, c] as const))('%s: %s', (_ein, _rule, c) => {
    c.expect(standingOf(c.ein, c.seen));
  });

  it('cites a release whose day the IRS did not give by its month, never a made-up day', () => {
    expect(releaseDateText('2026-04')).toBe('April 2026');
    expect(releaseDateText('2026-10-06')).toBe('October 6, 2026');
  });
});
