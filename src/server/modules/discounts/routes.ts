import { isDiscountRemoval } from '../../../shared/rules/billing.ts';
import { discountReserveSchema } from '../../../shared/schemas/payments.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { parseInput } from '../../validate.ts';
import { reserveDiscount } from './reserve-discount.ts';
import type { FastifyInstance } from 'fastify';

/** Discount codes on the billing screen (docs/requirements/product.md tool 14, docs/requirements/calls.md POST /app/discount/reserve). */
export async function discountRoutes(app: FastifyInstance) {
  app.post(
    '/app/discount/reserve',
    {
      config: { access: 'account-user', rateLimit: perMinute(app.config.rateLimits.discountPerMinute) },
    },
    async (req) => {
      const { accountId, onBehalf } = req.account;
      const raw = (req.body as { code?: unknown } | null | undefined)?.code;
      // docs/requirements/validation.md: an empty code removes the discount; anything else is checked by the shared schema.
      const code = isDiscountRemoval(raw) ? '' : parseInput(discountReserveSchema, req.body).code;
      const result = await reserveDiscount(app.db, accountId, req.currentUser.id, code, { onBehalf, ip: req.ip });
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
  );
}
