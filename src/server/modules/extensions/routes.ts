import { extensionContracts } from '../../../shared/contracts/extensions.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { EXTENSION_MESSAGES } from '../../../shared/schemas/extensions.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { listExtensions } from './list-extensions.ts';
import { recordExtension } from './record-extension.ts';
import { removeExtension } from './remove-extension.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Form 8868 extensions (docs/irs-standing.md "Extensions", docs/roles.md "Form 8868 extensions").
 * Dates 'YYYY-MM-DD' (today: the UTC calendar date), periods 'YYYY-MM'.
 * - `GET /api/account/extensions` (any user of the account; staff any account with `account_id`)
 *   → the recorded extensions and what the form may offer (list-extensions.ts).
 * - `POST /api/account/extensions` (the same) `{ period_end, return_form, filed_on, extended_due }`
 *   → 201 `{ extension, message }` (record-extension.ts, audited); 422 on a rule.
 * - `DELETE /api/admin/accounts/:id/extensions/:extensionId` (staff) → `{ message }`
 *   (remove-extension.ts, audited); 404 for an extension the account does not have.
 * Visitors 401; a user naming another account 404, as for one that does not exist; staff-only
 * routes 403 to everyone else.
 */
export async function extensionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...fromContract(extensionContracts.list),
    handler: async (req) => listExtensions(app.db, req.account.accountId, req.actor, calendarDate(new Date())),
  });
  api.route({
    ...fromContract(extensionContracts.record),
    handler: async (req, reply) => {
      const extension = await recordExtension(
        app.db,
        req.account.accountId,
        req.body,
        req.actor,
        calendarDate(new Date()),
      );
      return reply
        .status(201)
        .send({ extension, message: EXTENSION_MESSAGES.recorded(extension.period_end, extension.extended_due) });
    },
  });
  api.route({
    ...fromContract(extensionContracts.remove),
    handler: async (req) => {
      const accountId = recordIdOf(req.params.id, 'The account');
      const extensionId = recordIdOf(req.params.extensionId, 'The extension');
      const { periodEnd } = await removeExtension(app.db, accountId, extensionId, req.actor);
      return { message: EXTENSION_MESSAGES.removed(periodEnd) };
    },
  });
}
