import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers on every response (docs/security.md: the CSP, HSTS on https): Helmet's middleware, built
 * once at start and applied in an onRequest hook. @fastify/helmet, which wrapped it before, builds
 * the middleware again for every request (parsing the whole Content-Security-Policy each time):
 * about 3 % of the server's CPU under the form benchmark (docs/benchmarks.md). The headers are the
 * same; no route sets options of its own.
 * @param opts Helmet's options, as for helmet(opts); throws at registration when Helmet rejects them
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, opts: HelmetOptions) => {
  const applyHeaders = helmet(opts);
  app.addHook('onRequest', (req, reply, done) => {
    applyHeaders(req.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}, { name: 'security-headers' });
