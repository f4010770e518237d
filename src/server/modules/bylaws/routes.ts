import { BYLAW_PAGE_PATHS, BYLAW_VARIANTS } from '../../../shared/schemas/bylaws.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { hashId } from '../../plugins/session.ts';
import { getCompany } from '../content/get-company.ts';
import { contentDisposition } from '../files/stored-files.ts';
import {
  createBylaw,
  downloadBylaw,
  getBylawDocument,
  getBylawForEditing,
  updateBylaw,
  type BylawOwner,
} from './bylaws.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Sends a bylaws .docx as a download, never cached (the generator's link and the wizard's). */
export function sendBylawsDocx(reply: FastifyReply, file: { bytes: Buffer; fileName: string }) {
  return reply
    .header('content-type', DOCX_TYPE)
    .header('content-disposition', contentDisposition('attachment', file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(file.bytes);
}

const ownerOf = (req: FastifyRequest): BylawOwner => ({
  sessionHash: hashId(req.sessionToken),
  userId: req.user?.id ?? null,
});
const hashOf = (req: FastifyRequest) => String((req.params as { hash?: unknown }).hash ?? '');

/** The bylaws generator (docs/requirements/product.md tool 3, docs/requirements/calls.md): create by POST to each variant's page, update by PUT to the action, download. */
export async function bylawRoutes(app: FastifyInstance) {
  const links = { publicUrl: app.config.publicUrl, viewerUrl: app.config.bylaws.viewerUrl };
  const brands = async () => ({ brand: (await getCompany(app.db)).name, shortBrand: app.config.bylaws.shortBrand });
  const saveLimits = {
    config: { access: 'visitor' as const, rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
    preHandler: requireCaptcha,
  };

  for (const variant of BYLAW_VARIANTS) {
    app.post(BYLAW_PAGE_PATHS[variant], saveLimits, async (req, reply) =>
      reply.status(201).send(await createBylaw(app.db, variant, req.body, ownerOf(req), links)),
    );
  }

  app.put('/bylaws-generator/:hash', saveLimits, async (req) =>
    updateBylaw(app.db, hashOf(req), req.body, ownerOf(req), links),
  );

  app.get('/api/bylaws/:hash', { config: { access: 'visitor' } }, async (req) =>
    getBylawForEditing(app.db, hashOf(req), ownerOf(req), links),
  );

  app.get('/api/bylaws/:hash/document', { config: { access: 'visitor' } }, async (req, reply) => {
    const { model, fileName } = await getBylawDocument(app.db, hashOf(req), await brands());
    return reply.header('cache-control', 'no-store').send({ document: model, file_name: fileName });
  });

  app.get('/bylaws-generator/download/:hash', { config: { access: 'visitor' } }, async (req, reply) => {
    return sendBylawsDocx(reply, await downloadBylaw(app.db, hashOf(req), await brands()));
  });
}
