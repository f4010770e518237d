import { z } from 'zod';
import { parseIsoDate } from './rules/compliance-calendar.ts';

/**
 * Field builders whose messages read like the server's (docs/requirements/platform.md §3): 'The email field is required.'
 * Every builder accepts what an HTML form sends (strings, possibly empty) and yields a clean value.
 * A label defaults to the field name with underscores turned into spaces.
 */

/**
 * Removes NUL and other C0 control characters except tab and newlines; they are never meaningful
 * input. Lone UTF-16 surrogates become U+FFFD: PostgreSQL rejects them in JSON (docs/requirements/platform.md §5.9).
 */
export function stripControl(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
  );
}

const asText = (v: unknown) => (typeof v === 'string' ? stripControl(v).trim() : typeof v === 'number' ? String(v) : v);

export const msg = {
  required: (label: string) => `The ${label} field is required.`,
  string: (label: string) => `The ${label} field must be a string.`,
  email: (label: string) => `The ${label} field must be a valid email address.`,
  max: (label: string, n: number) => `The ${label} field must not be greater than ${n} characters.`,
  min: (label: string, n: number) => `The ${label} field must be at least ${n} characters.`,
  integer: (label: string) => `The ${label} field must be an integer.`,
  between: (label: string, a: number, b: number) => `The ${label} field must be between ${a} and ${b}.`,
  in: (label: string) => `The selected ${label} is invalid.`,
  confirmed: (label: string) => `The ${label} field confirmation does not match.`,
  format: (label: string) => `The ${label} field format is invalid.`,
};

/**
 * The captcha token every public form may carry (docs/security.md), checked by the
 * captcha plugin; anything but text up to 4,000 characters is refused with a readable message.
 */
export const captchaField = {
  'g-recaptcha-response': z
    .string({ error: 'The captcha response must be text. Please try the captcha again.' })
    .max(4000, 'The captcha response is too long. Please try the captcha again.')
    .optional(),
};

interface TextOpts {
  label: string;
  max?: number;
  min?: number;
}

/** A required trimmed string of at most `max` (255) characters. */
export function requiredText({ label, max = 255, min }: TextOpts) {
  let s = z
    .string({ error: msg.required(label) })
    .min(1, msg.required(label))
    .max(max, msg.max(label, max));
  if (min) s = s.min(min, msg.min(label, min));
  return z.preprocess((v) => (v === null || v === undefined ? '' : asText(v)), s);
}

/** An optional trimmed string; empty input becomes '' so stored rows never hold null for text. */
export function optionalText({ label, max = 255 }: TextOpts) {
  return z.preprocess(
    (v) => (v === null || v === undefined ? '' : asText(v)),
    z.string({ error: msg.string(label) }).max(max, msg.max(label, max)),
  );
}

/** A required e-mail address, lower-cased. */
export function requiredEmail(label = 'email') {
  return z.preprocess(
    (v) => (v === null || v === undefined ? '' : asText(v)),
    z
      .string({ error: msg.required(label) })
      .min(1, msg.required(label))
      .max(255, msg.max(label, 255))
      .pipe(z.email({ error: msg.email(label) }))
      .transform((s) => s.toLowerCase()),
  );
}

/** A required value among `values` (select and radio inputs). */
export function requiredChoice<T extends string>(label: string, values: readonly [T, ...T[]]) {
  return z.preprocess(
    (v) => (v === null || v === undefined ? '' : asText(v)),
    z
      .string({ error: msg.required(label) })
      .min(1, msg.required(label))
      .pipe(z.enum(values, { error: msg.in(label) })),
  );
}

/** A required calendar date 'YYYY-MM-DD' that exists (2027-02-29 does not): what `<input type="date">` sends. */
export function requiredIsoDate(label: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' ? stripControl(v).trim() : (v ?? '')),
    z
      .string({ error: msg.required(label) })
      .min(1, msg.required(label))
      .refine((s) => {
        try {
          parseIsoDate(s);
          return true;
        } catch {
          return false;
        }
      }, `The ${label} field must be a valid date.`),
  );
}

/** A required integer from `min` to `max`; numeric strings are accepted. */
export function requiredInt(label: string, min: number, max: number) {
  return z.preprocess(
    (v) => {
      const s = typeof v === 'string' ? stripControl(v).trim() : v;
      if (s === '' || s === null || s === undefined) return undefined;
      // Only plain decimal digits count as a whole number ('0x10' and '1e2' do not).
      return typeof s === 'string' ? (/^-?\d+$/.test(s) ? Number(s) : NaN) : s;
    },
    z
      .number({ error: (iss) => (iss.input === undefined ? msg.required(label) : msg.integer(label)) })
      .int(msg.integer(label))
      .min(min, msg.between(label, min, max))
      .max(max, msg.between(label, min, max)),
  );
}

export { errorsClearedBy, toFieldErrors, type FieldErrors } from './field-errors.ts';
