import { z } from 'zod';
import { accountChoiceSchema } from '../schemas/account-choice.ts';
import {
  reinstatementItemSchema,
  reinstatementOrderSchema,
  reinstatementViewSchema,
} from '../schemas/reinstatement.ts';
import { actingAccountField, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/**
 * The way back for a revoked organization (docs/irs-standing.md "Reinstatement", docs/roles.md
 * "Reinstatement checklist"): any user of the account reads its paths, ticks its checklist and
 * orders the reinstatement application (an invoice, paid like any other); staff any account's
 * (`account_id`, audited as on its behalf).
 */
export const reinstatementContracts = {
  view: defineContract({
    method: 'GET',
    url: '/api/account/reinstatement',
    access: 'account-user',
    scoped: true,
    summary: 'The Rev. Proc. 2014-11 paths back for a revoked organization, with their deadlines and checklist',
    querystring: accountChoiceSchema,
    response: { 200: reinstatementViewSchema },
  }),
  check: defineContract({
    method: 'PUT',
    url: '/api/account/reinstatement',
    access: 'account-user',
    scoped: true,
    summary: 'Tick or untick an item of the reinstatement checklist (audited)',
    body: reinstatementItemSchema.safeExtend({ account_id: actingAccountField }),
    response: { 200: z.object({ view: reinstatementViewSchema, message: z.string() }), 422: validationFailedSchema },
  }),
  order: defineContract({
    method: 'POST',
    url: '/api/account/reinstatement/order',
    access: 'account-user',
    scoped: true,
    summary:
      "Order the reinstatement application: one invoice at the level's price per revocation (a repeat answers the first order)",
    body: z.object({ account_id: actingAccountField }),
    response: {
      200: z.object({ order: reinstatementOrderSchema, created: z.boolean(), message: z.string() }),
      422: validationFailedSchema,
    },
  }),
};
