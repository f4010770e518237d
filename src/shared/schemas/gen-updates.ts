import { z } from 'zod';
import { GEN_SUBSECTIONS, type GenReminderTier, type GenWindowState } from '../rules/gen-update.ts';
import {
  msg,
  requiredIsoDate,
  optionalText,
  requiredChoice,
  requiredInt,
  requiredText,
  stripControl,
} from '../validation.ts';

/**
 * The annual GEN update builder (docs/irs-gen-duties.md; page /admin/gen-update):
 * the GEN settings form, the builder's query, the submission record, and the shapes the server
 * answers. Dates are 'YYYY-MM-DD'.
 */

/** Longest uniform purpose statement kept, in characters. */
export const PURPOSE_STATEMENT_MAX = 5000;

/** A group id (groups.id) as a form or query sends it. */
const groupId = requiredInt('group', 1, 2_147_483_647);

/**
 * PUT /api/admin/gen-update/settings: the central organization's name and EIN, the month its
 * annual accounting period ends (1-12), the 501(c) paragraph of the group (BMF SUBSECTION '01'-'29';
 * '3' is read as '03'), and the uniform purpose statement on file ('' while none is).
 */
export const genSettingsSchema = z.object({
  group_id: groupId,
  central_name: requiredText({ label: 'central organization name', max: 255 }),
  central_ein: z.preprocess(
    (v) => (typeof v === 'string' ? stripControl(v).replace(/[\s-]/g, '') : (v ?? '')),
    z
      .string({ error: msg.required('central organization EIN') })
      .min(1, msg.required('central organization EIN'))
      .regex(/^\d{9}$/, 'The central organization EIN must be 9 digits, e.g. 12-3456789.'),
  ),
  accounting_period_end_month: requiredInt('accounting period end month', 1, 12),
  subsection: z.preprocess(
    (v) =>
      typeof v === 'number' || (typeof v === 'string' && /^\d$/.test(v.trim())) ? String(v).trim().padStart(2, '0') : v,
    requiredChoice('501(c) paragraph', GEN_SUBSECTIONS as [string, ...string[]]),
  ),
  uniform_purpose_statement: optionalText({ label: 'uniform purpose statement', max: PURPOSE_STATEMENT_MAX }),
});
export type GenSettingsInput = z.output<typeof genSettingsSchema>;

/**
 * Query of GET /api/admin/gen-update and its exports: `group_id` (empty: the first group with a
 * GEN) and `period_end` (empty: the current period, see currentGenPeriodEnd).
 */
export const genUpdateQuery = z.object({
  group_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), groupId.optional()),
  period_end: z.preprocess((v) => (v === '' || v === null ? undefined : v), requiredIsoDate('period end').optional()),
});
export type GenUpdateQuery = z.output<typeof genUpdateQuery>;

/** POST /api/admin/gen-update/submit: the day staff submitted the update of `period_end` to the IRS. */
export const genSubmitSchema = z.object({
  group_id: groupId,
  period_end: requiredIsoDate('period end'),
  submitted_on: requiredIsoDate('submitted on'),
});
export type GenSubmitInput = z.output<typeof genSubmitSchema>;

/** What a line of the update is: added, deleted or changed since the last submitted update; on the first update, the whole roster. */
export const GEN_ITEM_ACTIONS = ['add', 'delete', 'change', 'roster'] as const;
export type GenItemAction = (typeof GEN_ITEM_ACTIONS)[number] | 'unchanged';

/** One subordinate line of the update (also what gen_updates.items freezes). */
export interface GenItem {
  action: GenItemAction;
  ein: string;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  /** BMF SUBSECTION, e.g. '03'. */
  subsection: string | null;
  /** BMF FOUNDATION code, e.g. '16'. */
  foundation: string | null;
  /** From the FOUNDATION code; null when the IRS data does not say. */
  private_foundation: boolean | null;
  /** For a change: which fields changed, with the values last submitted. */
  changes?: { field: string; before: string | null; after: string | null }[];
}

export type GenCheckKey =
  'at_least_one' | 'same_paragraph' | 'purpose_statement' | 'supervision' | 'education' | 'no_private_foundation';

/** One check of the builder, with the reason it passed or failed in words staff can act on. */
export interface GenCheck {
  key: GenCheckKey;
  label: string;
  passed: boolean;
  reason: string;
}

/** One item of the transition checklist for 22 January 2027. */
export interface TransitionItem {
  key: string;
  label: string;
  /** What Rev. Proc. 2026-8 needs by the deadline. */
  requirement: string;
  status: 'done' | 'todo';
  detail: string;
}

/** GET /api/admin/gen-update. */
export interface GenUpdateView {
  today: string;
  groups: { id: number; label: string; gen: string }[];
  group: null | {
    id: number;
    label: string;
    gen: string;
    central_name: string;
    central_ein: string | null;
    accounting_period_end_month: number | null;
    subsection: string | null;
    uniform_purpose_statement: string;
  };
  /** Settings missing before an update can be built (labels). */
  missing_settings: string[];
  /** Null until the accounting period end month is set. */
  period: null | {
    period_end: string;
    opens_on: string;
    closes_on: string;
    state: GenWindowState;
    days_until_open: number;
    days_left: number;
    in_window_today: boolean;
  };
  /** The update the lines are measured against, or null for the first one. */
  baseline: null | { period_end: string; submitted_on: string };
  roster_count: number;
  counts: { add: number; delete: number; change: number; roster: number };
  /** The lines to submit (never 'unchanged' ones). */
  items: GenItem[];
  checks: GenCheck[];
  submission: null | { submitted_on: string; submitted_by: string | null; in_window: boolean; items: number };
  transition: { deadline: string; days_left: number; items: TransitionItem[] };
}

/** A reminder tier as staff read it. */
export const GEN_REMINDER_TIER_LABELS: Record<GenReminderTier, string> = {
  opened: 'The window opened',
  closing: 'The window closes within 7 days',
};
