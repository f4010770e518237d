import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { accountUserStoreSchema, accountUserUpdateSchema } from '../../../shared/schemas/account-users.ts';
import { accountChoiceSchema } from '../../../shared/schemas/account-choice.ts';
import { msg } from '../../../shared/validation.ts';
import { notFound, ValidationError } from '../../errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { resolveAccount } from '../accounts/resolve-account.ts';
import { createAccountUser } from './create-account-user.ts';
import { deleteAccountUser } from './delete-account-user.ts';
import { listAccountUsers } from './list-account-users.ts';
import { updateAccountUser } from './update-account-user.ts';

const idOf = (req: FastifyRequest) => {
  const parsed = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }).safeParse(req.params);
  if (!parsed.success) throw notFound('The user');
  return parsed.data.id;
};

/**
 * The account the request acts on (SPEC §6): an account holder's own (any `account_id` they send
 * is ignored); an admin's `account_id` from `source` (query for GET, body otherwise, the query as
 * a fallback), or their own account when they have one.
 * @throws ValidationError 422 on `account_id` for an admin with neither; HttpError 404 for an
 *   unknown account or a holder without one
 */
async function actingAccount(app: FastifyInstance, req: FastifyRequest, source: 'query' | 'body') {
  const user = req.user!;
  let requested: number | undefined;
  if (user.isAdmin) {
    requested = parseInput(accountChoiceSchema, source === 'query' ? req.query : req.body).account_id;
    if (requested === undefined && source === 'body') requested = parseInput(accountChoiceSchema, req.query).account_id;
    if (requested === undefined && user.accountId === null) throw ValidationError.field('account_id', msg.required('account id'));
  }
  return resolveAccount(app.db, user, requested);
}

/** Account users (SPEC §2 "Admin account users", §4, §7 /app/account/users/*, §8): holders manage their own account's users, admins any account's. */
export async function accountUserRoutes(app: FastifyInstance) {
  app.get('/app/account/users/json', { preHandler: requireUser }, async (req) => {
    const { accountId } = await actingAccount(app, req, 'query');
    return listAccountUsers(app.db, accountId);
  });

  app.post('/app/account/users/store', { preHandler: requireUser }, async (req, reply) => {
    const { accountId, onBehalf } = await actingAccount(app, req, 'body');
    const input = parseInput(accountUserStoreSchema, req.body);
    const user = await createAccountUser(app.db, accountId, input, { userId: req.user!.id, onBehalf, ip: req.ip });
    return reply.status(201).send({ message: 'The user was created.', user });
  });

  app.put('/app/account/users/update/:id', { preHandler: requireUser }, async (req) => {
    const id = idOf(req);
    const { accountId, onBehalf } = await actingAccount(app, req, 'body');
    const input = parseInput(accountUserUpdateSchema, req.body);
    const user = await updateAccountUser(app.db, accountId, id, input, { userId: req.user!.id, onBehalf, ip: req.ip });
    return { message: 'The user was saved.', user };
  });

  app.delete('/app/account/users/delete/:id', { preHandler: requireUser }, async (req) => {
    const id = idOf(req);
    const { accountId, onBehalf } = await actingAccount(app, req, 'body');
    await deleteAccountUser(app.db, accountId, id, { userId: req.user!.id, onBehalf, ip: req.ip }, app.providers.storage);
    return { message: 'The user was deleted.' };
  });
}
