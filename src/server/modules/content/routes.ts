import { PAGE_QUERY } from '../../../shared/page-queries.ts';
import { listLevels } from './list-levels.ts';
import { listStateRequirements } from './list-state-requirements.ts';
import type { Db } from '../../db/client.ts';
import type { FastifyInstance } from 'fastify';

/** The body of GET /api/pricing: `{ levels }`, prices in cents. Also rendered into /pricing by the server. */
export const pricingBody = async (db: Db) => ({ levels: await listLevels(db) });
/** The body of GET /api/state-requirements: `{ states }`. Also rendered into /state-registration by the server. */
export const stateRequirementsBody = async (db: Db) => ({ states: await listStateRequirements(db) });

/** Read-only data for the content pages. */
export async function contentRoutes(app: FastifyInstance) {
  app.get(PAGE_QUERY.pricing.url, { config: { access: 'visitor' } }, async () => pricingBody(app.db));
  app.get(PAGE_QUERY.stateRequirements.url, { config: { access: 'visitor' } }, async () =>
    stateRequirementsBody(app.db),
  );
}
