import { text } from 'node:stream/consumers';
import { adminIrsBulkChecksContracts } from '../../../shared/contracts/admin-irs-bulk-checks.ts';
import { IRS_BULK_CHECK_FIELD, IRS_BULK_CHECK_MAX_BYTES } from '../../../shared/schemas/irs-bulk-check.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { sendDownload } from '../../send-download.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { bulkCheckResult, getBulkCheck, listBulkChecks, startBulkCheck } from './bulk-check-runs.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The 404 of an unknown check, or one of another group. */
export const CHECK = 'The check';

/**
 * The uploaded list of EINs of a multipart request (`file`, .csv or .txt, at most
 * IRS_BULK_CHECK_MAX_BYTES): its cleaned name and its text. The stored upload is deleted once read:
 * the EINs are kept with the check.
 * @throws ValidationError 422 on `file` when none or an unreadable one was sent (receiveUpload)
 */
export async function receiveEinList(app: FastifyInstance, req: FastifyRequest) {
  const upload = await receiveUpload(req, app.providers.storage, {
    purpose: 'roster',
    maxBytes: IRS_BULK_CHECK_MAX_BYTES,
    errorField: IRS_BULK_CHECK_FIELD,
    missingMessage: 'Please choose a CSV file of EINs.',
  });
  const [file] = upload.files;
  const body = await text(await app.providers.storage.get(file.storageKey));
  await app.providers.storage.delete(file.storageKey);
  return { fileName: file.fileName, text: body };
}

/** Staff see every check, a central organization's own included. */
const STAFF_SCOPE = { groupId: null };

/**
 * Checking a list of EINs (docs/irs-standing.md "Checking a list of EINs"), staff only (401 for
 * visitors, 403 for account users, 404 for an unknown check):
 * - `GET /api/admin/irs-bulk-checks` the latest checks, newest first, and how long they are kept;
 * - `POST /api/admin/irs-bulk-checks` (multipart `file`, .csv or .txt) starts one, audited; 422 for
 *   a file with no EIN, too many, or a value that is not an EIN (naming its line);
 * - `GET /api/admin/irs-bulk-checks/{id}` its progress and counts;
 * - `GET /api/admin/irs-bulk-checks/{id}/result.csv` its CSV of standings (409 until finished).
 */
export async function irsBulkCheckRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const c = adminIrsBulkChecksContracts;
  api.route({
    ...fromContract(c.list),
    handler: async () => listBulkChecks(app.db, app.config.retention.bulkCheckDays, STAFF_SCOPE),
  });
  api.route({
    ...fromContract(c.upload),
    handler: async (req, reply) => {
      const list = await receiveEinList(app, req);
      const { userId, ip } = req.actor;
      const check = await startBulkCheck(
        app.db,
        list,
        { userId, ip, log: req.log },
        // The check outlives the request; a stopping server hands it to the bulk-check job.
        (work) => app.jobs.runApart(work),
      );
      return reply.status(201).send(check);
    },
  });
  api.route({
    ...fromContract(c.show),
    handler: async (req) => getBulkCheck(app.db, recordIdOf(req.params.id, CHECK), STAFF_SCOPE),
  });
  api.route({
    ...fromContract(c.result),
    handler: async (req, reply) => {
      const { csv, fileName } = await bulkCheckResult(app.db, recordIdOf(req.params.id, CHECK), STAFF_SCOPE);
      return sendDownload(reply, csv, fileName, 'text/csv; charset=utf-8');
    },
  });
}
