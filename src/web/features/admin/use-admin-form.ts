import { useState } from 'react';
import { toFieldErrors } from '../../../shared/validation.ts';
import { toastFailure } from '../../lib/feedback.tsx';
import { HttpFailure } from '../../lib/http.ts';
import type { z } from 'zod';

/**
 * Values and first error per field of a small admin form checked with its shared zod schema
 * (the same one the route parses). `change` clears the errors of the fields it sets; `check`
 * returns true when the schema accepts the values, showing the messages otherwise; `fail` shows a
 * 422's field errors or toasts "That didn't work.".
 */
export function useAdminForm<V extends Record<string, unknown>>(empty: V, schema: z.ZodType) {
  const [values, setValues] = useState<V>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const first = (all: Record<string, string[]>) => Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v[0]]));
  return {
    values,
    errors,
    reset(next: V = empty) {
      setValues(next);
      setErrors({});
    },
    change(patch: Partial<V>, clears: string[] = []) {
      setValues((v) => ({ ...v, ...patch }));
      setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k in patch) && !clears.includes(k))));
    },
    check(): boolean {
      const parsed = schema.safeParse(values);
      if (parsed.success) return true;
      setErrors(first(toFieldErrors(parsed.error)));
      return false;
    },
    fail(err: unknown) {
      if (err instanceof HttpFailure && Object.keys(err.errors).length) setErrors(first(err.errors));
      else showFailure(err);
    },
  };
}

/** Toasts a failed call: the server's message for a refusal (4xx), "That didn't work." otherwise. */
export function showFailure(err: unknown) {
  toastFailure(err instanceof HttpFailure && err.status !== 0 && err.status < 500 ? err.message : undefined);
}
