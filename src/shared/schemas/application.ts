import { z } from 'zod';
import { captchaField, requiredEmail, requiredInt } from '../validation.ts';
import { newPassword } from './public-forms.ts';

/**
 * docs/requirements/entities.md "Application start": email, password, level_id, schema, g-recaptcha-response. The level's
 * schema is the server's own; a `schema` sent by the page is ignored.
 */
export const applicationStartSchema = z.object({
  email: requiredEmail(),
  password: newPassword(),
  level_id: requiredInt('level', 1, 2_147_483_647),
  ...captchaField,
});
export type ApplicationStartInput = z.infer<typeof applicationStartSchema>;

/** Application types (docs/requirements/behaviour.md "Wizard"): start-up accounts include tax exemption; maintain accounts already have one. */
export const APPLICATION_TYPES = ['start-up', 'maintain'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

/** Most characters a draft save keeps of one answer: far above any field's own `max` rule, a cap on junk. */
export const DRAFT_VALUE_MAX = 5000;

/**
 * A draft save of the wizard (docs/wizard.md "Saving as you type"): the page being typed on and its
 * answers as they stand, unchecked. Only the value fields of that page are kept (see saveWizardDraft).
 */
export const wizardDraftSchema = z.looseObject({
  page: requiredInt('page', 1, 100),
});

/**
 * Wizard Next carries the page number; Submit carries submit=1 (docs/requirements/calls.md). The
 * answers of the page travel beside them and are checked by the level's own field rules.
 */
export const wizardPageSchema = z.looseObject({
  page: z.coerce.number().int().min(1).max(100).optional(),
  submit: z.preprocess((v) => v === 1 || v === '1' || v === true, z.boolean()).optional(),
});
