import { z } from 'zod';
import { optionalText, requiredEmail } from '../validation.ts';

/**
 * The first (or any) staff user as `npm run admin:create -- --email … [--first-name …]
 * [--last-name …]` takes it (docs/deploy.md "Production settings"). The e-mail is lower-cased.
 */
export const staffUserSchema = z.object({
  email: requiredEmail(),
  first_name: optionalText({ label: 'first name', max: 100 }),
  last_name: optionalText({ label: 'last name', max: 100 }),
});

export type StaffUserInput = z.infer<typeof staffUserSchema>;
