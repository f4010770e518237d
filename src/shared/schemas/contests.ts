import { z } from 'zod';
import { msg, optionalText, requiredEmail, requiredText, stripControl } from '../validation.ts';

/** The two contests (SPEC tool 4), each with its own page that its form posts to. */
export const CONTESTS = ['photo', 'video'] as const;
export type Contest = (typeof CONTESTS)[number];

/** SPEC §3 "Contest entry" type: a booster club, school staff, or empty (someone else). */
export const ENTRANT_TYPES = ['booster_club', 'school_staff', ''] as const;
export type EntrantType = (typeof ENTRANT_TYPES)[number];
export const ENTRANT_TYPE_LABELS: Record<EntrantType, string> = {
  booster_club: 'Booster club',
  school_staff: 'School staff',
  '': 'Parent, student or fan',
};

/** SPEC §9: entries counted per organization or e-mail. */
export const COUNTED_ENTRIES = 3;

/** SPEC §5 "Contest required fields": message and file are required for these types. */
export const needsMessageAndFile = (type: string) => type === 'booster_club' || type === 'school_staff';

/** SPEC §8 "Contest" texts. */
export const CONTEST_TEXT = {
  received: 'We have received your entry.',
  footer: (contest: Contest) => `We love your ${contest === 'photo' ? 'images' : 'videos'}. Keep it up!`,
  limitReachedTitle: 'Limit reached!',
  limitReached: 'It looks like we have already received three entries for this organization or email address.',
  limitTitle: 'Limit!',
  limit: 'We love your videos, but it looks like we have already received three entries from you.',
  limitFooter: "You can submit more, they just won't count.",
  uploading: 'Uploading... This may take a minute.',
} as const;

/**
 * The text fields of a contest entry (SPEC §3); the file travels beside them in the multipart
 * body. message is required for booster clubs and school staff (SPEC §5).
 */
export const contestEntrySchema = z
  .object({
    organization: requiredText({ label: 'organization' }),
    email: requiredEmail(),
    type: z.preprocess(
      (v) => (typeof v === 'string' ? stripControl(v).trim() : v ?? ''),
      z.enum(ENTRANT_TYPES, { error: msg.in('type') }),
    ),
    message: optionalText({ label: 'message', max: 2000 }),
    is_member: z.preprocess((v) => (v === true || v === 1 || v === '1' || v === 'on' ? 1 : 0), z.union([z.literal(0), z.literal(1)])),
  })
  .superRefine((v, ctx) => {
    if (needsMessageAndFile(v.type) && v.message === '') ctx.addIssue({ code: 'custom', path: ['message'], message: msg.required('message') });
  });
export type ContestEntryInput = z.infer<typeof contestEntrySchema>;

/** What a saved entry answers: `has_max_submissions` when it is past the counted three (SPEC §7). */
export interface ContestEntrySaved {
  id: number;
  counts: boolean;
  has_max_submissions: boolean;
}
