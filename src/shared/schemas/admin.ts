import { z } from 'zod';
import { INQUIRY_KINDS } from '../lists/subjects.ts';
import { msg, requiredChoice, requiredText } from '../validation.ts';
import { listSearch, listSort } from './list-params.ts';

export const BANNER_KINDS = ['holiday-alert', 'urgent-alert'] as const;
export type BannerKind = (typeof BANNER_KINDS)[number];

/** A checkbox value as forms send it: 1/0, true/false, 'on'. */
export const checkbox = z.preprocess(
  (v) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on',
  z.boolean(),
);

/** Admin banner form (docs/requirements/behaviour.md "Banner"). */
export const bannerSchema = z.object({
  kind: requiredChoice('kind', BANNER_KINDS),
  text: requiredText({ label: 'text', max: 500, lines: 'multi' }),
  is_active: checkbox,
});
export type BannerInput = z.infer<typeof bannerSchema>;

/** A banner as the admin screen lists it; `updated_at` ISO 8601. */
export const adminBannerSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  text: z.string(),
  is_active: z.boolean(),
  updated_at: z.string(),
});
export type AdminBanner = z.infer<typeof adminBannerSchema>;

/** Columns the inbox sorts by (`sort`, "-" for descending); newest first by default. */
export const INBOX_SORTS = ['created_at', 'name', 'kind', 'organization', 'state'] as const;
/** The most rows GET /api/admin/inquiries/export.csv writes (narrow the filters beyond that). */
export const INBOX_EXPORT_CAP = 10_000;

/**
 * Query of the admin inbox: optional kind filter, handled filter, `search` (every word in the
 * sender's name, e-mail or organization), `sort` (INBOX_SORTS), 1-based page.
 */
export const inboxQuery = z.object({
  kind: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : v),
    z.enum(INQUIRY_KINDS, { error: 'The selected kind is invalid.' }).optional(),
  ),
  status: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : v),
    z.enum(['new', 'handled'], { error: msg.in('status') }).optional(),
  ),
  search: listSearch,
  sort: listSort(INBOX_SORTS, '-created_at'),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type InboxQuery = z.infer<typeof inboxQuery>;

export const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) });

/** Mail statuses the outbox filters by. */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
/** Columns the outbox sorts by (`sort`, "-" for descending); newest first by default. */
export const OUTBOX_SORTS = ['created_at', 'to', 'subject', 'status'] as const;
/** The most rows GET /api/admin/outbox/export.csv writes (narrow the filters beyond that). */
export const OUTBOX_EXPORT_CAP = 10_000;

/**
 * Query of the admin outbox: `search` (every word in the recipient's address or the subject),
 * `status` (OUTBOX_STATUSES), `sort` (OUTBOX_SORTS), 1-based page.
 */
export const outboxQuery = z.object({
  search: listSearch,
  status: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(OUTBOX_STATUSES, { error: 'The selected status is invalid.' }).optional(),
  ),
  sort: listSort(OUTBOX_SORTS, '-created_at'),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type OutboxQuery = z.infer<typeof outboxQuery>;

/** The rows per page of admin lists. */
export const ADMIN_PER_PAGE = 25;
