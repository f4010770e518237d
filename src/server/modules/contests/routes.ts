import { adminContestsContracts } from '../../../shared/contracts/admin-contests.ts';
import { contestEntryContracts } from '../../../shared/contracts/contest-entry.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { CONTESTS } from '../../../shared/schemas/contests.ts';
import { fromContract } from '../../contracts.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { sendDownload } from '../../send-download.ts';
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
    const api = admin.withTypeProvider<ZodTypeProvider>();
    api.route({
      ...fromContract(adminContestsContracts.entries),
      handler: async (req) => listContestEntries(app.db, req.params.contest, req.query),
    });
    api.route({
      ...fromContract(adminContestsContracts.entriesCsv),
      handler: async (req, reply) => {
        const { contest } = req.params;
        const csv = await exportContestEntriesCsv(app.db, contest, req.query);
        return sendDownload(
          reply,
          csv,
          `${contest}-contest-entries-${calendarDate(new Date())}.csv`,
          'text/csv; charset=utf-8',
        );
      },
    });
    api.route({
      ...fromContract(adminContestsContracts.entryFile),
      handler: async (req, reply) =>
        sendStoredFile(reply, app.providers.storage, await findEntryFile(app.db, req.params.fileId), {
          inline: req.query.inline === '1',
        }),
    });
  });
}
