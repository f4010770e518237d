import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../plugins/session.ts';
import { getMyAccount } from './get-my-account.ts';
import { ACCOUNT_DATA_ACTION, getEditableFields, saveEditableFields } from './editable-fields.ts';
import { clearProfileImage, findProfileImage, setProfileImage } from './profile-image.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { sendStoredFile } from '../files/stored-files.ts';
import { parseInput } from '../../validate.ts';
import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { sendLetter, standingLetter } from '../irs-data/standing-letter.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';

// Ids are PostgreSQL integers: anything larger cannot name a row (and must not reach the query).
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The account holder's own area. */
export async function accountRoutes(app: FastifyInstance) {
  app.get('/api/account', { preHandler: requireUser }, async (req) => ({
    user: req.user,
    account: await getMyAccount(app.db, req.user!.accountId),
  }));

  // The group's good-standing letter (docs/irs-standing.md "Letter"): any user of the account.
  app.get('/api/account/standing-letter', { preHandler: requireUser }, async (req, reply) => {
    if (!req.user!.accountId) throw notFound('The account');
    return sendLetter(reply, await standingLetter(app.db, req.user!.accountId, calendarDate(new Date()), app.config.publicUrl));
  });

  app.get('/app/fields/editable', { preHandler: requireUser }, async (req) => getEditableFields(app.db, req.user!.accountId));
  app.put(ACCOUNT_DATA_ACTION, { preHandler: requireUser }, async (req) =>
    saveEditableFields(app.db, req.user!.accountId, req.user!.id, (req.body ?? {}) as Record<string, unknown>, req.ip));

  // Profile header image (docs/requirements/product.md tool 12): set, clear, and read for the public profile.
  app.post('/app/account/image/:id', { preHandler: requireUser }, async (req) => {
    const { id } = parseInput(idParams, req.params);
    const receive = () => receiveUpload(req, app.providers.storage, { purpose: 'profile_image', maxBytes: app.config.uploadLimits.profile_image });
    return setProfileImage(app.db, app.providers.storage, req.user!, id, receive, req.ip);
  });
  app.post('/app/account/empty-image/:id', { preHandler: requireUser }, async (req) =>
    clearProfileImage(app.db, app.providers.storage, req.user!, parseInput(idParams, req.params).id, req.ip));
  app.get('/app/account/image/:id/:fileId', async (req, reply) => {
    const { id, fileId } = parseInput(idParams.extend({ fileId: z.coerce.number().int().positive().max(2_147_483_647) }), req.params);
    return sendStoredFile(reply, app.providers.storage, await findProfileImage(app.db, id, fileId), { inline: true });
  });
}
