import { and, asc, eq, inArray } from 'drizzle-orm';
import { addDays, calendarDate, longDate, parseIsoDate } from '../../../shared/rules/compliance-calendar.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { genUpdateWindow, previousPeriodEnd, supervisionTaxYear } from '../../../shared/rules/gen-update.ts';
import { subsectionLabel } from '../../../shared/rules/standing.ts';
import { countOf } from '../../../shared/text.ts';
import { accounts, complianceEducation, supervisionReports } from '../../db/schema.ts';
import type { GenCheck } from '../../../shared/schemas/gen-updates.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { GenGroup, RosterEntry } from './gen-roster.ts';

/** How many subordinates a failing check names before "and N more". */
const NAMED = 5;

const some = (
  entries: RosterEntry[],
  what: (r: RosterEntry) => string = (r) => `${r.item.name} (EIN ${formatEin(r.item.ein)})`,
) =>
  entries.slice(0, NAMED).map(what).join('; ') + (entries.length > NAMED ? `; and ${entries.length - NAMED} more` : '');

/**
 * The checks of the annual GEN update of the period ending `periodEnd` (docs/irs-gen-duties.md
 * "Checks"; Rev. Proc. 2026-8 as summarized in docs/requirements/tax-rules.md): at least one subordinate; every
 * subordinate in the group's 501(c) paragraph; a uniform purpose statement on file; a supervision
 * record (supervision_reports) of each subordinate for its latest tax year ended before the window
 * opens (supervisionTaxYear); the compliance education notice (compliance_education) sent within
 * the accounting period; and, for a 501(c)(3) group, no private foundation on the roster
 * (Publication 557). Reads supervision_reports and compliance_education only.
 * @returns one GenCheck per rule, in that order, each with a reason staff can act on
 */
