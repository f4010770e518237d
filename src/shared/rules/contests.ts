// Without zod, so that the contest pages can show their form before loading the schema.

/** The two contests (docs/requirements/product.md tool 4), each with its own page that its form posts to. */
export const CONTESTS = ['photo', 'video'] as const;
export type Contest = (typeof CONTESTS)[number];

/** docs/requirements/entities.md "Contest entry" type: a booster club, school staff, or empty (someone else). */
export const ENTRANT_TYPES = ['booster_club', 'school_staff', ''] as const;
export type EntrantType = (typeof ENTRANT_TYPES)[number];
export const ENTRANT_TYPE_LABELS: Record<EntrantType, string> = {
  booster_club: 'Booster club',
  school_staff: 'School staff',
  '': 'Parent, student or fan',
};

/** docs/requirements/constants.md: entries counted per organization or e-mail. */
export const COUNTED_ENTRIES = 3;

/** docs/requirements/validation.md "Contest required fields": message and file are required for these types. */
export const needsMessageAndFile = (type: string) => type === 'booster_club' || type === 'school_staff';

/** docs/requirements/errors.md "Contest" texts. */
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
