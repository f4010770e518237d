import { z } from 'zod';
import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { groupHomeContracts } from '../../../shared/contracts/group-home.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { applicationStartSchema, wizardDraftSchema } from '../../../shared/schemas/application.ts';
import { fromContract } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { hashId } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { downloadApplicationBylaw } from '../bylaws/bylaws.ts';
import { sendBylawsDocx } from '../bylaws/routes.ts';
import { getCompany } from '../content/get-company.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { sendStoredFile } from '../files/stored-files.ts';
import { findApplicationDocument, uploadApplicationDocument } from './application-documents.ts';
import { parseApplicationHandle } from './application-handle.ts';
import { completeApplication } from './complete-application.ts';
import { uploadDeterminationLetter } from './determination-letter.ts';
import { findApplication } from './find-application.ts';
import { listMyDrafts } from './list-applications.ts';
import { startApplication } from './start-application.ts';
import {
  deleteApplication,
  getWizard,
  saveWizardDraft,
  saveWizardPage,
  SUBMISSION_ALERT_FALLBACK,
  switchApplication,
} from './wizard.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** `{token}` in these addresses is the mailed token or, from the account's list, the application's id. */
const paramHandle = (req: FastifyRequest) => parseApplicationHandle((req.params as { token?: unknown }).token);

/** A draft save carries one page's answers: far below Fastify's 1 MiB default (413 above it). */
const DRAFT_BODY_LIMIT = 256 * 1024;

/** Wizard Next carries the page number; Submit carries submit=1 (docs/requirements/calls.md). */
const wizardBody = z.looseObject({
  page: z.coerce.number().int().min(1).max(100).optional(),
  submit: z.preprocess((v) => v === 1 || v === '1' || v === true, z.boolean()).optional(),
});

/** Joining (docs/requirements/product.md tools 1-2): application start, the wizard, switch, delete, and the account's drafts (invoices: modules/invoices). */
export async function applicationRoutes(app: FastifyInstance) {
  app.post(
    '/application/start',
    {
      config: { access: 'visitor', rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
      preHandler: requireCaptcha,
    },
    async (req, reply) => {
      const input = parseInput(applicationStartSchema, req.body);
      const company = await getCompany(app.db);
      const { userId, token } = await startApplication(app.db, input, {
        publicUrl: app.config.publicUrl,
        companyName: company.name,
        ip: req.ip,
      });
      // The applicant is signed in so the draft can be resumed from the account area too.
      await app.startSession(req, reply, userId);
      return reply.status(201).send({ token, csrfToken: reply.csrfToken() });
    },
  );

  app.register(async (user) => {
    user.get('/api/applications/:token', { config: { access: 'signed-in' } }, async (req) =>
      getWizard(app.db, paramHandle(req), req.currentUser.id, SUBMISSION_ALERT_FALLBACK),
    );

    user.put('/application/create/:token', { config: { access: 'signed-in' } }, async (req) => {
      const handle = paramHandle(req);
      const body = parseInput(wizardBody, req.body);
      const { page, submit, ...fields } = body as Record<string, unknown> & { page?: number; submit?: boolean };
      if (submit) {
        const company = await getCompany(app.db);
        return completeApplication(app.db, handle, req.currentUser.id, fields, {
          companyName: company.name,
          publicUrl: app.config.publicUrl,
          ip: req.ip,
          sessionHash: hashId(req.sessionToken),
        });
      }
      if (!page) throw notFound('The page');
      return saveWizardPage(app.db, handle, req.currentUser.id, page, fields, hashId(req.sessionToken));
    });

    // Draft save while typing (docs/wizard.md "Saving as you type"): the owner only, unchecked answers.
    user.patch(
      '/application/create/:token',
      { config: { access: 'signed-in' }, bodyLimit: DRAFT_BODY_LIMIT },
      async (req) => {
        const { page, ...fields } = parseInput(wizardDraftSchema, req.body) as Record<string, unknown> & {
          page: number;
        };
        return saveWizardDraft(app.db, paramHandle(req), req.currentUser.id, page, fields);
      },
    );

    // The bylaws step's Word document (docs/wizard.md "The bylaws step"): the owner only.
    user.get('/application/bylaws/:token', { config: { access: 'signed-in' } }, async (req, reply) => {
      const { application } = await findApplication(app.db, paramHandle(req), req.currentUser.id);
      const brands = { brand: (await getCompany(app.db)).name, shortBrand: app.config.bylaws.shortBrand };
      return sendBylawsDocx(reply, await downloadApplicationBylaw(app.db, application.id, brands));
    });

    user.post('/application/switch/:token', { config: { access: 'signed-in' } }, async (req) =>
      switchApplication(app.db, paramHandle(req), req.currentUser.id),
    );

    user.delete('/application/delete', { config: { access: 'signed-in' } }, async (req) => {
      const { token } = parseInput(z.object({ token: z.string() }), req.body);
      return deleteApplication(app.db, app.providers.storage, parseApplicationHandle(token), req.currentUser.id);
    });

    // The wizard's file dropbox (docs/requirements/entities.md): one document per request, listed back by file_name.
    user.post('/application/upload/:token', { config: { access: 'signed-in' } }, async (req, reply) => {
      const receive = () =>
        receiveUpload(req, app.providers.storage, {
          purpose: 'application_document',
          maxBytes: app.config.uploadLimits.application_document,
        });
      const result = await uploadApplicationDocument(
        app.db,
        app.providers.storage,
        paramHandle(req),
        req.currentUser.id,
        receive,
      );
      return reply.status(201).send(result);
    });

    user.get('/application/upload/:token/:fileId', { config: { access: 'signed-in' } }, async (req, reply) => {
      const fileId = parseInput(
        z.object({ fileId: z.coerce.number().int().positive().max(2_147_483_647) }),
        req.params,
      ).fileId;
      const file = await findApplicationDocument(app.db, paramHandle(req), req.currentUser.id, fileId);
      return sendStoredFile(reply, app.providers.storage, file);
    });

    user.withTypeProvider<ZodTypeProvider>().route({
      ...fromContract(accountOverviewContracts.applications),
      handler: async (req) => ({ applications: await listMyDrafts(app.db, req.currentUser.id) }),
    });

    // The IRS letter a group was waiting for, once it arrives (docs/wizard.md "A group waiting for its IRS letter"):
    // any user of the account; a user without an account 404; an account awaiting no letter 409.
    user.withTypeProvider<ZodTypeProvider>().route({
      ...fromContract(groupHomeContracts.uploadDeterminationLetter),
      handler: async (req, reply) => {
        const receive = () =>
          receiveUpload(req, app.providers.storage, {
            purpose: 'application_document',
            maxBytes: app.config.uploadLimits.application_document,
          });
        const letter = await uploadDeterminationLetter(
          app.db,
          req.currentUser.accountId,
          req.currentUser.id,
          receive,
          app.providers.storage,
          calendarDate(new Date()),
          req.ip,
        );
        return reply.status(201).send({ letter_awaited: letter });
      },
    });
  });
}
