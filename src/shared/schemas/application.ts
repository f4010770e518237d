import { z } from 'zod';
import { captchaField, requiredEmail, requiredInt } from '../validation.ts';
import { newPassword } from './public-forms.ts';

/**
 * SPEC §3 "Application start": email, password, level_id, schema, g-recaptcha-response. The level's
 * schema is the server's own; a `schema` sent by the page is ignored.
 */
export const applicationStartSchema = z.object({
  email: requiredEmail(),
  password: newPassword(),
  level_id: requiredInt('level', 1, 2_147_483_647),
  ...captchaField,
});
export type ApplicationStartInput = z.infer<typeof applicationStartSchema>;

/** Application types (SPEC §4 "Wizard"): start-up accounts include tax exemption; maintain accounts already have one. */
export const APPLICATION_TYPES = ['start-up', 'maintain'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];
