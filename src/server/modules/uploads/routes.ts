import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../../plugins/session.ts';
import { GENERIC_UPLOAD_ACTION, GENERIC_UPLOAD_MAX_FILES, type GenericUploadOptions } from '../../../shared/schemas/generic-upload.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { listGroupOptions } from './list-group-options.ts';
import { receiveGenericUpload } from './receive-generic-upload.ts';

/**
 * The generic drag-and-drop uploader (SPEC tool 5), admin only: POST /admin/uploads takes
 * `create_new_accounts`, `profile_id`, `params` and `uploads[]`; GET /api/admin/uploads/options
 * lists the groups and limits for its page. 401 for visitors, 403 for other users.
 */
export async function uploadRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    admin.addHook('preHandler', requireAdmin);

    admin.get('/api/admin/uploads/options', async (): Promise<GenericUploadOptions> => ({
      groups: await listGroupOptions(app.db),
      max_bytes: app.config.uploadLimits.roster,
      max_files: GENERIC_UPLOAD_MAX_FILES,
    }));

    admin.post(GENERIC_UPLOAD_ACTION, async (req, reply) => {
      try {
        // Any type but the forbidden list (SPEC §5: the allowed list is empty), the roster size limit.
        const upload = await receiveUpload(req, app.providers.storage, {
          purpose: 'any', maxBytes: app.config.uploadLimits.roster, maxFiles: GENERIC_UPLOAD_MAX_FILES, errorField: 'uploads',
        });
        const result = await receiveGenericUpload(app.db, app.providers.storage, upload, { userId: req.user!.id, ip: req.ip, log: req.log });
        req.log.info({ files: result.files.length, created: result.import?.created, skipped: result.import?.skipped_count, rejected: result.import?.rejected_count }, 'generic upload stored');
        return reply.status(201).send(result);
      } catch (err) {
        // The page ignores a failed upload (SPEC §8), so the reason is kept here.
        req.log.warn({ err, userId: req.user!.id }, 'generic upload failed');
        throw err;
      }
    });
  });
}
