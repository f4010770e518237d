import { z } from 'zod';
import { parseMemberMinimum } from '../bylaws/member-minimum.ts';
import { BYLAW_VARIANTS, SCHOOL_CLAUSES, type BylawVariant, type SchoolClause } from '../bylaws/variants.ts';
import { captchaField, checkText, msg, requiredText } from '../validation.ts';

export {
  BYLAW_PAGE_PATHS,
  BYLAW_VARIANTS,
  SCHOOL_CLAUSES,
  type BylawVariant,
  type SchoolClause,
} from '../bylaws/variants.ts';

/** Checkbox answers travel as 1 or 0 (docs/requirements/entities.md); true/'1'/'on' read as 1. */
const flag = z.preprocess(
  (v) => (v === true || v === 1 || v === '1' || v === 'on' || v === 'true' ? 1 : 0),
  z.union([z.literal(0), z.literal(1)]),
);

/** A month from the 12-entry, 0-based month list (docs/requirements/entities.md, docs/requirements/constants.md). */
const month = (label: string) =>
  z.preprocess(
    (v, ctx) => {
      const s = typeof v === 'string' ? checkText(v, ctx, label) : v;
      if (s === '' || s === null || s === undefined) return undefined;
      return typeof s === 'string' ? (/^\d{1,2}$/.test(s) ? Number(s) : NaN) : s;
    },
    z
      .number({ error: (iss) => (iss.input === undefined ? msg.required(label) : msg.in(label)) })
      .int(msg.in(label))
      .min(0, msg.in(label))
      .max(11, msg.in(label)),
  );

/** A member minimum (docs/requirements/validation.md "Bylaws hints"): kept as typed, checked by {@link parseMemberMinimum}. */
const memberMinimum = (label: string) =>
  z.preprocess(
    (v, ctx) => (typeof v === 'string' ? checkText(v, ctx, label) : typeof v === 'number' ? String(v) : ''),
    z
      .string()
      .max(20, msg.max(label, 20))
      .superRefine((value, ctx) => {
        const parsed = parseMemberMinimum(value, label);
        if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
      }),
  );

const version = (variant: BylawVariant) =>
  z.preprocess(
    (v, ctx) =>
      v === undefined || v === null || v === '' ? variant : typeof v === 'string' ? checkText(v, ctx, 'version') : v,
    z.literal(variant, { error: msg.in('version') }),
  );

const common = {
  name: requiredText({ label: 'organization name', max: 150 }),
  purpose: requiredText({ label: 'purpose', max: 2000, lines: 'multi' }),
  fiscal_year_end: month('fiscal year end'),
  is_highlighted: flag,
  ...captchaField,
};

const full = {
  ...common,
  facility: requiredText({ label: 'school or facility', max: 150 }),
  meeting_attendee_minimum: memberMinimum('meeting attendee minimum'),
  meeting_request_minimum: memberMinimum('meeting request minimum'),
  nomination_month: month('nomination month'),
  annual_meeting_month: month('annual meeting month'),
};

/** docs/requirements/entities.md "Bylaw (standard)". */
export const bylawStandardSchema = z.object({ version: version('standard'), ...full, is_school: flag });

/** docs/requirements/entities.md "Bylaw (short variant)": version, name, purpose, fiscal_year_end, is_highlighted. */
export const bylawShortSchema = z.object({ version: version('short'), ...common });

/**
 * docs/requirements/entities.md "Bylaw (school variant)": is_school is always 1; school_official_title is required only
 * when at least one clause is ticked (docs/requirements/validation.md).
 */
export const bylawSchoolSchema = z
  .object({
    version: version('school'),
    ...full,
    is_school: z.preprocess(() => 1, z.literal(1)),
    school_official_title: z.preprocess(
      (v, ctx) => (typeof v === 'string' ? checkText(v, ctx, 'school official title') : ''),
      z.string().max(100, msg.max('school official title', 100)),
    ),
    ...(Object.fromEntries(SCHOOL_CLAUSES.map((c) => [c, flag])) as Record<SchoolClause, typeof flag>),
  })
  .superRefine((v, ctx) => {
    if (SCHOOL_CLAUSES.some((c) => v[c] === 1) && v.school_official_title === '') {
      ctx.addIssue({ code: 'custom', path: ['school_official_title'], message: msg.required('school official title') });
    }
  });

export type BylawStandardInput = z.infer<typeof bylawStandardSchema>;
export type BylawShortInput = z.infer<typeof bylawShortSchema>;
export type BylawSchoolInput = z.infer<typeof bylawSchoolSchema>;
/** The answers of any variant, as stored in `bylaws.answers` (captcha token removed). */
export type BylawAnswers = Partial<Omit<BylawSchoolInput, 'g-recaptcha-response'>> &
  Pick<BylawShortInput, 'version' | 'name' | 'purpose' | 'fiscal_year_end' | 'is_highlighted'>;

export const BYLAW_SCHEMAS = {
  standard: bylawStandardSchema,
  school: bylawSchoolSchema,
  short: bylawShortSchema,
} as const;

/** What a successful create or update answers (docs/requirements/calls.md: action, url, bylaw.hash). */
export const bylawSavedSchema = z.object({
  /** Where later saves are PUT. */
  action: z.string(),
  /** The page address that reopens these answers. */
  url: z.string(),
  bylaw: z.object({
    hash: z.string(),
    variant: z.enum(BYLAW_VARIANTS),
    /** Absolute address of the .docx (GET /bylaws-generator/download/{hash}). */
    download_url: z.string(),
    /** The built-in HTML preview page. */
    preview_url: z.string(),
    /**
     * The online office-document viewer to which `?src=` plus the download address (with a random
     * cache-busting value) is added; null when the site is not publicly reachable.
     */
    viewer: z.string().nullable(),
  }),
});
export type BylawSaved = z.infer<typeof bylawSavedSchema>;

/** A saved bylaw reopened for editing: its variant and answers. */
export const bylawForEditingSchema = bylawSavedSchema.extend({ answers: z.record(z.string(), z.unknown()) });
export type BylawForEditing = z.infer<typeof bylawForEditingSchema>;
