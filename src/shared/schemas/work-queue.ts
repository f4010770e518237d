import { z } from 'zod';
import { MONTH_NAMES } from '../lists/months.ts';
import { calendarDate, parseIsoDate } from '../rules/compliance-calendar.ts';
import { reinstatementWorkText } from '../rules/reinstatement.ts';
import { returnOwed } from '../rules/standing.ts';
import { checkText, msg, requiredText } from '../validation.ts';
import { listSort } from './list-params.ts';
import type { PageObject } from '../rules/pagination.ts';

/**
 * The staff work queue (docs/work-queue.md): items found after each IRS data refresh, for central
 * staff to assign, note and resolve. Dates are ISO 8601 (timestamps) or 'YYYY-MM-DD' (IRS dates).
 */

/** Every kind of item, in the order the page shows them. */
export const WORK_ITEM_KINDS = [
  'left_roster',
  'past_due',
  'fiscal_year_mismatch',
  'name_changed',
  'address_changed',
  'paying_not_on_roster',
  'roster_no_membership',
  'revoked',
  'reinstated',
  'determination_letter',
  'link_request',
  'reinstatement_order',
] as const;
export type WorkItemKind = (typeof WORK_ITEM_KINDS)[number];

/** What each kind is called on the page, in the CSV and in the audit log. */
export const WORK_ITEM_KIND_LABELS: Record<WorkItemKind, string> = {
  left_roster: 'Left the GEN roster',
  past_due: 'Past a due date',
  fiscal_year_mismatch: 'Fiscal year end differs',
  name_changed: 'Name changed',
  address_changed: 'Address changed',
  paying_not_on_roster: 'Paying member not on the roster',
  roster_no_membership: 'On the roster, no membership',
  revoked: 'Revoked',
  reinstated: 'Reinstated',
  determination_letter: 'IRS letter to review',
  link_request: 'Applicant to link',
  reinstatement_order: 'Reinstatement to prepare',
};

export const WORK_ITEM_STATUSES = ['open', 'resolved'] as const;
export type WorkItemStatus = (typeof WORK_ITEM_STATUSES)[number];

/** Rows per page of GET /api/admin/work-queue. */
export const WORK_QUEUE_PER_PAGE = 25;
/** Most rows one CSV export writes (a filter narrows it further). */
export const WORK_QUEUE_CSV_MAX = 50_000;

/** Columns the list sorts by (`sort`, "-" for descending); oldest first by default, as a queue. */
export const WORK_QUEUE_SORTS = ['created_at', 'updated_at', 'kind', 'account'] as const;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * Query of GET /api/admin/work-queue and its CSV export: `kind` (empty: every kind), `status`
 * ('open' by default, 'resolved', or 'all'), `assignee` ('me', 'none', or a staff user's id; empty:
 * anyone), `sort` (WORK_QUEUE_SORTS), 1-based `page` (anything unreadable is page 1).
 */
export const workQueueQuery = z.object({
  kind: z.preprocess(emptyToUndefined, z.enum(WORK_ITEM_KINDS, { error: 'The selected kind is invalid.' }).optional()),
  status: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 'open' : v),
    z.enum([...WORK_ITEM_STATUSES, 'all'], { error: 'The selected status is invalid.' }),
  ),
  assignee: z.preprocess(
    emptyToUndefined,
    z
      .union([z.enum(['me', 'none']), z.coerce.number().int().positive().max(2_147_483_647)], {
        error: 'The selected assignee is invalid.',
      })
      .optional(),
  ),
  sort: listSort(WORK_QUEUE_SORTS, 'created_at'),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type WorkQueueQuery = z.output<typeof workQueueQuery>;

/**
 * Body of POST /api/admin/work-queue/{id}/assign: `assignee` is 'me', a staff user's id, or empty
 * (nobody: the item is unassigned).
 */
export const workItemAssignSchema = z.object({
  assignee: z.preprocess(
    (v, ctx) => (v === undefined || v === '' ? null : typeof v === 'string' ? checkText(v, ctx, 'assignee') : v),
    z.union(
      [
        z.literal('me'),
        z.null(),
        z.coerce
          .number({ error: 'The selected assignee is invalid.' })
          .int('The selected assignee is invalid.')
          .positive('The selected assignee is invalid.')
          .max(2_147_483_647, 'The selected assignee is invalid.'),
      ],
      { error: 'The selected assignee is invalid.' },
    ),
  ),
});
export type WorkItemAssignInput = z.output<typeof workItemAssignSchema>;

