import { z } from 'zod';
import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { parseInput } from '../../validate.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { sendStoredFile } from '../files/stored-files.ts';
import { sendLetter, standingLetter } from '../irs-data/standing-letter.ts';
import { ACCOUNT_DATA_ACTION, getEditableFields, saveEditableFields } from './editable-fields.ts';
import { getMyAccount } from './get-my-account.ts';
import { clearProfileImage, findProfileImage, setProfileImage } from './profile-image.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

// Ids are PostgreSQL integers: anything larger cannot name a row (and must not reach the query).
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * The account holder's own area: signed-in users on their own account (`users.account_id`; staff
 * reach other accounts through the admin routes), visitors 401; the profile image is public.
 */
export async function accountRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(accountOverviewContracts.account),
    handler: async (req) => ({
      user: req.currentUser,
      account: await getMyAccount(app.db, req.currentUser.accountId),
    }),
  });

  // The group's good-standing letter (docs/irs-standing.md "Letter"): any user of the account.
  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(accountOverviewContracts.standingLetter),
    handler: async (req, reply) => {
      if (!req.currentUser.accountId) throw notFound('The account');
      return sendLetter(
        reply,
        await standingLetter(app.db, req.currentUser.accountId, calendarDate(new Date()), app.config.publicUrl),
      );
    },
  });

  app.get('/app/fields/editable', { config: { access: 'signed-in' } }, async (req) =>
    getEditableFields(app.db, req.currentUser.accountId),
  );
  app.put(ACCOUNT_DATA_ACTION, { config: { access: 'signed-in' } }, async (req) =>
    saveEditableFields(
      app.db,
      req.currentUser.accountId,
      req.currentUser.id,
      (req.body ?? {}) as Record<string, unknown>,
      req.ip,
    ),
  );

  // Profile header image (docs/requirements/product.md tool 12): set, clear, and read for the public profile.
  app.post('/app/account/image/:id', { config: { access: 'signed-in' } }, async (req) => {
    const { id } = parseInput(idParams, req.params);
    const receive = () =>
      receiveUpload(req, app.providers.storage, {
        purpose: 'profile_image',
        maxBytes: app.config.uploadLimits.profile_image,
      });
    return setProfileImage(app.db, app.providers.storage, req.currentUser, id, receive, req.ip);
  });
  app.post('/app/account/empty-image/:id', { config: { access: 'signed-in' } }, async (req) =>
    clearProfileImage(app.db, app.providers.storage, req.currentUser, parseInput(idParams, req.params).id, req.ip),
  );
  app.get('/app/account/image/:id/:fileId', { config: { access: 'visitor' } }, async (req, reply) => {
    const { id, fileId } = parseInput(
      idParams.extend({ fileId: z.coerce.number().int().positive().max(2_147_483_647) }),
      req.params,
    );
    return sendStoredFile(reply, app.providers.storage, await findProfileImage(app.db, id, fileId), { inline: true });
  });
}
