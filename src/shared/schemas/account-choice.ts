import { z } from 'zod';
import { msg } from '../validation.ts';

/**
 * The optional `account_id` an admin sends to act for an account (query for GET, body otherwise);
 * resolveAccount ignores it for everyone else unless it is their own (docs/requirements/platform.md §5.6, docs/requirements/permissions.md).
 */
export const accountChoiceSchema = z.object({
  account_id: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: msg.integer('account id') })
      .int(msg.integer('account id'))
      .positive(msg.integer('account id'))
      .max(2_147_483_647, msg.integer('account id'))
      .optional(),
  ),
});