/** Body of POST /api/admin/work-queue/{id}/notes. */
export const workItemNoteSchema = z.object({
  body: requiredText({ label: 'note', max: 2000, lines: 'multi' }),
});

/** Body of POST /api/admin/work-queue/{id}/resolve: what was done. */
export const workItemResolveSchema = z.object({
  resolution: requiredText({ label: 'resolution', max: 2000, lines: 'multi' }),
});

/**
 * Body of POST /api/admin/work-queue/{id}/accept-letter (docs/work-queue.md "Determination
 * letters"): the date printed on the IRS letter, 'YYYY-MM-DD', not later than `today`.
 * @param today 'YYYY-MM-DD' (the browser's calendar on the page); absent, the UTC calendar date
 *   when a body is parsed, as the server checks it
 */
export const letterAcceptSchema = (today?: string) =>
  z.object({
    letter_date: z.preprocess(
      (v, ctx) => (typeof v === 'string' ? checkText(v, ctx, 'date on the letter') : (v ?? '')),
      z
        .string({ error: msg.required('date on the letter') })
        .min(1, { message: msg.required('date on the letter'), abort: true })
        .refine(isIsoDate, { message: 'The date on the letter field must be a valid date.', abort: true })
        .refine((d) => d <= (today ?? calendarDate(new Date())), 'The date on the letter must be today or earlier.'),
    ),
  });

/** Whether `s` is a calendar date 'YYYY-MM-DD' that exists. */
function isIsoDate(s: string): boolean {
  try {
    parseIsoDate(s);
    return true;
  } catch {
    return false;
  }
}

/** Body of POST /api/admin/work-queue/{id}/return-letter: why the letter is sent back, shown to the group. */
export const letterReturnSchema = z.object({
  reason: requiredText({ label: 'reason', max: 2000, lines: 'multi' }),
});

/** A staff user an item can be assigned to. */
export const workQueueStaffSchema = z.object({ id: z.number(), name: z.string(), email: z.string() });
export type WorkQueueStaff = z.output<typeof workQueueStaffSchema>;

/** One row of the work queue. */
export const workItemRowSchema = z.object({
  id: z.number(),
  kind: z.enum(WORK_ITEM_KINDS),
  kind_label: z.string(),
  /** One line saying what was found (names, dates, codes; never personal names). */
  summary: z.string(),
  status: z.enum(WORK_ITEM_STATUSES),
  account: z.object({ id: z.number(), name: z.string(), ein: z.string().nullable() }).nullable(),
  ein: z.string().nullable(),
  assignee: workQueueStaffSchema.nullable(),
  /** The IRS release the item was found in, 'YYYY-MM-DD', or null. */
  released_on: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  resolved_at: z.string().nullable(),
  resolution: z.string(),
});
export type WorkItemRow = z.output<typeof workItemRowSchema>;

/** GET /api/admin/work-queue: a page object, plus the items of each kind under the status and assignee filters. */
export type WorkQueuePage = PageObject<WorkItemRow> & { counts: Record<WorkItemKind, number> };

/** One entry of an item's history: what happened, by whom, when. */
const workItemEventSchema = z.object({
  at: z.string(),
  action: z.enum([
    'found',
    'assigned',
    'note_added',
    'resolved',
    'reopened',
    'letter_accepted',
    'letter_returned',
    'applicant_linked',
  ]),
  actor: z.string().nullable(),
  text: z.string(),
});
export type WorkItemEvent = z.output<typeof workItemEventSchema>;

/**
 * For a `link_request` item (docs/work-queue.md "Applicants to link"): the application, who to
 * contact (shown in the item's panel only, never in the list), and whether linking is still
 * possible (`blocked`: why not, or null).
 */
const workItemLinkSchema = z.object({
  application_id: z.number(),
  applicant_email: z.string().nullable(),
  president_name: z.string(),
  president_phone: z.string(),
  blocked: z.string().nullable(),
});

/** GET /api/admin/work-queue/{id}: the item, what was found in full, its notes and its history (from the audit log). */
export const workItemDetailSchema = workItemRowSchema.extend({
  details: z.record(z.string(), z.unknown()),
  resolved_by: workQueueStaffSchema.nullable(),
  notes: z.array(z.object({ id: z.number(), body: z.string(), author: z.string().nullable(), created_at: z.string() })),
  history: z.array(workItemEventSchema),
  /** For a `determination_letter` item: the letter's review state and file name; null for other kinds. */
  letter: z
    .object({
      status: z.enum(['pending', 'accepted', 'returned']),
      file_name: z.string().nullable(),
      letter_date: z.string().nullable(),
      return_reason: z.string(),
    })
    .nullable(),
  /** For a `link_request` item: see workItemLinkSchema; null for other kinds. */
  link: workItemLinkSchema.nullable(),
});
export type WorkItemDetail = z.output<typeof workItemDetailSchema>;

