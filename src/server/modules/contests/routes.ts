import { z } from 'zod';
import { contestEntryContracts } from '../../../shared/contracts/contest-entry.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { CONTESTS, contestEntriesQuery } from '../../../shared/schemas/contests.ts';
import { fromContract } from '../../contracts.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { sendDownload } from '../../send-download.ts';
import { parseInput } from '../../validate.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { sendStoredFile } from '../files/stored-files.ts';
import { submitContestEntry } from './create-entry.ts';
import { exportContestEntriesCsv, findEntryFile, listContestEntries } from './list-entries.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Photo and video contests (docs/requirements/product.md tool 4): visitors post entries multipart to their page (within
 * the daily upload quotas, docs/security.md); admins browse them, searched, filtered and sorted,
 * and export them as CSV (docs/staff-lists.md; staff only: 401 for visitors, 403 for others).
 */
export async function contestRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const contest of CONTESTS) {
    const purpose = contest === 'photo' ? 'contest_photo' : 'contest_video';
    const route = fromContract(contestEntryContracts[contest]);
    api.route({
      ...route,
      config: { ...route.config, rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
      handler: async (req, reply) => {
        // A file is optional for some entrants (docs/requirements/validation.md); the service decides once the fields are read.
        const saved = await submitContestEntry(app.db, app.providers.storage, contest, {
          ip: req.ip,
          quotas: app.config.contestQuotas,
          receive: (beforeFile) =>
            receiveUpload(req, app.providers.storage, {
              purpose,
              maxBytes: app.config.uploadLimits[purpose],
              missingMessage: null,
              beforeFile,
            }),
        });
        return reply.status(201).send(saved);
      },
    });
  }

  app.register(async (admin) => {
    admin.get('/api/admin/contests/:contest/entries', { config: { access: 'staff' } }, async (req) => {
      const { contest } = parseInput(z.object({ contest: z.enum(CONTESTS) }), req.params);
      return listContestEntries(app.db, contest, parseInput(contestEntriesQuery, req.query));
    });
    admin.get(
      '/api/admin/contests/:contest/entries/export.csv',
      { config: { access: 'staff' } },
      async (req, reply) => {
        const { contest } = parseInput(z.object({ contest: z.enum(CONTESTS) }), req.params);
        const csv = await exportContestEntriesCsv(app.db, contest, parseInput(contestEntriesQuery, req.query));
        return sendDownload(
          reply,
          csv,
          `${contest}-contest-entries-${calendarDate(new Date())}.csv`,
          'text/csv; charset=utf-8',
        );
      },
    );
    admin.get('/admin/contests/files/:fileId', { config: { access: 'staff' } }, async (req, reply) => {
      const { fileId } = parseInput(
        z.object({ fileId: z.coerce.number().int().positive().max(2_147_483_647) }),
        req.params,
      );
      const { inline } = parseInput(z.object({ inline: z.enum(['0', '1']).optional() }), req.query);
      return sendStoredFile(reply, app.providers.storage, await findEntryFile(app.db, fileId), {
        inline: inline === '1',
      });
    });
  });
}
