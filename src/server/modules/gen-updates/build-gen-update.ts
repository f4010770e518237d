import { and, desc, eq, gte } from 'drizzle-orm';
import { MONTH_NAMES } from '../../../shared/lists/months.ts';
import { must } from '../../../shared/must.ts';
import { daysBetween, longDate } from '../../../shared/rules/compliance-calendar.ts';
import {
  currentGenPeriodEnd,
  GEN_TRANSITION_DEADLINE,
  genUpdateWindow,
  genWindowStatus,
  isInGenWindow,
  isPeriodEndOf,
  REV_PROC_2026_8_PUBLISHED,
} from '../../../shared/rules/gen-update.ts';
import { genUpdates, users } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { computeGenChecks } from './gen-checks.ts';
import {
  diffRoster,
  lastSubmittedBefore,
  loadGenGroup,
  loadRoster,
  missingSettings,
  type GenGroup,
} from './gen-roster.ts';
import type { GenCheck, GenItem, GenUpdateView, TransitionItem } from '../../../shared/schemas/gen-updates.ts';
import type { Db } from '../../db/client.ts';

/** What the builder computed, with every line (unchanged ones too) for the submission to freeze. */
export interface BuiltGenUpdate {
  view: GenUpdateView;
  group: GenGroup | null;
  /** Every line, 'unchanged' included; the frozen ones once submitted. */
  allItems: GenItem[];
}

const byCheck = (checks: GenCheck[], key: GenCheck['key']) => checks.find((c) => c.key === key);

/** The transition checklist (docs/irs-gen-duties.md "Transition checklist"), from the current period's checks. */
async function transitionChecklist(
  db: Db,
  group: GenGroup,
  missing: string[],
  checks: GenCheck[] | null,
): Promise<TransitionItem[]> {
  const [first] = await db
    .select({ periodEnd: genUpdates.periodEnd, submittedOn: genUpdates.submittedOn })
    .from(genUpdates)
    .where(
      and(
        eq(genUpdates.groupId, group.id),
        eq(genUpdates.status, 'submitted'),
        gte(genUpdates.submittedOn, REV_PROC_2026_8_PUBLISHED),
      ),
    )
    .orderBy(desc(genUpdates.submittedOn))
    .limit(1);
  const fromCheck = (key: GenCheck['key'], todo: string): Pick<TransitionItem, 'status' | 'detail'> => {
    const c = checks && byCheck(checks, key);
    return c ? { status: c.passed ? 'done' : 'todo', detail: c.reason } : { status: 'todo', detail: todo };
  };
  const noSettings = 'Set the accounting period end month in the GEN settings first.';
  const roster = checks && byCheck(checks, 'at_least_one');
  const paragraph = checks && byCheck(checks, 'same_paragraph');
  const items: TransitionItem[] = [
    {
      key: 'settings',
      label: 'GEN settings complete',
      requirement:
        'The central organization’s name, EIN, accounting period and 501(c) paragraph, as the annual update states them.',
      ...(missing.length
        ? { status: 'todo', detail: `Missing: ${missing.join(', ')}.` }
        : { status: 'done', detail: 'All settings are filled in.' }),
    },
    {
      key: 'roster',
      label: 'At least one subordinate, all in the same 501(c) paragraph',
      requirement:
        'A group exemption keeps at least one subordinate, and every subordinate is described in the same paragraph of section 501(c).',
      ...(roster && paragraph
        ? {
            status: roster.passed && paragraph.passed ? 'done' : 'todo',
            detail: `${roster.reason} ${paragraph.reason}`,
          }
        : { status: 'todo', detail: noSettings }),
    },
    {
      key: 'purpose_statement',
      label: 'Uniform purpose statement on file',
      requirement: 'Every subordinate shares a uniform purpose statement.',
      ...(group.uniformPurposeStatement.trim()
        ? { status: 'done', detail: 'On file.' }
        : { status: 'todo', detail: 'Enter it in the GEN settings.' }),
    },
    {
      key: 'supervision',
      label: 'Supervision information collected from each subordinate',
      requirement:
        'Each year the central organization obtains, reviews and keeps information about each subordinate; a Form 990-N is not enough.',
      ...fromCheck('supervision', noSettings),
    },
    {
      key: 'education',
      label: 'Compliance education sent',
      requirement: 'Annual compliance education for the subordinates (electronic delivery is acceptable).',
      ...fromCheck('education', noSettings),
    },
    {
      key: 'first_update',
      label: 'First annual update recorded',
      requirement:
        'The annual subordinate information (additions, deletions, changes) submitted 30 to 90 days before the accounting period closes.',
      ...(first
        ? {
            status: 'done',
            detail: `The update for the period ending ${longDate(first.periodEnd)} was submitted on ${longDate(must(first.submittedOn, 'the submission date of a submitted update'))}.`,
          }
        : {
            status: 'todo',
            detail: 'No annual update has been recorded as submitted since Rev. Proc. 2026-8 was published.',
          }),
    },
  ];
  const pf = checks && byCheck(checks, 'no_private_foundation');
  if (pf) {
    items.splice(2, 0, {
      key: 'no_private_foundation',
      label: 'No private foundation among the subordinates',
      requirement: 'A 501(c)(3) subordinate that is a private foundation cannot be included in a group exemption.',
      status: pf.passed ? 'done' : 'todo',
      detail: pf.reason,
    });
  }
  return items;
}

