import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../plugins/session.ts';
import { getMyAccount } from './get-my-account.ts';
import { ACCOUNT_DATA_ACTION, getEditableFields, saveEditableFields } from './editable-fields.ts';

/** The account holder's own area. */
export async function accountRoutes(app: FastifyInstance) {
  app.get('/api/account', { preHandler: requireUser }, async (req) => ({
    user: req.user,
    account: await getMyAccount(app.db, req.user!.accountId),
  }));

  app.get('/app/fields/editable', { preHandler: requireUser }, async (req) => getEditableFields(app.db, req.user!.accountId));
  app.put(ACCOUNT_DATA_ACTION, { preHandler: requireUser }, async (req) =>
    saveEditableFields(app.db, req.user!.accountId, req.user!.id, (req.body ?? {}) as Record<string, unknown>, req.ip));
}
