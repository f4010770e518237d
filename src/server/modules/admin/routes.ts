import { z } from 'zod';
import { adminConsoleContracts } from '../../../shared/contracts/admin-console.ts';
import { adminInboxContracts } from '../../../shared/contracts/admin-inbox.ts';
import { adminOutboxContracts } from '../../../shared/contracts/admin-outbox.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { inboxQuery } from '../../../shared/schemas/admin.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { sendDownload } from '../../send-download.ts';
import { parseInput } from '../../validate.ts';
import { APPLICATION_STATUSES, getApplicationForAdmin, listApplications } from './applications.ts';
import { deleteBanner, listBanners, saveBanner } from './banners.ts';
import { exportInquiriesCsv, getInquiry, listInquiries, setInquiryHandled } from './inbox.ts';
import { exportOutboxCsv, getOutboxMail, listOutbox } from './outbox.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const idOf = (req: FastifyRequest) => {
  const parsed = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }).safeParse(req.params);
  if (!parsed.success) throw notFound();
  return parsed.data.id;
};

/**
 * Admin-only JSON API: inquiries inbox, applications, mail outbox, banners, and the CSV exports of
 * the inbox and the outbox (docs/staff-lists.md). 401 for visitors, 403 for everyone else.
 */
export async function adminRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    admin.get('/api/admin/inquiries/export.csv', { config: { access: 'staff' } }, async (req, reply) => {
      const csv = await exportInquiriesCsv(app.db, parseInput(inboxQuery, req.query));
      return sendDownload(reply, csv, `inquiries-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
    });

    admin.get('/api/admin/applications', { config: { access: 'staff' } }, async (req) => {
      const q = parseInput(
        z.object({
          status: z.preprocess(
            (v) => (v === '' ? undefined : v),
            z.enum(APPLICATION_STATUSES, { error: 'The selected status is invalid.' }).optional(),
          ),
          page: z.coerce.number().int().min(1).max(100_000).catch(1),
        }),
        req.query,
      );
      return listApplications(app.db, q.status, q.page);
    });
    admin.get('/api/admin/applications/:id', { config: { access: 'staff' } }, async (req) =>
      getApplicationForAdmin(app.db, idOf(req)),
    );

    const api = admin.withTypeProvider<ZodTypeProvider>();
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
