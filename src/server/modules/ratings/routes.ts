import type { FastifyInstance } from 'fastify';
import { ratingSchema } from '../../../shared/schemas/public-forms.ts';
import { parseInput } from '../../validate.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { createRating } from './create-rating.ts';

export const RATING_THANKS = 'Thank you, we have received your review!';

/** POST /ratings (docs/requirements/product.md tool 10). */
export async function ratingRoutes(app: FastifyInstance) {
  app.post('/ratings', {
    config: { access: 'visitor', rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
    preHandler: requireCaptcha,
  }, async (req, reply) => {
    const input = parseInput(ratingSchema, req.body);
    const id = await createRating(app.db, input, req.ip);
    return reply.status(201).send({ id, message: RATING_THANKS });
  });
}
