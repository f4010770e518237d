import { adminRosterImportsContracts } from '../../../shared/contracts/admin-roster-imports.ts';
import { adminUploadsContracts } from '../../../shared/contracts/admin-uploads.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { GENERIC_UPLOAD_MAX_FILES } from '../../../shared/schemas/generic-upload.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { sendDownload } from '../../send-download.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { confirmRosterImport } from './confirm-roster-import.ts';
import { discardRosterImport } from './discard-roster-import.ts';
import { getRosterImport } from './get-roster-import.ts';
import { listGroupOptions } from './list-group-options.ts';
import { listRosterImportRows } from './list-roster-import-rows.ts';
import { exportRosterImportsCsv, listRosterImports } from './list-roster-imports.ts';
import { receiveGenericUpload } from './receive-generic-upload.ts';
import { undoRosterImport } from './undo-roster-import.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The record a malformed or unknown id names in its 404. */
const IMPORT = 'The roster import';

/**
 * The generic drag-and-drop uploader (docs/requirements/product.md tool 5), admin only: POST /admin/uploads takes
 * `create_new_accounts`, `profile_id`, `params` and `uploads[]`; GET /api/admin/uploads/options
 * lists the groups and limits for its page. 401 for visitors, 403 for other users.
 *
 * Roster imports of IRS files (docs/irs-data.md "Roster import"), staff only as well (401 for
 * visitors, 403 for account users, 404 for an unknown import, 409 for an action the import's
 * status or a later import of its GEN does not allow):
 * - `GET /api/admin/roster-imports?page=` past imports, newest first;
 * - `GET /api/admin/roster-imports/{id}` one import's counts and status;
 * - `GET /api/admin/roster-imports/{id}/rows?action=add|change|remove&page=` its preview lists;
 * - `POST /api/admin/roster-imports/{id}/confirm|discard|undo`, each audited.
 */
export async function uploadRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    const uploadsApi = admin.withTypeProvider<ZodTypeProvider>();
    uploadsApi.route({
      ...fromContract(adminUploadsContracts.options),
      handler: async () => ({
        groups: await listGroupOptions(app.db),
        max_bytes: app.config.uploadLimits.roster,
        max_files: GENERIC_UPLOAD_MAX_FILES,
      }),
    });

    uploadsApi.route({
      ...fromContract(adminUploadsContracts.upload),
      handler: async (req, reply) => {
        try {
          // Any type but the forbidden list (docs/requirements/validation.md: the allowed list is empty), the roster size limit.
          const upload = await receiveUpload(req, app.providers.storage, {
            purpose: 'any',
            maxBytes: app.config.uploadLimits.roster,
            maxFiles: GENERIC_UPLOAD_MAX_FILES,
            errorField: 'uploads',
          });
          const result = await receiveGenericUpload(app.db, app.providers.storage, upload, {
            userId: req.currentUser.id,
            ip: req.ip,
            log: req.log,
          });
          req.log.info(
            {
              files: result.files.length,
              created: result.import?.created,
              skipped: result.import?.skipped_count,
              rejected: result.import?.rejected_count,
            },
            'generic upload stored',
          );
          return reply.status(201).send(result);
        } catch (err) {
          // The page ignores a failed upload (docs/requirements/errors.md), so the reason is kept here.
          req.log.warn({ err, userId: req.currentUser.id }, 'generic upload failed');
          throw err;
        }
      },
    });

    const roster = adminRosterImportsContracts;
    uploadsApi.route({
      ...fromContract(roster.list),
      handler: async (req) => listRosterImports(app.db, req.query),
    });
    uploadsApi.route({
      ...fromContract(roster.exportCsv),
      handler: async (req, reply) => {
        const csv = await exportRosterImportsCsv(app.db, req.query);
        return sendDownload(reply, csv, `roster-imports-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
      },
    });
    uploadsApi.route({
      ...fromContract(roster.show),
      handler: async (req) => getRosterImport(app.db, recordIdOf(req.params.id, IMPORT)),
    });
    uploadsApi.route({
      ...fromContract(roster.rows),
      handler: async (req) => listRosterImportRows(app.db, recordIdOf(req.params.id, IMPORT), req.query),
    });
    uploadsApi.route({
      ...fromContract(roster.confirm),
      handler: async (req) => confirmRosterImport(app.db, recordIdOf(req.params.id, IMPORT), req.actor),
    });
    uploadsApi.route({
      ...fromContract(roster.discard),
      handler: async (req) => discardRosterImport(app.db, recordIdOf(req.params.id, IMPORT), req.actor),
    });
    uploadsApi.route({
      ...fromContract(roster.undo),
      handler: async (req) => undoRosterImport(app.db, recordIdOf(req.params.id, IMPORT), req.actor),
    });
  });
}
