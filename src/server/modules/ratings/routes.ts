import { createRatingContract } from '../../../shared/contracts/public-forms.ts';
import { fromContract } from '../../contracts.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { createRating } from './create-rating.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const RATING_THANKS = 'Thank you, we have received your review!';

/** POST /ratings (docs/requirements/product.md tool 10): anyone; the captcha is checked before the payload. */
export async function ratingRoutes(app: FastifyInstance) {
  const route = fromContract(createRatingContract);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...route,
    config: { ...route.config, rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
    preValidation: requireCaptcha,
    handler: async (req, reply) => {
      const id = await createRating(app.db, req.body, req.ip);
      return reply.status(201).send({ id, message: RATING_THANKS });
    },
  });
}
