import { z } from 'zod';
import { ENTRANT_TYPES, needsMessageAndFile } from '../rules/contests.ts';
import { checkText, msg, optionalText, requiredEmail, requiredText } from '../validation.ts';
import { listSearch, listSort } from './list-params.ts';

export {
  CONTESTS,
  CONTEST_TEXT,
  COUNTED_ENTRIES,
  ENTRANT_TYPES,
  ENTRANT_TYPE_LABELS,
  needsMessageAndFile,
  type Contest,
  type EntrantType,
} from '../rules/contests.ts';

/**
 * The text fields of a contest entry (docs/requirements/entities.md); the file travels beside them in the multipart
 * body. message is required for booster clubs and school staff (docs/requirements/validation.md).
 */
export const contestEntrySchema = z
  .object({
    organization: requiredText({ label: 'organization' }),
    email: requiredEmail(),
    type: z.preprocess(
      (v, ctx) => (typeof v === 'string' ? checkText(v, ctx, 'type') : (v ?? '')),
      z.enum(ENTRANT_TYPES, { error: msg.in('type') }),
    ),
    message: optionalText({ label: 'message', max: 2000, lines: 'multi' }),
    is_member: z.preprocess(
      (v) => (v === true || v === 1 || v === '1' || v === 'on' ? 1 : 0),
      z.union([z.literal(0), z.literal(1)]),
    ),
  })
  .superRefine((v, ctx) => {
    if (needsMessageAndFile(v.type) && v.message === '')
      ctx.addIssue({ code: 'custom', path: ['message'], message: msg.required('message') });
  });
export type ContestEntryInput = z.infer<typeof contestEntrySchema>;

/**
 * What an entry answers: `has_max_submissions` when it is past the counted three (docs/requirements/calls.md); such an
 * entry is not kept, so its `id` is null.
 */
export const contestEntrySavedSchema = z.object({
  id: z.number().int().nullable(),
  counts: z.boolean(),
  has_max_submissions: z.boolean(),
});
export type ContestEntrySaved = z.infer<typeof contestEntrySavedSchema>;

/** Columns the staff's contest entries list sorts by (`sort`, "-" for descending); newest first by default. */
export const CONTEST_ENTRY_SORTS = ['created_at', 'organization', 'type', 'counts'] as const;
/** The most rows GET /api/admin/contests/:contest/entries/export.csv writes. */
export const CONTEST_ENTRIES_EXPORT_CAP = 10_000;

/**
 * Query of GET /api/admin/contests/:contest/entries and its CSV export (docs/staff-lists.md):
 * `counted` 'yes' (the counted three of each entrant) or 'no' (the extras), empty for all;
 * `search` (every word in the organization or e-mail); `sort` (CONTEST_ENTRY_SORTS); 1-based page.
 */
export const contestEntriesQuery = z.object({
  counted: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(['yes', 'no'], { error: 'The selected counted filter is invalid.' }).optional(),
  ),
  search: listSearch,
  sort: listSort(CONTEST_ENTRY_SORTS, '-created_at'),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type ContestEntriesQuery = z.output<typeof contestEntriesQuery>;
