import { signInContracts } from '../../../shared/contracts/sign-in.ts';
import { fromContract } from '../../contracts.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { homeFor } from '../auth/sign-in.ts';
import { getCompany } from '../content/get-company.ts';
import { takeLimits } from '../limits/take-limit.ts';
import { RESET_LINK_SENT, requestPasswordReset } from './request-password-reset.ts';
import { resetPassword } from './reset-password.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Password reset (docs/requirements/product.md tool 11): ask for a link, then set a new password with it.
 * Asking for a link mails the address typed, so it takes the public forms' limit per client address
 * and the reset links' limit per e-mail address first (docs/security.md "Limits on mail and payments").
 */
export async function passwordResetRoutes(app: FastifyInstance) {
  const limit = { rateLimit: perMinute(Math.max(1, Math.ceil(app.config.rateLimits.loginPerMinute / 2))) };
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** A route's options: the halved sign-in rate limit, and the captcha checked before the payload. */
  const limited = <R extends { config: object }>(route: R) => ({
    ...route,
    config: { ...route.config, ...limit },
    preValidation: requireCaptcha,
  });

  api.route({
    ...limited(fromContract(signInContracts.forgotPassword)),
    handler: async (req) => {
      // Counted for any address, known or not, so a refusal tells nothing (docs/security.md).
      await takeLimits(
        app.db,
        app.config.limits,
        [
          ['public_forms_per_ip', req.ip],
          ['password_resets_per_address', req.body.email],
        ],
        { userId: null, ip: req.ip },
      );
      const company = await getCompany(app.db);
      // Not awaited: a known and an unknown address answer in the same time (docs/requirements/platform.md §5.5).
      requestPasswordReset(app.db, req.body.email, app.config.publicUrl, company.name).catch((err: unknown) =>
        req.log.error({ err }, 'password reset request failed'),
      );
      return { message: RESET_LINK_SENT };
    },
  });

  api.route({
    ...limited(fromContract(signInContracts.resetPassword)),
    handler: async (req, reply) => {
      const company = await getCompany(app.db);
      const sender = { companyName: company.name, companyContact: company.email || company.phone };
      const { userId, isAdmin, invited } = await resetPassword(app.db, req.body, req.ip, sender);
      await app.startSession(req, reply, userId);
      return {
        url: await homeFor(app.db, userId, isAdmin),
        message: invited ? 'Your password is set. Welcome!' : 'Your password has been reset.',
      };
    },
  });
}
