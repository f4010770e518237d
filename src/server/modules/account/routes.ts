import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { accountSettingsContracts } from '../../../shared/contracts/account-settings.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { sendStoredFile } from '../files/stored-files.ts';
import { sendLetter, standingLetter } from '../irs-data/standing-letter.ts';
import { getEditableFields, saveEditableFields } from './editable-fields.ts';
import { getMyAccount } from './get-my-account.ts';
import { clearProfileImage, findProfileImage, setProfileImage } from './profile-image.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

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

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...fromContract(accountSettingsContracts.editableFields),
    handler: async (req) => getEditableFields(app.db, req.currentUser.accountId),
  });
  api.route({
    ...fromContract(accountSettingsContracts.saveData),
    handler: async (req) => saveEditableFields(app.db, req.currentUser.accountId, req.currentUser.id, req.body, req.ip),
  });

  // Profile header image (docs/requirements/product.md tool 12): set, clear, and read for the public profile.
  api.route({
    ...fromContract(accountSettingsContracts.setImage),
    handler: async (req) => {
      const id = recordIdOf(req.params.id, 'The account');
      const receive = () =>
        receiveUpload(req, app.providers.storage, {
          purpose: 'profile_image',
          maxBytes: app.config.uploadLimits.profile_image,
        });
      return setProfileImage(app.db, app.providers.storage, req.currentUser, id, receive, req.ip);
    },
  });
  api.route({
    ...fromContract(accountSettingsContracts.clearImage),
    handler: async (req) =>
      clearProfileImage(
        app.db,
        app.providers.storage,
        req.currentUser,
        recordIdOf(req.params.id, 'The account'),
        req.ip,
      ),
  });
  api.route({
    ...fromContract(accountSettingsContracts.image),
    handler: async (req, reply) => {
      const image = await findProfileImage(
        app.db,
        recordIdOf(req.params.id, 'The image'),
        recordIdOf(req.params.fileId, 'The image'),
      );
      return sendStoredFile(reply, app.providers.storage, image, { inline: true });
    },
  });
}
