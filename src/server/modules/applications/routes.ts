import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { applicationWizardContracts } from '../../../shared/contracts/application-wizard.ts';
import { groupHomeContracts } from '../../../shared/contracts/group-home.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { hashId } from '../../plugins/session.ts';
import { downloadApplicationBylaw } from '../bylaws/bylaws.ts';
import { sendBylawsDocx } from '../bylaws/routes.ts';
import { getCompany } from '../content/get-company.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { sendStoredFile } from '../files/stored-files.ts';
import { takeLimit } from '../limits/take-limit.ts';
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
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** `{token}` in these addresses is the mailed token or, from the account's list, the application's id. */
const paramHandle = (req: { params: { token: string } }) => parseApplicationHandle(req.params.token);

/** A draft save carries one page's answers: far below Fastify's 1 MiB default (413 above it). */
const DRAFT_BODY_LIMIT = 256 * 1024;

const c = applicationWizardContracts;

/** Joining (docs/requirements/product.md tools 1-2): application start, the wizard, switch, delete, and the account's drafts (invoices: modules/invoices). */
export async function applicationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const start = fromContract(c.start);
  api.route({
    ...start,
    config: { ...start.config, rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
    // The captcha is checked before the payload, as on every public form.
    preValidation: requireCaptcha,
    handler: async (req, reply) => {
      // A start tells a known address from an unknown one: the client address's address checks
      // (docs/security.md "Sign-in and address probing"), shared with sign-in and adding users.
      await takeLimit(app.db, app.config.limits, 'address_checks_per_ip', req.ip, { userId: null, ip: req.ip });
      const company = await getCompany(app.db);
      const { userId, token } = await startApplication(app.db, req.body, {
        publicUrl: app.config.publicUrl,
        companyName: company.name,
        ip: req.ip,
        invitationEnd: {
          sender: {
            companyName: company.name,
            companyContact: company.email || company.phone,
            publicUrl: app.config.publicUrl,
          },
          staffEmail: app.config.mail.staffEmail,
        },
      });
      // The applicant is signed in so the draft can be resumed from the account area too.
      await app.startSession(req, reply, userId);
      return reply.status(201).send({ token, csrfToken: reply.csrfToken() });
    },
  });

  app.register(async (user) => {
    const wizard = user.withTypeProvider<ZodTypeProvider>();
    wizard.route({
      ...fromContract(c.show),
      handler: async (req) => getWizard(app.db, paramHandle(req), req.currentUser.id, SUBMISSION_ALERT_FALLBACK),
    });

    wizard.route({
      ...fromContract(c.savePage),
      handler: async (req) => {
        const handle = paramHandle(req);
        const { page, submit, ...fields } = req.body;
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
      },
    });

    // Draft save while typing (docs/wizard.md "Saving as you type"): the owner only, unchecked answers.
    wizard.route({
      ...fromContract(c.saveDraft),
      bodyLimit: DRAFT_BODY_LIMIT,
      handler: async (req) => {
        const { page, ...fields } = req.body;
        return saveWizardDraft(app.db, paramHandle(req), req.currentUser.id, page, fields);
      },
    });

    // The bylaws step's Word document (docs/wizard.md "The bylaws step"): the owner only.
    wizard.route({
      ...fromContract(c.bylaws),
      handler: async (req, reply) => {
        const { application } = await findApplication(app.db, paramHandle(req), req.currentUser.id);
        const brands = { brand: (await getCompany(app.db)).name, shortBrand: app.config.bylaws.shortBrand };
        return sendBylawsDocx(reply, await downloadApplicationBylaw(app.db, application.id, brands));
      },
    });

    wizard.route({
      ...fromContract(c.switchType),
      handler: async (req) => switchApplication(app.db, paramHandle(req), req.currentUser.id),
    });

    wizard.route({
      ...fromContract(c.remove),
      handler: async (req) =>
        deleteApplication(app.db, app.providers.storage, parseApplicationHandle(req.body.token), req.currentUser.id),
    });

    // The wizard's file dropbox (docs/requirements/entities.md): one document per request, listed back by file_name.
    wizard.route({
      ...fromContract(c.upload),
      handler: async (req, reply) => {
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
      },
    });

    wizard.route({
      ...fromContract(c.document),
      handler: async (req, reply) => {
        const file = await findApplicationDocument(app.db, paramHandle(req), req.currentUser.id, req.params.fileId);
        return sendStoredFile(reply, app.providers.storage, file);
      },
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
