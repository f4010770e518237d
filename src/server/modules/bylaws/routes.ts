import { BYLAW_CREATE_CONTRACTS, bylawContracts, DOCX_TYPE } from '../../../shared/contracts/bylaws.ts';
import { BYLAW_VARIANTS } from '../../../shared/schemas/bylaws.ts';
import { fromContract } from '../../contracts.ts';
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
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Sends a bylaws .docx as a download, never cached (the generator's link and the wizard's). */
export function sendBylawsDocx(reply: FastifyReply, file: { bytes: Buffer; fileName: string }) {
  return reply
    .header('content-type', DOCX_TYPE)
    .header('content-disposition', contentDisposition('attachment', file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(file.bytes);
}

const ownerOf = (req: FastifyRequest): BylawOwner => ({
  sessionHash: hashId(req.sessionToken),
  userId: req.user?.id ?? null,
});

/** The bylaws generator (docs/requirements/product.md tool 3, docs/requirements/calls.md): create by POST to each variant's page, update by PUT to the action, download. */
export async function bylawRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const links = { publicUrl: app.config.publicUrl, viewerUrl: app.config.bylaws.viewerUrl };
  const brands = async () => ({ brand: (await getCompany(app.db)).name, shortBrand: app.config.bylaws.shortBrand });
  /** A save's options: the forms' rate limit, and the captcha checked before the payload. */
  const saveRoute = <R extends { config: object }>(route: R) => ({
    ...route,
    config: { ...route.config, rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
    preValidation: requireCaptcha,
  });

  for (const variant of BYLAW_VARIANTS) {
    api.route({
      ...saveRoute(fromContract(BYLAW_CREATE_CONTRACTS[variant])),
      handler: async (req, reply) =>
        reply.status(201).send(await createBylaw(app.db, variant, req.body, ownerOf(req), links)),
    });
  }

  api.route({
    ...saveRoute(fromContract(bylawContracts.update)),
    handler: async (req) => updateBylaw(app.db, req.params.hash, req.body, ownerOf(req), links),
  });

  api.route({
    ...fromContract(bylawContracts.forEditing),
    handler: async (req) => getBylawForEditing(app.db, req.params.hash, ownerOf(req), links),
  });

  api.route({
    ...fromContract(bylawContracts.document),
    handler: async (req) => {
      const { model, fileName } = await getBylawDocument(app.db, req.params.hash, await brands());
      return { document: model, file_name: fileName };
    },
  });

  api.route({
    ...fromContract(bylawContracts.download),
    handler: async (req, reply) => sendBylawsDocx(reply, await downloadBylaw(app.db, req.params.hash, await brands())),
  });
}
