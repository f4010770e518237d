import { adminApplicationsContracts } from '../../../shared/contracts/admin-applications.ts';
import { adminConsoleContracts } from '../../../shared/contracts/admin-console.ts';
import { adminInboxContracts } from '../../../shared/contracts/admin-inbox.ts';
import { adminOutboxContracts } from '../../../shared/contracts/admin-outbox.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { sendDownload } from '../../send-download.ts';
import { getApplicationForAdmin, listApplications } from './applications.ts';
import { deleteBanner, listBanners, saveBanner } from './banners.ts';
import { exportInquiriesCsv, getInquiry, listInquiries, setInquiryHandled } from './inbox.ts';
import { exportOutboxCsv, getOutboxMail, listOutbox } from './outbox.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Admin-only JSON API: inquiries inbox, applications, mail outbox, banners, and the CSV exports of
 * the inbox and the outbox (docs/staff-lists.md). 401 for visitors, 403 for everyone else.
 */
export async function adminRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    const api = admin.withTypeProvider<ZodTypeProvider>();
    api.route({
      ...fromContract(adminInboxContracts.exportCsv),
      handler: async (req, reply) => {
        const csv = await exportInquiriesCsv(app.db, req.query);
        return sendDownload(reply, csv, `inquiries-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
      },
    });
    api.route({
      ...fromContract(adminApplicationsContracts.list),
      handler: async (req) => listApplications(app.db, req.query.status, req.query.page),
    });
    api.route({
      ...fromContract(adminApplicationsContracts.show),
      // A malformed id is answered like an unknown one, with the generic message it had before.
      handler: async (req) => getApplicationForAdmin(app.db, recordIdOf(req.params.id)),
    });
    api.route({
      ...fromContract(adminOutboxContracts.exportCsv),
      handler: async (req, reply) => {
        const csv = await exportOutboxCsv(app.db, req.query);
        return sendDownload(reply, csv, `mail-outbox-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
      },
    });
    api.route({ ...fromContract(adminOutboxContracts.list), handler: async (req) => listOutbox(app.db, req.query) });
    api.route({
      ...fromContract(adminOutboxContracts.show),
      handler: async (req) =>
        getOutboxMail(app.db, recordIdOf(req.params.id, 'The mail'), { revealLinks: !app.config.mail.smtpUrl }),
    });
    api.route({ ...fromContract(adminInboxContracts.list), handler: async (req) => listInquiries(app.db, req.query) });
    api.route({
      ...fromContract(adminInboxContracts.show),
      handler: async (req) => getInquiry(app.db, recordIdOf(req.params.id, 'The inquiry')),
    });
    api.route({
      ...fromContract(adminInboxContracts.handled),
      handler: async (req) =>
        setInquiryHandled(
          app.db,
          recordIdOf(req.params.id, 'The inquiry'),
          req.body.is_handled,
          req.currentUser.id,
          req.ip,
        ),
    });
    api.route({
      ...fromContract(adminConsoleContracts.banners),
      handler: async () => ({ banners: await listBanners(app.db) }),
    });
    api.route({
      ...fromContract(adminConsoleContracts.createBanner),
      handler: async (req, reply) =>
        reply.status(201).send(await saveBanner(app.db, req.body, req.currentUser.id, req.ip)),
    });
    api.route({
      ...fromContract(adminConsoleContracts.saveBanner),
      handler: async (req) => saveBanner(app.db, req.body, req.currentUser.id, req.ip, recordIdOf(req.params.id)),
    });
    api.route({
      ...fromContract(adminConsoleContracts.deleteBanner),
      handler: async (req) => {
        await deleteBanner(app.db, recordIdOf(req.params.id), req.currentUser.id, req.ip);
        return { message: 'The banner was deleted.' };
      },
    });
  });
}