const month = (m: unknown) => (typeof m === 'number' && m >= 1 && m <= 12 ? MONTH_NAMES[m - 1] : 'unknown');
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const join = (o: unknown, keys: string[]) => {
  const r = (o ?? {}) as Record<string, unknown>;
  return keys
    .map((k) => text(r[k]))
    .filter(Boolean)
    .join(', ');
};

/**
 * The one line the list and the CSV show for an item, from its `details` as buildWorkQueue
 * writes them (docs/work-queue.md "Kinds").
 */
export function workItemSummary(kind: WorkItemKind, d: Record<string, unknown>): string {
  switch (kind) {
    case 'left_roster':
      return `GEN ${text(d.gen)}: not in the BMF release of ${text(d.missing_from_released_on)} (${text(d.file)}); last seen in the release of ${text(d.last_seen_released_on)}.`;
    case 'past_due': {
      const years = Array.isArray(d.missed_tax_years) ? (d.missed_tax_years as number[]).join(', ') : '';
      return `${text(d.label)}: no return seen for tax year${years.includes(',') ? 's' : ''} ${years}${d.revocation_date ? `; revocation date ${text(d.revocation_date)}` : ''}.`;
    }
    case 'fiscal_year_mismatch':
      return `The IRS has a fiscal year ending in ${month(d.irs_month)} (ACCT_PD ${String(d.irs_month ?? '')}); the group told us ${month(d.own_month)}.`;
    case 'name_changed':
      return `Name in the BMF changed from "${join(d.before, ['name'])}" to "${join(d.after, ['name'])}"${text((d.before as Record<string, unknown>)?.legal_name) !== text((d.after as Record<string, unknown>)?.legal_name) ? ` (legal name "${join(d.before, ['legal_name'])}" to "${join(d.after, ['legal_name'])}")` : ''}.`;
    case 'address_changed':
      return `Address in the BMF changed from "${join(d.before, ['street', 'city', 'state', 'zip'])}" to "${join(d.after, ['street', 'city', 'state', 'zip'])}".`;
    case 'paying_not_on_roster':
      return d.reason === 'no_ein'
        ? 'Paid membership; no EIN on file, so not on any GEN roster.'
        : d.reason === 'left'
          ? `Paid membership; left the roster of GEN ${text(d.gen)}.`
          : d.reason === 'other_gen'
            ? `Paid membership; in the BMF under another group exemption (GEN ${text(d.gen)}).`
            : d.reason === 'independent'
              ? 'Paid membership; in the BMF with an exemption of its own, not under a GEN.'
              : 'Paid membership; EIN not in the BMF loaded.';
    case 'roster_no_membership':
      return `On the roster of GEN ${text(d.gen)}; no user has joined for it.`;
    case 'revoked': {
      const way =
        typeof d.posted_on === 'string' && typeof d.revoked_on === 'string'
          ? reinstatementWorkText({
              obligation: returnOwed(text(d.filing_requirement) || null, text(d.pf_filing_requirement) || null),
              grossReceipts: null,
              earlierRevocations: typeof d.earlier_revocations === 'number' ? d.earlier_revocations : 0,
              revokedOn: d.revoked_on,
              postedOn: d.posted_on,
            })
          : null;
      return `On the Automatic Revocation List: revoked ${text(d.revoked_on)}${d.posted_on ? `, posted ${text(d.posted_on)}` : ''}.${way ? ` ${way}` : ''}`;
    }
    case 'reinstated':
      return `Reinstated ${text(d.reinstated_on)} after the revocation of ${text(d.revoked_on)}.`;
    case 'determination_letter':
      return `Determination letter uploaded ${text(d.uploaded_on)} for Form ${text(d.form) || 'unknown'}${d.filed_on ? ` filed ${text(d.filed_on)}` : ''}: check it and accept it or send it back.`;
    case 'link_request':
      return `An applicant gave EIN ${text(d.ein)} at Submit (application ${String(d.application_id ?? '')}); the account was imported from the IRS data and has no users: link them to it.`;
    case 'reinstatement_order':
      return `Paid invoice ${text(d.invoice_number)} for the reinstatement application (revoked ${text(d.revoked_on)}): prepare the application with the group${d.deadline ? ` before ${text(d.deadline)}` : ''}.`;
  }
}
