import { groupHomeContracts } from '../../../shared/contracts/group-home.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract } from '../../contracts.ts';
import { getHome } from './get-home.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The group's home (docs/app-home.md): `GET /api/app/home` → the summary of get-home.ts
 * (shared/schemas/home.ts). Any user of the account reads their own account's (an `account_id` a
 * holder sends is ignored); staff name any account with `?account_id=` (acting on its behalf,
 * audited), 422 when they name none and have no account; visitors 401; an unknown account 404.
 */
export async function homeRoutes(app: FastifyInstance) {
  const route = fromContract(groupHomeContracts.home);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...route,
    config: { ...route.config, accountScope: { holderChoice: 'ignored', optional: true } },
    handler: async (req) =>
      getHome(app.db, {
        user: req.currentUser,
        acting: req.actingAccount,
        today: calendarDate(new Date()),
        ip: req.ip,
      }),
  });
}
