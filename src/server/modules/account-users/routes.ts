import { accountUserContracts } from '../../../shared/contracts/account-settings.ts';
import { INVITATION_TEXT } from '../../../shared/schemas/account-users.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { takeAddUserLimits, takeEmailChangeLimits, takeResendLimits } from './account-user-limits.ts';
import { noticeSenderOf } from './account-user-notices.ts';
import { createAccountUser } from './create-account-user.ts';
import { deleteAccountUser } from './delete-account-user.ts';
import { endInvitationByToken, NOT_ME_ANSWER } from './end-invitation.ts';
import { resendInvitation } from './invite-account-user.ts';
import { listAccountUsers } from './list-account-users.ts';
import { updateAccountUser } from './update-account-user.ts';
import type { AccountScope } from '../../plugins/access.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Who the notices say they come from, and whom to contact. */
const senderOf = (app: FastifyInstance) => noticeSenderOf(app.db, app.config.publicUrl);

/**
 * Account users (docs/requirements/screens.md "Admin account users", docs/requirements/behaviour.md, docs/requirements/calls.md /app/account/users/*, docs/requirements/errors.md), under the roles
 * of docs/roles.md: any user of the account reads the list; the account's primary user and staff
 * (any account, through account_id, audited) add, edit, delete and make primary; other users edit
 * only their own record. Store and update check a current password, so they share the sign-in's
 * rate limit per address. Adding a user, resending an invitation and changing an e-mail address
 * mail someone: each first takes its limits (account-user-limits.ts, docs/security.md "Limits on
 * mail and payments"), 429 past them. The invited person may end their pending invitation with
 * its token ("This was not me", a visitor's route).
 */
export async function accountUserRoutes(app: FastifyInstance) {
  const rateLimit = perMinute(app.config.rateLimits.loginPerMinute);
  // A holder's account_id is ignored (they always act on their own account); staff name the
  // account in the query, or in the body of a change (422 when they name none and have none).
  const accountScope: AccountScope = { holderChoice: 'ignored' };

  const api = app.withTypeProvider<ZodTypeProvider>();
  const list = fromContract(accountUserContracts.list);
  const store = fromContract(accountUserContracts.store);
  const update = fromContract(accountUserContracts.update);
  const invitation = fromContract(accountUserContracts.invitation);
  const remove = fromContract(accountUserContracts.remove);
  const notMe = fromContract(accountUserContracts.notMe);

  // Any user of the account; staff for any account.
  api.route({
    ...list,
    config: { ...list.config, accountScope },
    handler: async (req) => {
      const { accountId } = req.account;
      return listAccountUsers(app.db, accountId, req.actor);
    },
  });

  // The account's primary user; staff.
  api.route({
    ...store,
    config: { ...store.config, accountScope, rateLimit },
    handler: async (req, reply) => {
      const { accountId } = req.account;
      const actor = req.actor;
      await takeAddUserLimits(app.db, app.config.limits, accountId, actor, req.body.email);
      const user = await createAccountUser(app.db, accountId, req.body, actor, await senderOf(app));
      return reply.status(201).send({ message: INVITATION_TEXT.created, user });
    },
  });

  // The account's primary user and staff: anyone; any other user of the account: themselves.
  api.route({
    ...update,
    config: { ...update.config, accountScope, rateLimit },
    handler: async (req) => {
      const id = recordIdOf(req.params.id, 'The user');
      const { accountId } = req.account;
      const actor = req.actor;
      await takeEmailChangeLimits(app.db, app.config.limits, accountId, actor, id, req.body.email);
      const user = await updateAccountUser(app.db, accountId, id, req.body, actor, await senderOf(app));
      return { message: 'The user was saved.', user };
    },
  });

  // The account's primary user; staff: a new set-password link for a user who has not chosen a password yet.
  api.route({
    ...invitation,
    config: { ...invitation.config, accountScope },
    handler: async (req) => {
      const id = recordIdOf(req.params.id, 'The user');
      const { accountId } = req.account;
      const actor = req.actor;
      await takeResendLimits(app.db, app.config.limits, accountId, actor, id);
      const expiresAt = await resendInvitation(app.db, accountId, id, actor, await senderOf(app));
      return { message: INVITATION_TEXT.resent, expires_at: expiresAt.toISOString() };
    },
  });

  // Anyone holding the invitation's token: "This was not me" (docs/roles.md "Invitations"). The
  // page at /invitation/not-me/{token} sends it; opening that page changes nothing.
  api.route({
    ...notMe,
    handler: async (req) => {
      await endInvitationByToken(app.db, req.body.token, {
        sender: await senderOf(app),
        staffEmail: app.config.mail.staffEmail,
        ip: req.ip,
        storage: app.providers.storage,
      });
      return { message: NOT_ME_ANSWER };
    },
  });

  // The account's primary user; staff.
  api.route({
    ...remove,
    config: { ...remove.config, accountScope },
    handler: async (req) => {
      const id = recordIdOf(req.params.id, 'The user');
      const { accountId } = req.account;
      await deleteAccountUser(app.db, accountId, id, req.actor, await senderOf(app), app.providers.storage);
      return { message: 'The user was deleted.' };
    },
  });
}
