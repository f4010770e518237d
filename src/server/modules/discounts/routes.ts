import { paymentContracts } from '../../../shared/contracts/billing.ts';
import { fromContract } from '../../contracts.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { reserveDiscount } from './reserve-discount.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Discount codes on the billing screen (docs/requirements/product.md tool 14, docs/requirements/calls.md POST /app/discount/reserve). */
export async function discountRoutes(app: FastifyInstance) {
  const reserve = fromContract(paymentContracts.reserveDiscount);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...reserve,
    config: { ...reserve.config, rateLimit: perMinute(app.config.rateLimits.discountPerMinute) },
    handler: async (req) => {
      const { accountId, onBehalf } = req.account;
      // docs/requirements/validation.md: an empty code (parsed as '') removes the discount.
      const result = await reserveDiscount(app.db, accountId, req.currentUser.id, req.body.code, {
        onBehalf,
        ip: req.ip,
      });
      if (result.discount === null) {
        // docs/requirements/errors.md: the payer only sees the discount removed; the reason stays in the log (never the code).
        req.log[result.reason === 'removed' ? 'debug' : 'info'](
          { accountId, reason: result.reason },
          'discount code not applied',
        );
        return { discount: null };
      }
      return result;
    },
  });
}
