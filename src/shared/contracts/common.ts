import { z } from 'zod';

/** The answer of a refused payload (docs/requirements/platform.md §3): a message and each field's messages. */
export const validationFailedSchema = z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) });

/** A path's record id as it arrives; the route answers 404 for one that is not a positive integer (recordIdOf). */
export const recordIdParams = z.object({ id: z.string() });
