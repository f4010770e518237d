import { toFieldErrors } from '../shared/validation.ts';
import { ValidationError } from './errors.ts';
import type { z } from 'zod';

/**
 * Parses a request payload with the shared zod schema of that payload (docs/requirements/platform.md §2 rule 1).
 * Unknown fields are dropped by the object schemas, never stored.
 * @returns the parsed, typed value
 * @throws ValidationError (422) with the field messages
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new ValidationError(toFieldErrors(result.error));
  return result.data;
}
