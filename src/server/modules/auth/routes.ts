import { signInContracts } from '../../../shared/contracts/sign-in.ts';
import { siteContracts } from '../../../shared/contracts/site.ts';
import { fromContract } from '../../contracts.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { releaseLimitHits, takeLimits } from '../limits/take-limit.ts';
import { browserKnowsAddress, rememberAddress } from './known-devices.ts';
import { homeFor, signIn } from './sign-in.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Sign in, sign out and the session probe used by the web client (docs/requirements/platform.md §5.1).
 * Sign-in is limited per minute by client address (the rate-limit plugin) and, counted in the
 * database, by the address checks of the client address and the failed sign-ins of the account
 * from browsers that have not signed in to it before (docs/security.md "Sign-in and address probing").
 */
export async function authRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const login = fromContract(signInContracts.login);
  api.route({
    ...login,
    config: { ...login.config, rateLimit: perMinute(app.config.rateLimits.loginPerMinute) },
    handler: async (req, reply) => {
      const secure = app.config.cookieSecure;
      // docs/security.md "Sign-in and address probing": every attempt counts against the client
      // address's address checks and, from a browser that has not signed in with this address
      // before, against the address's failed sign-ins; a success gives both back.
      const takes = [
        ['address_checks_per_ip', req.ip],
        ['sign_in_failures_per_account', browserKnowsAddress(req, secure, req.body.email) ? null : req.body.email],
      ] as const;
      await takeLimits(app.db, app.config.limits, takes, { userId: null, ip: req.ip });
      const { userId, isAdmin } = await signIn(app.db, req.body);
      await releaseLimitHits(app.db, takes);
      rememberAddress(req, reply, secure, req.body.email);
      await app.startSession(req, reply, userId);
      await recordAudit(app.db, { actorUserId: userId, action: 'auth.login', ip: req.ip });
      return { redirect: await homeFor(app.db, userId, isAdmin), csrfToken: reply.csrfToken() };
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
