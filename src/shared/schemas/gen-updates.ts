import { z } from 'zod';
import { GEN_SUBSECTIONS, type GenReminderTier, type GenWindowState } from '../rules/gen-update.ts';
import {
  checkText,
  msg,
  optionalText,
  requiredChoice,
  requiredInt,
  requiredIsoDate,
  requiredText,
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
    (v, ctx) =>
      typeof v === 'string' ? checkText(v, ctx, 'central organization EIN').replace(/[\s-]/g, '') : (v ?? ''),
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
  uniform_purpose_statement: optionalText({
    label: 'uniform purpose statement',
    max: PURPOSE_STATEMENT_MAX,
    lines: 'multi',
  }),
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
export const genItemSchema = z.object({
  action: z.enum([...GEN_ITEM_ACTIONS, 'unchanged']),
  ein: z.string(),
  name: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  /** BMF SUBSECTION, e.g. '03'. */
  subsection: z.string().nullable(),
  /** BMF FOUNDATION code, e.g. '16'. */
  foundation: z.string().nullable(),
  /** From the FOUNDATION code; null when the IRS data does not say. */
  private_foundation: z.boolean().nullable(),
  /** For a change: which fields changed, with the values last submitted. */
  changes: z
    .array(z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() }))
    .optional(),
});
export type GenItem = z.input<typeof genItemSchema>;

const GEN_CHECK_KEYS = [
  'at_least_one',
  'same_paragraph',
  'purpose_statement',
  'supervision',
  'education',
  'no_private_foundation',
] as const;
export type GenCheckKey = (typeof GEN_CHECK_KEYS)[number];

/** One check of the builder, with the reason it passed or failed in words staff can act on. */
const genCheckSchema = z.object({
  key: z.enum(GEN_CHECK_KEYS),
  label: z.string(),
  passed: z.boolean(),
  reason: z.string(),
});
export type GenCheck = z.input<typeof genCheckSchema>;

/** One item of the transition checklist for 22 January 2027. */
const transitionItemSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** What Rev. Proc. 2026-8 needs by the deadline. */
  requirement: z.string(),
  status: z.enum(['done', 'todo']),
  detail: z.string(),
});
export type TransitionItem = z.input<typeof transitionItemSchema>;

/** GET /api/admin/gen-update: dates 'YYYY-MM-DD'. */
export const genUpdateViewSchema = z.object({
  today: z.string(),
  groups: z.array(z.object({ id: z.number().int(), label: z.string(), gen: z.string() })),
  group: z
    .object({
      id: z.number().int(),
      label: z.string(),
      gen: z.string(),
      central_name: z.string(),
      central_ein: z.string().nullable(),
      accounting_period_end_month: z.number().int().nullable(),
      subsection: z.string().nullable(),
      uniform_purpose_statement: z.string(),
    })
    .nullable(),
  /** Settings missing before an update can be built (labels). */
  missing_settings: z.array(z.string()),
  /** Null until the accounting period end month is set. */
  period: z
    .object({
      period_end: z.string(),
      opens_on: z.string(),
      closes_on: z.string(),
      state: z.enum(['upcoming', 'open', 'closed'] as const satisfies readonly GenWindowState[]),
      days_until_open: z.number().int(),
      days_left: z.number().int(),
      in_window_today: z.boolean(),
    })
    .nullable(),
  /** The update the lines are measured against, or null for the first one. */
  baseline: z.object({ period_end: z.string(), submitted_on: z.string() }).nullable(),
  roster_count: z.number().int(),
  counts: z.object({
    add: z.number().int(),
    delete: z.number().int(),
    change: z.number().int(),
    roster: z.number().int(),
  }),
  /** The lines to submit (never 'unchanged' ones). */
  items: z.array(genItemSchema),
  checks: z.array(genCheckSchema),
  submission: z
    .object({
      submitted_on: z.string(),
      submitted_by: z.string().nullable(),
      in_window: z.boolean(),
      items: z.number().int(),
    })
    .nullable(),
  transition: z.object({ deadline: z.string(), days_left: z.number().int(), items: z.array(transitionItemSchema) }),
});
export type GenUpdateView = z.input<typeof genUpdateViewSchema>;

/** A reminder tier as staff read it. */
export const GEN_REMINDER_TIER_LABELS: Record<GenReminderTier, string> = {
  opened: 'The window opened',
  closing: 'The window closes within 7 days',
};
