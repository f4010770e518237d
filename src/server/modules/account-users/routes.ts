import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { accountUserStoreSchema, accountUserUpdateSchema } from '../../../shared/schemas/account-users.ts';
import { accountChoiceSchema } from '../../../shared/schemas/account-choice.ts';
import { msg } from '../../../shared/validation.ts';
import { notFound, ValidationError } from '../../errors.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { hashId, requireUser } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { resolveAccount } from '../accounts/resolve-account.ts';
import { getCompany } from '../content/get-company.ts';
import type { NoticeSender } from './account-user-notices.ts';
import type { AccountUserActor } from './account-user-roles.ts';
import { createAccountUser } from './create-account-user.ts';
import { deleteAccountUser } from './delete-account-user.ts';
import { listAccountUsers } from './list-account-users.ts';
import { updateAccountUser } from './update-account-user.ts';
import { resendInvitation } from './invite-account-user.ts';
import { INVITATION_TEXT } from '../../../shared/schemas/account-users.ts';

const idOf = (req: FastifyRequest) => {
  const parsed = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }).safeParse(req.params);
  if (!parsed.success) throw notFound('The user');
  return parsed.data.id;
};

/**
 * The account the request acts on (docs/requirements/permissions.md): an account holder's own (any `account_id` they send
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

/** The signed-in caller as the services see them (docs/roles.md). */
function actorOf(req: FastifyRequest, onBehalf: boolean): AccountUserActor {
  const user = req.user!;
  return {
    userId: user.id, name: [user.firstName, user.lastName].filter(Boolean).join(' '), email: user.email,
    isAdmin: user.isAdmin, onBehalf, ip: req.ip, sessionIdHash: hashId(req.sessionToken),
  };
}

/** Who the notices say they come from, and whom to contact. */
async function senderOf(app: FastifyInstance): Promise<NoticeSender> {
  const company = await getCompany(app.db);
  return { companyName: company.name, companyContact: company.email || company.phone, publicUrl: app.config.publicUrl };
}

/**
 * Account users (docs/requirements/screens.md "Admin account users", docs/requirements/behaviour.md, docs/requirements/calls.md /app/account/users/*, docs/requirements/errors.md), under the roles
 * of docs/roles.md: any user of the account reads the list; the account's primary user and staff
 * (any account, through account_id, audited) add, edit, delete and make primary; other users edit
 * only their own record. Store and update check a current password, so they share the sign-in's
 * rate limit per address.
 */
export async function accountUserRoutes(app: FastifyInstance) {
  const passwordLimit = { rateLimit: perMinute(app.config.rateLimits.loginPerMinute) };

  // Any user of the account; staff for any account.
  app.get('/app/account/users/json', { preHandler: requireUser }, async (req) => {
    const { accountId, onBehalf } = await actingAccount(app, req, 'query');
    return listAccountUsers(app.db, accountId, actorOf(req, onBehalf));
  });

  // The account's primary user; staff.
  app.post('/app/account/users/store', { preHandler: requireUser, config: passwordLimit }, async (req, reply) => {
    const { accountId, onBehalf } = await actingAccount(app, req, 'body');
    const input = parseInput(accountUserStoreSchema, req.body);
    const user = await createAccountUser(app.db, accountId, input, actorOf(req, onBehalf), await senderOf(app));
    return reply.status(201).send({ message: INVITATION_TEXT.created, user });
  });

  // The account's primary user and staff: anyone; any other user of the account: themselves.
  app.put('/app/account/users/update/:id', { preHandler: requireUser, config: passwordLimit }, async (req) => {
    const id = idOf(req);
    const { accountId, onBehalf } = await actingAccount(app, req, 'body');
    const input = parseInput(accountUserUpdateSchema, req.body);
    const user = await updateAccountUser(app.db, accountId, id, input, actorOf(req, onBehalf), await senderOf(app));
    return { message: 'The user was saved.', user };
  });

  // The account's primary user; staff: a new set-password link for a user who has not chosen a password yet.
  app.post('/app/account/users/:id/invitation', { preHandler: requireUser }, async (req) => {
    const id = idOf(req);
    const { accountId, onBehalf } = await actingAccount(app, req, 'body');
    const expiresAt = await resendInvitation(app.db, accountId, id, actorOf(req, onBehalf), await senderOf(app));
    return { message: INVITATION_TEXT.resent, expires_at: expiresAt.toISOString() };
  });

  // The account's primary user; staff.
  app.delete('/app/account/users/delete/:id', { preHandler: requireUser }, async (req) => {
    const id = idOf(req);
    const { accountId, onBehalf } = await actingAccount(app, req, 'body');
    await deleteAccountUser(app.db, accountId, id, actorOf(req, onBehalf), await senderOf(app), app.providers.storage);
    return { message: 'The user was deleted.' };
  });
}
