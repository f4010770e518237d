import { adminGenUpdateContracts as c } from '../../../shared/contracts/admin-gen-update.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract } from '../../contracts.ts';
import { sendDownload } from '../../send-download.ts';
import { buildGenUpdate } from './build-gen-update.ts';
import { genUpdateCsv, genUpdatePdf } from './export-gen-update.ts';
import { submitGenUpdate } from './submit-gen-update.ts';
import { updateGenSettings } from './update-gen-settings.ts';
import type { GenUpdateQuery } from '../../../shared/schemas/gen-updates.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Today as the UTC calendar date, like the compliance calendar and the reminder jobs. */
const today = () => calendarDate(new Date());

/**
 * The annual GEN update builder (docs/irs-gen-duties.md; page /admin/gen-update). Staff only: 401
 * for visitors, 403 for everyone else; a bad query or body is 422 with the field's message.
 * - `GET /api/admin/gen-update?group_id=&period_end=`: settings, window, lines, checks, submission
 *   and the transition checklist for 22 January 2027 (buildGenUpdate);
 * - `PUT /api/admin/gen-update/settings`: the GEN settings form (audited);
 * - `GET /api/admin/gen-update/export.csv` and `.pdf` with the same query: the downloads;
 * - `POST /api/admin/gen-update/submit` `{ group_id, period_end, submitted_on }`: records the
 *   submission once (audited); a second one for the same period is 409 with a message.
 */
export async function genUpdateRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    const api = admin.withTypeProvider<ZodTypeProvider>();
    const genOf = (q: GenUpdateQuery) => ({ groupId: q.group_id, periodEnd: q.period_end });

    api.route({
      ...fromContract(c.show),
      handler: async (req) => (await buildGenUpdate(app.db, genOf(req.query), today())).view,
    });
    api.route({
      ...fromContract(c.saveSettings),
      handler: async (req) => updateGenSettings(app.db, req.body, req.actor),
    });
    api.route({
      ...fromContract(c.exportCsv),
      handler: async (req, reply) => {
        const { csv, fileName } = await genUpdateCsv(app.db, genOf(req.query), today());
        return sendDownload(reply, csv, fileName, 'text/csv; charset=utf-8');
      },
    });
    api.route({
      ...fromContract(c.exportPdf),
      handler: async (req, reply) => {
        const { pdf, fileName } = await genUpdatePdf(app.db, genOf(req.query), today());
        return sendDownload(reply, pdf, fileName, 'application/pdf');
      },
    });
    api.route({
      ...fromContract(c.submit),
      handler: async (req) => submitGenUpdate(app.db, req.body, req.actor, today()),
    });
  });
}
