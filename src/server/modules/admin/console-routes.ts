import { adminConsoleContracts } from '../../../shared/contracts/admin-console.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { sendDownload } from '../../send-download.ts';
import { exportAuditCsv, listAudit } from './audit-log.ts';
import { listDiscounts, saveDiscount } from './discounts.ts';
import { listAdminLevels, saveLevelPrices } from './levels.ts';
import { listAdminStateRequirements, saveStateRequirement } from './state-requirements.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Admin console JSON API: discount codes, levels and prices, state requirements, the audit log
 * and its CSV export (docs/audit.md). Visitors get 401, signed-in non-admins 403 (access 'staff').
 */
export async function adminConsoleRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    const api = admin.withTypeProvider<ZodTypeProvider>();
    api.route({
      ...fromContract(adminConsoleContracts.discounts),
      handler: async (req) => listDiscounts(app.db, req.query.page),
    });
    api.route({
      ...fromContract(adminConsoleContracts.createDiscount),
      handler: async (req, reply) =>
        reply.status(201).send(await saveDiscount(app.db, req.body, req.currentUser.id, req.ip)),
    });
    api.route({
      ...fromContract(adminConsoleContracts.saveDiscount),
      handler: async (req) => saveDiscount(app.db, req.body, req.currentUser.id, req.ip, recordIdOf(req.params.id)),
    });
    api.route({
      ...fromContract(adminConsoleContracts.levels),
      handler: async () => ({ levels: await listAdminLevels(app.db) }),
    });
    api.route({
      ...fromContract(adminConsoleContracts.saveLevel),
      handler: async (req) => saveLevelPrices(app.db, recordIdOf(req.params.id), req.body, req.currentUser.id, req.ip),
    });
    api.route({
      ...fromContract(adminConsoleContracts.states),
      handler: async () => ({ states: await listAdminStateRequirements(app.db) }),
    });
    api.route({
      ...fromContract(adminConsoleContracts.saveState),
      handler: async (req) => {
        const { code } = req.params;
        if (!/^[A-Za-z]{2}$/.test(code)) throw notFound('The state');
        return saveStateRequirement(app.db, code, req.body, req.currentUser.id, req.ip);
      },
    });

    api.route({
      ...fromContract(adminConsoleContracts.audit),
      handler: async (req) => listAudit(app.db, req.query),
    });
    api.route({
      ...fromContract(adminConsoleContracts.auditCsv),
      handler: async (req, reply) => {
        const csv = await exportAuditCsv(app.db, req.query);
        return sendDownload(reply, csv, `audit-log-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
      },
    });
  });
}
