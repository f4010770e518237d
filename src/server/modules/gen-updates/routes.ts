import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { genSettingsSchema, genSubmitSchema, genUpdateQuery } from '../../../shared/schemas/gen-updates.ts';
import { auditActor } from '../../plugins/session.ts';
import { sendDownload } from '../../send-download.ts';
import { parseInput } from '../../validate.ts';
import { buildGenUpdate } from './build-gen-update.ts';
import { genUpdateCsv, genUpdatePdf } from './export-gen-update.ts';
import { submitGenUpdate } from './submit-gen-update.ts';
import { updateGenSettings } from './update-gen-settings.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

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
    const query = (req: FastifyRequest) => {
      const q = parseInput(genUpdateQuery, req.query);
      return { groupId: q.group_id, periodEnd: q.period_end };
    };

    admin.get(
      '/api/admin/gen-update',
      { config: { access: 'staff' } },
      async (req) => (await buildGenUpdate(app.db, query(req), today())).view,
    );
    admin.put('/api/admin/gen-update/settings', { config: { access: 'staff' } }, async (req) =>
      updateGenSettings(app.db, parseInput(genSettingsSchema, req.body), auditActor(req)),
    );
    admin.get('/api/admin/gen-update/export.csv', { config: { access: 'staff' } }, async (req, reply) => {
      const { csv, fileName } = await genUpdateCsv(app.db, query(req), today());
      return sendDownload(reply, csv, fileName, 'text/csv; charset=utf-8');
    });
    admin.get('/api/admin/gen-update/export.pdf', { config: { access: 'staff' } }, async (req, reply) => {
      const { pdf, fileName } = await genUpdatePdf(app.db, query(req), today());
      return sendDownload(reply, pdf, fileName, 'application/pdf');
    });
    admin.post('/api/admin/gen-update/submit', { config: { access: 'staff' } }, async (req) =>
      submitGenUpdate(app.db, parseInput(genSubmitSchema, req.body), auditActor(req), today()),
    );
  });
}
