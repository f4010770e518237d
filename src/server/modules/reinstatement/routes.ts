import { reinstatementContracts } from '../../../shared/contracts/reinstatement.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract } from '../../contracts.ts';
import { checkReinstatementItem } from './check-item.ts';
import { orderReinstatement } from './order-reinstatement.ts';
import { viewReinstatement } from './view-reinstatement.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The way back for a revoked organization (docs/irs-standing.md "Reinstatement", docs/roles.md
 * "Reinstatement checklist"). Today is the UTC calendar date.
 * - `GET /api/account/reinstatement` (any user of the account; staff any account with `account_id`)
 *   → the Rev. Proc. 2014-11 paths with their deadlines and checklist, and the level that sells the
 *   application (view-reinstatement.ts).
 * - `PUT /api/account/reinstatement` (the same; staff with `account_id` in the body)
 *   `{ item, checked }` → `{ view, message }` (check-item.ts, audited); 422 for an unknown item or an
 *   account that is not revoked.
 * - `POST /api/account/reinstatement/order` (the same; staff with `account_id` in the body) →
 *   `{ order, created, message }`: one invoice at the "Reinstatement application" level's price per
 *   revocation, paid on /app/payments (order-reinstatement.ts, audited); 409 for an account that is
 *   not revoked or when no such level is offered.
 * Visitors 401; a user naming another account 404, as for one that does not exist.
 */
export async function reinstatementRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...fromContract(reinstatementContracts.view),
    handler: async (req) => viewReinstatement(app.db, req.account.accountId, req.actor, calendarDate(new Date())),
  });
  api.route({
    ...fromContract(reinstatementContracts.check),
    handler: async (req) => {
      const { accountId } = req.account;
      const today = calendarDate(new Date());
      const message = await checkReinstatementItem(app.db, accountId, req.body, req.actor, today);
      const view = await viewReinstatement(app.db, accountId, req.actor, today);
      return { view, message };
    },
  });
  api.route({
    ...fromContract(reinstatementContracts.order),
    handler: async (req) => orderReinstatement(app.db, req.account.accountId, req.actor, calendarDate(new Date())),
  });
}
