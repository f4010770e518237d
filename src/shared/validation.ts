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

/**
 * What a field holds: one line (an input) or several (a textarea). docs/security.md "Control
 * characters in text".
 */
export type TextLines = 'single' | 'multi';

/**
 * Characters a single-line field refuses, once stripControl has removed the other C0 controls:
 * tab, CR and LF, DEL, the C1 controls U+0080-U+009F (NEL among them), the line and paragraph
 * separators U+2028 and U+2029, and the bidirectional embedding, override and isolate controls
 * U+202A-U+202E and U+2066-U+2069.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const SINGLE_LINE_REFUSED = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
/**
 * Characters a multi-line field refuses: DEL, the C1 controls and the bidirectional controls. Tab,
 * CR, LF and the Unicode line separators are its line breaks and stay.
 */
const MULTI_LINE_REFUSED = /[\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/**
 * Whether a text holds a character its kind of field refuses (docs/security.md "Control characters
 * in text"): a single-line field takes no control character at all and no bidirectional control
 * (U+202A-U+202E, U+2066-U+2069, which make "\u202Ecod.pdf" read "fdp.doc"); a multi-line field
 * keeps tab and line breaks but takes no C1 or bidirectional control. Run it on text stripControl
 * has already cleaned (the other C0 controls are removed there, not refused).
 * @param value the text as sent
 * @param lines 'single' (an input, the default) or 'multi' (a textarea)
 * @returns true when the field must be refused with {@link msg.singleLine} / {@link msg.noControl}
 */
export function hasRefusedControl(value: string, lines: TextLines = 'single'): boolean {
  return (lines === 'single' ? SINGLE_LINE_REFUSED : MULTI_LINE_REFUSED).test(value);
}

/**
 * A text kept without being checked (a wizard draft, docs/wizard.md "Saving as you type") without
 * the characters its kind of field refuses (see hasRefusedControl), so that nothing stored holds
 * them even before the page is checked. Run it on text stripControl has already cleaned.
 * @param value the text as sent
 * @param lines 'single' (the default) or 'multi'
 * @returns the text without those characters
 */
export function dropRefusedControls(value: string, lines: TextLines = 'single'): string {
  return value.replace(new RegExp((lines === 'single' ? SINGLE_LINE_REFUSED : MULTI_LINE_REFUSED).source, 'g'), '');
}

/**
 * The text of one field as every text rule of the kit reads it (docs/security.md "Control
 * characters in text"): the stray C0 controls and DEL removed and lone surrogates replaced
 * (stripControl), then refused when it still holds a character the field's kind refuses
 * (hasRefusedControl: line breaks, tabs and C1 in a single-line field, bidirectional controls in
 * any), else trimmed. Used as the first step of a field's `z.preprocess`, so the refusal is the
 * field's only message: a 422 "The {label} field must be a single line without control
 * characters." (single-line) or "The {label} field must not contain control characters."
 * (multi-line), the same in the browser's form and on the server.
 * @param value the text as sent
 * @param ctx the preprocess step's context; the refusal is added to it, on the field's own path
 * @param label the field's name in the message
 * @param lines 'single' (the default) or 'multi'
 * @returns the cleaned, trimmed text (meaningless when refused: the field fails)
 */
export function checkText(value: string, ctx: z.RefinementCtx, label: string, lines: TextLines = 'single'): string {
  const text = stripControl(value);
  if (hasRefusedControl(text, lines)) {
    ctx.addIssue({ code: 'custom', message: lines === 'single' ? msg.singleLine(label) : msg.noControl(label) });
  }
  return text.trim();
}

/**
 * What a text field's preprocess step gives its rules: checked text (checkText), numbers as text,
 * anything else as it came (refused by the field's own type check).
 */
const asText = (v: unknown, ctx: z.RefinementCtx, label: string, lines: TextLines = 'single') =>
  typeof v === 'string' ? checkText(v, ctx, label, lines) : typeof v === 'number' ? String(v) : v;

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
  /** A single-line field holding a line break, tab, other control or bidirectional control. */
  singleLine: (label: string) => `The ${label} field must be a single line without control characters.`,
  /** A multi-line field holding a C1 or bidirectional control. */
  noControl: (label: string) => `The ${label} field must not contain control characters.`,
};

/**
 * The captcha token every public form may carry (docs/security.md), checked by the
 * captcha plugin; anything but one line of text up to 4,000 characters is refused with a readable
 * message.
 */
export const captchaField = {
  'g-recaptcha-response': z
    .string({ error: 'The captcha response must be text. Please try the captcha again.' })
    .max(4000, 'The captcha response is too long. Please try the captcha again.')
    .refine(
      (s) => !hasRefusedControl(s),
      'The captcha response must be a single line without control characters. Please try the captcha again.',
    )
    .optional(),
};

interface TextOpts {
  label: string;
  max?: number;
  min?: number;
  /** 'single' (an input, the default) or 'multi' (a textarea: line breaks kept); see checkText. */
  lines?: TextLines;
  /**
   * A password: never shown, mailed or kept as typed (only its hash is stored), so it is read with
   * stripControl alone and not refused for line breaks or bidirectional controls, which could
   * otherwise lock a person out of a password they chose.
   */
  secret?: boolean;
}

/** The preprocess step of a text builder: absent is '', text is checked for its kind of field (checkText). */
const textStep =
  ({ label, lines = 'single', secret }: TextOpts) =>
  (v: unknown, ctx: z.RefinementCtx) => {
    if (v === null || v === undefined) return '';
    if (secret) return typeof v === 'string' ? stripControl(v).trim() : typeof v === 'number' ? String(v) : v;
    return asText(v, ctx, label, lines);
  };

/**
 * A required trimmed string of at most `max` (255) characters; single-line unless `lines` is
 * 'multi' (docs/security.md "Control characters in text").
 */
export function requiredText(opts: TextOpts) {
  const { label, max = 255, min } = opts;
  let s = z
    .string({ error: msg.required(label) })
    .min(1, msg.required(label))
    .max(max, msg.max(label, max));
  if (min) s = s.min(min, msg.min(label, min));
  return z.preprocess(textStep(opts), s);
}

/**
 * An optional trimmed string; empty input becomes '' so stored rows never hold null for text.
 * Single-line unless `lines` is 'multi' (docs/security.md "Control characters in text").
 */
export function optionalText(opts: TextOpts) {
  const { label, max = 255 } = opts;
  return z.preprocess(textStep(opts), z.string({ error: msg.string(label) }).max(max, msg.max(label, max)));
}

/** A required e-mail address, lower-cased; one line without control characters. */
export function requiredEmail(label = 'email') {
  return z.preprocess(
    textStep({ label }),
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
    textStep({ label }),
    z
      .string({ error: msg.required(label) })
      .min(1, msg.required(label))
      .pipe(z.enum(values, { error: msg.in(label) })),
  );
}

/** A required calendar date 'YYYY-MM-DD' that exists (2027-02-29 does not): what `<input type="date">` sends. */
export function requiredIsoDate(label: string) {
  return z.preprocess(
    (v, ctx) => (typeof v === 'string' ? checkText(v, ctx, label) : (v ?? '')),
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
    (v, ctx) => {
      const s = typeof v === 'string' ? checkText(v, ctx, label) : v;
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