/**
 * GET /api/admin/gen-update (docs/irs-gen-duties.md; staff only): the annual GEN update of one
 * group for one accounting period: the group's settings, the window (opens 90, closes 30 days
 * before the period ends) and where `today` stands, the lines to submit (additions, deletions,
 * changes since the last submitted update; the whole roster on the first), the checks, the
 * submission once recorded (its frozen lines), and the transition checklist for 22 January 2027
 * (computed for the current period). Reads only.
 * @param input.groupId the group (default: the first with a GEN); input.periodEnd the period
 *   (default: currentGenPeriodEnd); today 'YYYY-MM-DD'
 * @throws HttpError 404 for an unknown group; ValidationError 422 (period_end) when the period end
 *   is not the last day of the group's accounting month
 */
export async function buildGenUpdate(
  db: Db,
  input: { groupId?: number; periodEnd?: string },
  today: string,
): Promise<BuiltGenUpdate> {
  const { group, all } = await loadGenGroup(db, input.groupId);
  const groupsList = all.map((g) => ({ id: g.id, label: g.label, gen: g.gen }));
  const empty: GenUpdateView = {
    today,
    groups: groupsList,
    group: null,
    missing_settings: [],
    period: null,
    baseline: null,
    roster_count: 0,
    counts: { add: 0, delete: 0, change: 0, roster: 0 },
    items: [],
    checks: [],
    submission: null,
    transition: {
      deadline: GEN_TRANSITION_DEADLINE,
      days_left: daysBetween(today, GEN_TRANSITION_DEADLINE),
      items: [],
    },
  };
  if (!group) return { view: empty, group: null, allItems: [] };
  const missing = missingSettings(group);
  const view: GenUpdateView = {
    ...empty,
    group: {
      id: group.id,
      label: group.label,
      gen: group.gen,
      central_name: group.centralName,
      central_ein: group.centralEin,
      accounting_period_end_month: group.accountingPeriodEndMonth,
      subsection: group.subsection,
      uniform_purpose_statement: group.uniformPurposeStatement,
    },
    missing_settings: missing,
  };
  const roster = await loadRoster(db, group.gen);
  view.roster_count = roster.length;
  const month = group.accountingPeriodEndMonth;
  if (!month) {
    view.transition.items = await transitionChecklist(db, group, missing, null);
    return { view, group, allItems: [] };
  }
  const current = currentGenPeriodEnd(month, today);
  const periodEnd = input.periodEnd ?? current;
  if (!isPeriodEndOf(month, periodEnd)) {
    throw ValidationError.field(
      'period_end',
      `The period end must be the last day of ${MONTH_NAMES[month - 1]}, when the central organization's accounting period ends.`,
    );
  }
  const window = genUpdateWindow(periodEnd);
  const status = genWindowStatus(window, today);
  view.period = {
    period_end: periodEnd,
    opens_on: window.opensOn,
    closes_on: window.closesOn,
    state: status.state,
    days_until_open: status.daysUntilOpen,
    days_left: status.daysLeft,
    in_window_today: status.state === 'open',
  };

  const [saved] = await db
    .select({ row: genUpdates, by: users.email })
    .from(genUpdates)
    .leftJoin(users, eq(users.id, genUpdates.submittedBy))
    .where(and(eq(genUpdates.groupId, group.id), eq(genUpdates.periodEnd, periodEnd)));
  const baseline = await lastSubmittedBefore(db, group.id, periodEnd);
  view.baseline = baseline
    ? {
        period_end: baseline.periodEnd,
        submitted_on: must(baseline.submittedOn, 'the submission date of a submitted update'),
      }
    : null;
  let allItems: GenItem[];
  if (saved?.row.status === 'submitted') {
    allItems = saved.row.items as unknown as GenItem[];
    const submittedOn = must(saved.row.submittedOn, 'the submission date of a submitted update');
    view.submission = {
      submitted_on: submittedOn,
      submitted_by: saved.by,
      in_window: isInGenWindow(submittedOn, periodEnd),
      items: allItems.filter((i) => i.action !== 'unchanged').length,
    };
  } else {
    allItems = diffRoster(
      roster.map((r) => r.item),
      baseline ? (baseline.items as unknown as GenItem[]) : null,
    );
  }
  view.items = allItems.filter((i) => i.action !== 'unchanged');
  for (const i of view.items) view.counts[i.action as keyof GenUpdateView['counts']]++;
  view.checks = await computeGenChecks(db, group, roster, periodEnd);
  const currentChecks = periodEnd === current ? view.checks : await computeGenChecks(db, group, roster, current);
  view.transition.items = await transitionChecklist(db, group, missing, currentChecks);
  return { view, group, allItems };
}
