import { z } from 'zod';
import { REGION_OPTIONS } from '../lists/regions.ts';
import { CONTACT_SUBJECTS } from '../lists/subjects.ts';
import {
  captchaField,
  checkText,
  msg,
  optionalText,
  requiredChoice,
  requiredEmail,
  requiredInt,
  requiredText,
} from '../validation.ts';

/** What a form sends for a code field: one line (checkText) and trimmed; numbers as text. */
const asCode = (label: string) => (v: unknown, ctx: z.RefinementCtx) =>
  typeof v === 'string' ? checkText(v, ctx, label) : typeof v === 'number' ? String(v) : (v ?? '');

/** EIN as 9 digits with or without the dash (12-3456789); normalised to 9 digits. */
export const einField = (label = 'EIN', required = true) =>
  z.preprocess(
    asCode(label),
    z
      .string({ error: msg.required(label) })
      .refine((s) => !required || s.length > 0, msg.required(label))
      .refine((s) => s === '' || /^\d{2}-?\d{7}$/.test(s), `The ${label} must be 9 digits, like 12-3456789.`)
      .transform((s) => s.replace('-', '')),
  );

/** Optional IRS group exemption number: 4 digits. */
export const genField = (label = 'group exemption number') =>
  z.preprocess(
    asCode(label),
    z
      .string({ error: `The ${label} must be 4 digits.` })
      .refine((s) => s === '' || /^\d{4}$/.test(s), `The ${label} must be 4 digits.`),
  );

export const phone = (label = 'phone', required = true) =>
  (required ? requiredText({ label, max: 40 }) : optionalText({ label, max: 40 })).refine(
    (s) => s === '' || (/^[0-9+().\-\s]{7,40}$/.test(s) && s.replace(/\D/g, '').length >= 7),
    msg.format(label),
  );

/** docs/requirements/product.md tool 7, docs/requirements/entities.md "Contact". */
export const contactSchema = z.object({
  name: requiredText({ label: 'name' }),
  email: requiredEmail(),
  organization: optionalText({ label: 'organization' }),
  subject: requiredChoice('subject', CONTACT_SUBJECTS),
  message: requiredText({ label: 'message', max: 5000, lines: 'multi' }),
  ...captchaField,
});
export type ContactInput = z.infer<typeof contactSchema>;

/** docs/requirements/product.md tool 6, docs/requirements/entities.md "Compliance check". */
export const complianceCheckSchema = z.object({
  name: requiredText({ label: 'name' }),
  email: requiredEmail(),
  phone: phone(),
  organization: requiredText({ label: 'organization' }),
  ein: einField('EIN'),
  group_id: genField(),
  ...captchaField,
});
export type ComplianceCheckInput = z.infer<typeof complianceCheckSchema>;

export { REGION_OPTIONS };

/** docs/requirements/product.md tool 8, docs/requirements/entities.md "Multi-chapter". */
export const multiChapterSchema = z.object({
  name: requiredText({ label: 'name' }),
  email: requiredEmail(),
  phone: phone(),
  organization: requiredText({ label: 'organization' }),
  affiliates: requiredInt('number of affiliates', 1, 100000),
  regions: requiredChoice('regions', REGION_OPTIONS),
  concerns: optionalText({ label: 'biggest concerns', max: 5000, lines: 'multi' }),
  ...captchaField,
});
export type MultiChapterInput = z.infer<typeof multiChapterSchema>;

/** docs/requirements/product.md tool 9, docs/requirements/entities.md "Campus collector": the campus travels as `organization`. */
export const campusReportSchema = z.object({
  email: requiredEmail(),
  organization: requiredText({ label: 'campus' }),
  ...captchaField,
});
export type CampusReportInput = z.infer<typeof campusReportSchema>;

/**
 * docs/requirements/product.md tool 10, docs/requirements/entities.md "Rating": the stars (1-5) and the comments box, sent as `comments` (stored in
 * ratings.comments). `reason`, the name earlier pages sent, is still read when `comments` is absent.
 */
export const ratingSchema = z.preprocess(
  (v) =>
    v && typeof v === 'object' && !('comments' in v) && 'reason' in v
      ? { ...v, comments: (v as { reason: unknown }).reason }
      : v,
  z.object({
    url: requiredText({ label: 'page address', max: 2000 }).refine(
      (s) => s.startsWith('/') && !s.startsWith('//'),
      msg.format('page address'),
    ),
    rating: requiredInt('rating', 1, 5),
    comments: optionalText({ label: 'comments', max: 2000, lines: 'multi' }),
    ...captchaField,
  }),
);
export type RatingInput = z.infer<typeof ratingSchema>;

/** Sign-in form. */
export const loginSchema = z.object({
  email: requiredEmail(),
  password: requiredText({ label: 'password', max: 1000, secret: true }),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** docs/requirements/product.md tool 11: the request for a reset link. */
export const passwordForgotSchema = z.object({ email: requiredEmail(), ...captchaField });
export type PasswordForgotInput = z.infer<typeof passwordForgotSchema>;

export const PASSWORD_MIN_LENGTH = 8;

/** A new password: at least 8 characters with letters and numbers (docs/requirements/validation.md guidance). */
export const newPassword = (label = 'password') =>
  requiredText({ label, max: 1000, secret: true })
    .refine((s) => s.length >= PASSWORD_MIN_LENGTH, msg.min(label, PASSWORD_MIN_LENGTH))
    .refine(
      (s) => /[a-zA-Z]/.test(s) && /\d/.test(s),
      `The ${label} field must contain at least one letter and one number.`,
    );

/** docs/requirements/product.md tool 11, docs/requirements/entities.md "Password reset": token, email, password, password_confirmation. */
export const passwordResetSchema = z
  .object({
    token: requiredText({ label: 'token', max: 200 }),
    email: requiredEmail(),
    password: newPassword(),
    password_confirmation: optionalText({ label: 'password confirmation', max: 1000, secret: true }),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: msg.confirmed('password') });
    }
  });
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;
