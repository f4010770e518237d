import type { z } from 'zod';

// Kept apart from validation.ts (which builds zod schemas) so that the browser can use them
// without loading zod before a form is first checked.

/**
 * The fields whose errors editing `name` clears (docs/requirements/behaviour.md): itself and its confirmation pair, in
 * both directions ('password' ⇄ 'password_confirmation').
 */
export function errorsClearedBy(name: string): string[] {
  const base = name.endsWith('_confirmation') ? name.slice(0, -'_confirmation'.length) : name;
  return [...new Set([name, base, `${base}_confirmation`])];
}

/** Errors keyed by field name, each a list of messages (the first is shown). */
export type FieldErrors = Record<string, string[]>;

/** Words for field keys whose plain spelling would read wrong in a sentence. */
const KEY_WORDS: Record<string, string> = {
  ein: 'EIN',
  gen: 'group exemption number',
  id: 'id',
  'g-recaptcha-response': 'captcha response',
  zip: 'ZIP code',
};

/** A field key as words for a message: 'mailing_zip' → 'mailing ZIP code', 'invoices.0' → 'invoices'. */
function keyAsWords(path: readonly PropertyKey[]): string {
  const key = [...path].reverse().find((p) => typeof p === 'string') ?? '';
  return (
    key
      .split(/[_-]/)
      .map((w) => KEY_WORDS[w] ?? w)
      .join(' ') || 'value'
  );
}

// zod's own messages ("Invalid input: expected string, received object") name types, not fields.
// The schemas give worded messages; this catches any path they missed, so that a client never
// reads a type name or a key (docs/accessibility.md, "Messages").
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized key|Expected )/;

/**
 * Turns a zod error into the 422 `errors` map: field key → messages, the first shown. Root-level
 * issues (a body that is not a set of fields) are keyed by `_`. A message zod wrote itself is
 * replaced by one that names the field in words.
 */
export function toFieldErrors(error: Pick<z.ZodError, 'issues'>): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    const message = !ZOD_DEFAULT.test(issue.message)
      ? issue.message
      : issue.path.length
        ? `The ${keyAsWords(issue.path)} field is invalid.`
        : 'The form could not be read. Please reload the page and try again.';
    (out[key] ??= []).push(message);
  }
  return out;
}
