import { z } from 'zod';
import { requiredChoice, requiredText } from '../validation.ts';
import { INQUIRY_KINDS } from '../lists/subjects.ts';

export const BANNER_KINDS = ['holiday-alert', 'urgent-alert'] as const;
export type BannerKind = (typeof BANNER_KINDS)[number];

/** A checkbox value as forms send it: 1/0, true/false, 'on'. */
export const checkbox = z.preprocess((v) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on', z.boolean());

/** Admin banner form (SPEC §4 "Banner"). */
export const bannerSchema = z.object({
  kind: requiredChoice('kind', BANNER_KINDS),
  text: requiredText({ label: 'text', max: 500 }),
  is_active: checkbox,
});
export type BannerInput = z.infer<typeof bannerSchema>;

/** Query of the admin inbox: optional kind filter, handled filter, 1-based page. */
export const inboxQuery = z.object({
  kind: z.preprocess((v) => (v === '' || v === undefined ? undefined : v), z.enum(INQUIRY_KINDS, { error: 'The selected kind is invalid.' }).optional()),
  status: z.preprocess((v) => (v === '' || v === undefined ? undefined : v), z.enum(['new', 'handled']).optional()),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type InboxQuery = z.infer<typeof inboxQuery>;

export const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) });

/** The rows per page of admin lists. */
export const ADMIN_PER_PAGE = 25;
