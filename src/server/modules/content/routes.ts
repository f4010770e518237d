import { siteContracts } from '../../../shared/contracts/site.ts';
import { fromContract } from '../../contracts.ts';
import { listLevels } from './list-levels.ts';
import { listStateRequirements } from './list-state-requirements.ts';
import type { Db } from '../../db/client.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The body of GET /api/pricing: `{ levels }`, prices in cents. Also rendered into /pricing by the server. */
export const pricingBody = async (db: Db) => ({ levels: await listLevels(db) });
/** The body of GET /api/state-requirements: `{ states }`. Also rendered into /state-registration by the server. */
export const stateRequirementsBody = async (db: Db) => ({ states: await listStateRequirements(db) });

/** Read-only data for the content pages. */
export async function contentRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({ ...fromContract(siteContracts.pricing), handler: async () => pricingBody(app.db) });
  api.route({ ...fromContract(siteContracts.stateRequirements), handler: async () => stateRequirementsBody(app.db) });
}
