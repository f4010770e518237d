import { signInContracts } from '../../../shared/contracts/sign-in.ts';
import { siteContracts } from '../../../shared/contracts/site.ts';
import { fromContract } from '../../contracts.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { homeFor, signIn } from './sign-in.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Sign in, sign out and the session probe used by the web client (docs/requirements/platform.md §5.1). */
export async function authRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const login = fromContract(signInContracts.login);
  api.route({
    ...login,
    config: { ...login.config, rateLimit: perMinute(app.config.rateLimits.loginPerMinute) },
    handler: async (req, reply) => {
      const { userId, isAdmin } = await signIn(app.db, req.body);
      await app.startSession(req, reply, userId);
      await recordAudit(app.db, { actorUserId: userId, action: 'auth.login', ip: req.ip });
      return { redirect: homeFor(isAdmin), csrfToken: reply.csrfToken() };
    },
  });

  api.route({
    ...fromContract(signInContracts.logout),
    handler: async (req, reply) => {
      await app.endSession(req, reply);
      return { redirect: '/', csrfToken: reply.csrfToken() };
    },
  });

  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(siteContracts.session),
    handler: async (req, reply) => ({ user: req.user, csrfToken: reply.csrfToken() }),
  });
}