export async function computeGenChecks(
  db: DbOrTx,
  group: GenGroup,
  roster: RosterEntry[],
  periodEnd: string,
): Promise<GenCheck[]> {
  const checks: GenCheck[] = [];
  const n = roster.length;

  checks.push(
    n > 0
      ? {
          key: 'at_least_one',
          label: 'At least one subordinate',
          passed: true,
          reason: `${countOf(n, 'subordinate is', 'subordinates are')} on the roster of GEN ${group.gen}.`,
        }
      : {
          key: 'at_least_one',
          label: 'At least one subordinate',
          passed: false,
          reason: `No subordinate is on the roster of GEN ${group.gen}; a group exemption needs at least one to continue.`,
        },
  );

  const paragraph = group.subsection;
  if (!paragraph) {
    checks.push({
      key: 'same_paragraph',
      label: 'Same 501(c) paragraph for all',
      passed: false,
      reason: 'The group’s 501(c) paragraph is not set in the GEN settings.',
    });
  } else {
    const other = roster.filter((r) => r.item.subsection !== paragraph);
    checks.push(
      other.length
        ? {
            key: 'same_paragraph',
            label: 'Same 501(c) paragraph for all',
            passed: false,
            reason:
              `${countOf(other.length, 'subordinate is', 'subordinates are')} not described in ${subsectionLabel(paragraph)} in the IRS data: ` +
              some(
                other,
                (r) =>
                  `${r.item.name} (EIN ${formatEin(r.item.ein)}, ${r.item.subsection ? subsectionLabel(r.item.subsection) : 'no paragraph in the IRS data'})`,
              ) +
              '.',
          }
        : {
            key: 'same_paragraph',
            label: 'Same 501(c) paragraph for all',
            passed: true,
            reason: n
              ? `Every subordinate is described in ${subsectionLabel(paragraph)}.`
              : `No subordinate to compare with ${subsectionLabel(paragraph)}.`,
          },
    );
  }

  const statement = group.uniformPurposeStatement.trim();
  checks.push(
    statement
      ? {
          key: 'purpose_statement',
          label: 'Uniform purpose statement on file',
          passed: true,
          reason: `On file (${countOf(statement.length, 'character')}).`,
        }
      : {
          key: 'purpose_statement',
          label: 'Uniform purpose statement on file',
          passed: false,
          reason: 'No uniform purpose statement is on file: enter it in the GEN settings.',
        },
  );

  // Each subordinate's latest tax year ended before the window opens: at most two years in play.
  const window = genUpdateWindow(periodEnd);
  const wanted = new Map(roster.map((r) => [r.accountId, supervisionTaxYear(r.fiscalYearEndMonth, window.opensOn)]));
  const years = [...new Set(wanted.values())];
  const have = new Set(
    years.length
      ? (
          await db
            .select({ accountId: supervisionReports.accountId, taxYear: supervisionReports.taxYear })
            .from(supervisionReports)
            .innerJoin(accounts, eq(accounts.id, supervisionReports.accountId))
            .where(and(eq(accounts.gen, group.gen), inArray(supervisionReports.taxYear, years)))
        )
          .filter((r) => wanted.get(r.accountId) === r.taxYear)
          .map((r) => r.accountId)
      : [],
  );
  const missing = roster.filter((r) => !have.has(r.accountId));
  checks.push(
    !n
      ? {
          key: 'supervision',
          label: 'This year’s supervision record for each subordinate',
          passed: false,
          reason: 'No subordinate on the roster, so no supervision record to check.',
        }
      : missing.length
        ? {
            key: 'supervision',
            label: 'This year’s supervision record for each subordinate',
            passed: false,
            reason:
              `${countOf(missing.length, 'subordinate has', 'subordinates have')} no supervision record for the latest tax year ended before ${longDate(window.opensOn)} (${countOf(n - missing.length, 'record')} of ${n}): ` +
              some(
                missing,
                (r) => `${r.item.name} (EIN ${formatEin(r.item.ein)}, tax year ${wanted.get(r.accountId)})`,
              ) +
              '.',
          }
        : {
            key: 'supervision',
            label: 'This year’s supervision record for each subordinate',
            passed: true,
            reason: `All ${countOf(n, 'subordinate')} have a supervision record for their latest tax year.`,
          },
  );

  // Sent within the accounting period that ends on periodEnd.
  const periodStart = addDays(previousPeriodEnd(periodEnd), 1);
  const startYear = parseIsoDate(periodStart).year;
  const endYear = parseIsoDate(periodEnd).year;
  const notices = await db
    .select()
    .from(complianceEducation)
    .where(
      and(
        eq(complianceEducation.groupId, group.id),
        inArray(complianceEducation.year, [...new Set([startYear, endYear])]),
      ),
    )
    .orderBy(asc(complianceEducation.sentAt));
  const sent = notices.find((e) => {
    const on = calendarDate(e.sentAt);
    return on >= periodStart && on <= periodEnd;
  });
  checks.push(
    sent
      ? {
          key: 'education',
          label: 'Compliance education sent',
          passed: true,
          reason: `The ${sent.year} compliance education notice was sent on ${longDate(calendarDate(sent.sentAt))} to ${countOf(sent.recipients, 'recipient')}.`,
        }
      : {
          key: 'education',
          label: 'Compliance education sent',
          passed: false,
          reason: `No compliance education notice is recorded as sent between ${longDate(periodStart)} and ${longDate(periodEnd)} (the accounting period).`,
        },
  );

  if (paragraph === '03') {
    const pf = roster.filter((r) => r.item.private_foundation === true);
    checks.push(
      pf.length
        ? {
            key: 'no_private_foundation',
            label: 'No private foundation',
            passed: false,
            reason: `A private foundation cannot be included in a 501(c)(3) group exemption; the IRS data shows ${countOf(pf.length, 'one', 'several')}: ${some(pf)}.`,
          }
        : {
            key: 'no_private_foundation',
            label: 'No private foundation',
            passed: true,
            reason: 'No subordinate is a private foundation in the IRS data (BMF foundation code).',
          },
    );
  }
  return checks;
}
