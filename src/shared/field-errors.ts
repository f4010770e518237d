import type { z } from 'zod';

// Kept apart from validation.ts (which builds zod schemas) so that the browser can use them
// without loading zod before a form is first checked.

/**
 * The fields whose errors editing `name` clears (SPEC §4): itself and its confirmation pair, in
 * both directions ('password' ⇄ 'password_confirmation').
 */
export function errorsClearedBy(name: string): string[] {
  const base = name.endsWith('_confirmation') ? name.slice(0, -'_confirmation'.length) : name;
  return [...new Set([name, base, `${base}_confirmation`])];
}

/** Errors keyed by field name, each a list of messages (the first is shown). */
export type FieldErrors = Record<string, string[]>;

/** Turns a zod error into the 422 `errors` map of DESIGN §3. Root-level issues are keyed by `_`. */
export function toFieldErrors(error: Pick<z.ZodError, 'issues'>): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
