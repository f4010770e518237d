import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bankPaymentSchema, creditCardPaymentSchema, zeroPaymentSchema } from '../../../shared/schemas/payments.ts';
import { requireUser } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { resolveDiscountAccount } from '../discounts/discount-account.ts';
import { payWithOpaqueData, type PaymentMethod } from './pay-with-opaque-data.ts';
import { settleZeroPayment } from './settle-zero-payment.ts';

/** `account_id`: only admins may name an account other than their own (DESIGN §5.6). */
const accountChoice = z.object({
  account_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().positive().optional()),
});

/**
 * Card and bank payments (SPEC tool 14, §7 POST /app/payments/credit and /app/payments/bank), and
 * settling with a discount that covers the whole total (POST /app/payments/zero-payment).
 * Signed-in users only (401). The body is never logged: it carries the opaque payment token.
 */
export async function paymentRoutes(app: FastifyInstance) {
  const pay = (method: PaymentMethod, schema: typeof creditCardPaymentSchema | typeof bankPaymentSchema) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const input = parseInput(schema, req.body);
      const { account_id } = parseInput(accountChoice, req.body);
      const { accountId, onBehalf } = await resolveDiscountAccount(app.db, req.user!, account_id);
      const answer = await payWithOpaqueData(
        { db: app.db, gateway: app.providers.payments, log: req.log },
        { method, input, user: req.user!, accountId, onBehalf, ip: req.ip },
      );
      return reply.code(answer.statusCode).send(answer.body);
    };

  app.post('/app/payments/credit', { preHandler: requireUser }, pay('card', creditCardPaymentSchema));
  app.post('/app/payments/bank', { preHandler: requireUser }, pay('bank', bankPaymentSchema));
  app.post('/app/payments/zero-payment', { preHandler: requireUser }, async (req, reply) => {
    const input = parseInput(zeroPaymentSchema, req.body);
    const { account_id } = parseInput(accountChoice, req.body);
    const { accountId, onBehalf } = await resolveDiscountAccount(app.db, req.user!, account_id);
    const answer = await settleZeroPayment({ db: app.db, log: req.log }, { input, user: req.user!, accountId, onBehalf, ip: req.ip });
    return reply.code(answer.statusCode).send(answer.body);
  });
}
