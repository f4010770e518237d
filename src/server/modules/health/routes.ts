import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';

/** Longest wait for the database's answer before the check fails, in milliseconds. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * GET /healthz for load balancers and orchestrators (docs/deploy.md): 200 `{ status: 'ok' }` when
 * this process answers and its database runs a query within 2 s, otherwise 503
 * `{ status: 'unavailable' }`. While the server is closing Fastify itself answers 503, so a
 * balancer stops sending requests to a process being replaced. Not logged per request.
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { logLevel: 'warn' }, async (_req, reply) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        app.db.execute(sql`SELECT 1`),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('database check timed out')), CHECK_TIMEOUT_MS);
        }),
      ]);
      return reply.header('cache-control', 'no-store').send({ status: 'ok' });
    } catch (err) {
      app.log.warn({ err }, 'health check failed');
      return reply.code(503).header('cache-control', 'no-store').send({ status: 'unavailable' });
    } finally {
      clearTimeout(timer);
    }
  });
}
