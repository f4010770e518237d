import { z } from 'zod';
import { accountChoiceSchema } from '../schemas/account-choice.ts';
import { filingExtensionRowSchema, filingExtensionSchema, filingExtensionsViewSchema } from '../schemas/extensions.ts';
import { actingAccountField, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/**
 * Form 8868 extensions of an account's returns (docs/irs-standing.md "Extensions", docs/roles.md
 * "Form 8868 extensions"): any user of the account lists and records its own, staff any account's
 * (`account_id`, audited as on its behalf); only staff remove one.
 */
export const extensionContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/account/extensions',
    access: 'account-user',
    scoped: true,
    summary: "The account's recorded Form 8868 extensions and the return periods one can be recorded for",
    querystring: accountChoiceSchema,
    response: { 200: filingExtensionsViewSchema },
  }),
  record: defineContract({
    method: 'POST',
    url: '/api/account/extensions',
    access: 'account-user',
    scoped: true,
    summary: 'Record a Form 8868 extension of one of the account’s returns (audited)',
    body: filingExtensionSchema.safeExtend({ account_id: actingAccountField }),
    response: {
      201: z.object({ extension: filingExtensionRowSchema, message: z.string() }),
      422: validationFailedSchema,
    },
  }),
  remove: defineContract({
    method: 'DELETE',
    url: '/api/admin/accounts/:id/extensions/:extensionId',
    access: 'staff',
    summary: 'Remove a Form 8868 extension recorded for an account (audited)',
    params: z.object({ id: z.string(), extensionId: z.string() }),
    response: { 200: z.object({ message: z.string() }) },
  }),
};
