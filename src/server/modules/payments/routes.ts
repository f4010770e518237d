import { eq } from 'drizzle-orm';
import {
  bankPaymentSchema,
  creditCardPaymentSchema,
  walletInitSchema,
  walletPaymentSchema,
  zeroPaymentSchema,
} from '../../../shared/schemas/payments.ts';
import { accounts } from '../../db/schema.ts';
import { requestOrigin } from '../../request-origin.ts';
import { parseInput } from '../../validate.ts';
import { listUnpaidInvoices } from '../invoices/list-unpaid-invoices.ts';
import { payWithOpaqueData, type PaymentMethod } from './pay-with-opaque-data.ts';
import { clearPaypal, continuePaypal, findPaypalSession, startPaypal } from './paypal.ts';
import { settleZeroPayment } from './settle-zero-payment.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The billing screen's own address on the origin the payer's browser used (requestOrigin), where
 * PayPal sends the payer back with their session cookie: with `account_id` for an admin paying for
 * another account so the screen reopens on that account.
 */
function billingScreenUrl(origin: string, accountId: number, onBehalf: boolean): string {
  const url = new URL('/app/payments', origin);
  if (onBehalf) url.searchParams.set('account_id', String(accountId));
  return url.toString();
}

/**
 * Card and bank payments (docs/requirements/product.md tool 14, docs/requirements/calls.md POST /app/payments/credit and /app/payments/bank), and
 * settling with a discount that covers the whole total (POST /app/payments/zero-payment), and
 * PayPal (GET /app/payments/paypal/init, POST /app/payments/paypal, GET /app/payments/paypal/clear;
 * the two GETs change state, so they require the CSRF header like a POST).
 * Any user of the account, or staff for any account through `account_id` (config.access
 * 'account-user'; visitors 401, another account 404). The body is never logged: it carries the opaque payment token.
 */
export async function paymentRoutes(app: FastifyInstance) {
  const pay =
    (method: PaymentMethod, schema: typeof creditCardPaymentSchema | typeof bankPaymentSchema) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const input = parseInput(schema, req.body);
      const { accountId, onBehalf } = req.account;
      const answer = await payWithOpaqueData(
        { db: app.db, gateway: app.providers.payments, log: req.log },
        { method, input, user: req.currentUser, accountId, onBehalf, ip: req.ip },
      );
      return reply.code(answer.statusCode).send(answer.body);
    };

  app.post('/app/payments/credit', { config: { access: 'account-user' } }, pay('card', creditCardPaymentSchema));
  app.post('/app/payments/bank', { config: { access: 'account-user' } }, pay('bank', bankPaymentSchema));
  app.post('/app/payments/zero-payment', { config: { access: 'account-user' } }, async (req, reply) => {
    const input = parseInput(zeroPaymentSchema, req.body);
    const { accountId, onBehalf } = req.account;
    const answer = await settleZeroPayment(
      { db: app.db, log: req.log },
      { input, user: req.currentUser, accountId, onBehalf, ip: req.ip },
    );
    return reply.code(answer.statusCode).send(answer.body);
  });

  /**
   * What the billing screen needs (docs/requirements/screens.md "Billing/payment screen"): the account, its unpaid
   * invoices (amounts in cents), the tokenizer's public settings (never the transaction key) and
   * the PayPal session to restore on return from PayPal, or null.
   */
  app.get(
    '/api/payments/screen',
    { config: { access: 'account-user', accountScope: { optional: true } } },
    async (req) => {
      // A user whose application is not submitted yet has no organization and nothing to pay: an
      // empty screen, not a 404 (docs/payments.md "No organization yet"). Staff still name an account.
      if (req.actingAccount === null) {
        return { account: null, on_behalf: false, invoices: [], gateway: null, paypal: null };
      }
      const { accountId, onBehalf } = req.account;
      const [account] = await app.db
        .select({ id: accounts.id, name: accounts.name })
        .from(accounts)
        .where(eq(accounts.id, accountId));
      const { acceptJsUrl, apiLoginId, clientKey } = app.config.payments;
      return {
        account,
        on_behalf: onBehalf,
        invoices: await listUnpaidInvoices(app.db, accountId),
        gateway: { accept_js_url: acceptJsUrl, api_login_id: apiLoginId, client_key: clientKey },
        paypal: await findPaypalSession(app.db, accountId),
      };
    },
  );
  app.get('/app/payments/paypal/init', { config: { access: 'account-user', csrf: true } }, async (req, reply) => {
    const input = parseInput(walletInitSchema, req.query);
    const { accountId, onBehalf } = req.account;
    const answer = await startPaypal(
      { db: app.db, gateway: app.providers.payments, log: req.log },
      {
        input,
        user: req.currentUser,
        accountId,
        onBehalf,
        ip: req.ip,
        returnUrl: billingScreenUrl(requestOrigin(req, app.config.publicUrl), accountId, onBehalf),
      },
    );
    return reply.code(answer.statusCode).send(answer.body);
  });
  app.post('/app/payments/paypal', { config: { access: 'account-user' } }, async (req, reply) => {
    const input = parseInput(walletPaymentSchema, req.body);
    const { accountId, onBehalf } = req.account;
    const answer = await continuePaypal(
      { db: app.db, gateway: app.providers.payments, log: req.log },
      { input, user: req.currentUser, accountId, onBehalf, ip: req.ip },
    );
    return reply.code(answer.statusCode).send(answer.body);
  });
  app.get('/app/payments/paypal/clear', { config: { access: 'account-user', csrf: true } }, async (req) => {
    const { accountId } = req.account;
    return { cleared: await clearPaypal(app.db, accountId) };
  });
}
