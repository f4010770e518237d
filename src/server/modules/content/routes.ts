import type { FastifyInstance } from 'fastify';
import { listLevels } from './list-levels.ts';
import { listStateRequirements } from './list-state-requirements.ts';

/** Read-only data for the content pages. */
export async function contentRoutes(app: FastifyInstance) {
  app.get('/api/pricing', async () => ({ levels: await listLevels(app.db) }));
  app.get('/api/state-requirements', async () => ({ states: await listStateRequirements(app.db) }));
}
