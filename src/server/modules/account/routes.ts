import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../plugins/session.ts';
import { getMyAccount } from './get-my-account.ts';

/** The account holder's own area. */
export async function accountRoutes(app: FastifyInstance) {
  app.get('/api/account', { preHandler: requireUser }, async (req) => ({
    user: req.user,
    account: await getMyAccount(app.db, req.user!.accountId),
  }));
}
