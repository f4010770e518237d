import { siteContracts } from '../../../shared/contracts/site.ts';
import { loginSchema } from '../../../shared/schemas/public-forms.ts';
import { fromContract } from '../../contracts.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { parseInput } from '../../validate.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { homeFor, signIn } from './sign-in.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Sign in, sign out and the session probe used by the web client (docs/requirements/platform.md §5.1). */
export async function authRoutes(app: FastifyInstance) {
  app.post(
    '/login',
    {
      config: { access: 'visitor', rateLimit: perMinute(app.config.rateLimits.loginPerMinute) },
    },
    async (req, reply) => {
      const input = parseInput(loginSchema, req.body);
      const { userId, isAdmin } = await signIn(app.db, input);
      await app.startSession(req, reply, userId);
      await recordAudit(app.db, { actorUserId: userId, action: 'auth.login', ip: req.ip });
      return { redirect: homeFor(isAdmin), csrfToken: reply.csrfToken() };
    },
  );

  app.post('/logout', { config: { access: 'visitor' } }, async (req, reply) => {
    await app.endSession(req, reply);
    return { redirect: '/', csrfToken: reply.csrfToken() };
  });

  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(siteContracts.session),
    handler: async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return { user: req.user, csrfToken: reply.csrfToken() };
    },
  });
}
