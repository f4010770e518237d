import { eq } from 'drizzle-orm';
import { paymentContracts } from '../../../shared/contracts/billing.ts';
import { fromContract } from '../../contracts.ts';
import { accounts } from '../../db/schema.ts';
import { requestOrigin } from '../../request-origin.ts';
import { listUnpaidInvoices } from '../invoices/list-unpaid-invoices.ts';
import { payWithOpaqueData } from './pay-with-opaque-data.ts';
import { clearPaypal, continuePaypal, findPaypalSession, startPaypal } from './paypal.ts';
import { settleZeroPayment } from './settle-zero-payment.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = (req: FastifyRequest) => ({
    db: app.db,
    gateway: app.providers.payments,
    limits: app.config.limits,
    log: req.log,
  });
  const actor = (req: FastifyRequest) => ({
    user: req.currentUser,
    accountId: req.account.accountId,
    onBehalf: req.account.onBehalf,
    ip: req.ip,
  });

  api.route({
    ...fromContract(paymentContracts.credit),
    handler: async (req, reply) => {
      const answer = await payWithOpaqueData(deps(req), { method: 'card', input: req.body, ...actor(req) });
      return reply.code(answer.statusCode).send(answer.body);
    },
  });
  api.route({
    ...fromContract(paymentContracts.bank),
    handler: async (req, reply) => {
      const answer = await payWithOpaqueData(deps(req), { method: 'bank', input: req.body, ...actor(req) });
      return reply.code(answer.statusCode).send(answer.body);
    },
  });
  api.route({
    ...fromContract(paymentContracts.zeroPayment),
    handler: async (req, reply) => {
      const answer = await settleZeroPayment({ db: app.db, log: req.log }, { input: req.body, ...actor(req) });
      return reply.code(answer.statusCode).send(answer.body);
    },
  });

  /**
   * What the billing screen needs (docs/requirements/screens.md "Billing/payment screen"): the account, its unpaid
   * invoices (amounts in cents), the tokenizer's public settings (never the transaction key) and
   * the PayPal session to restore on return from PayPal, or null.
   */
  const screen = fromContract(paymentContracts.screen);
  api.route({
    ...screen,
    config: { ...screen.config, accountScope: { optional: true } },
    handler: async (req) => {
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
        account: account ?? null,
        on_behalf: onBehalf,
        invoices: await listUnpaidInvoices(app.db, accountId),
        gateway: { accept_js_url: acceptJsUrl, api_login_id: apiLoginId, client_key: clientKey },
        paypal: await findPaypalSession(app.db, accountId),
      };
    },
  });
  const paypalInit = fromContract(paymentContracts.paypalInit);
  api.route({
    ...paypalInit,
    config: { ...paypalInit.config, csrf: true },
    handler: async (req, reply) => {
      const { accountId, onBehalf } = req.account;
      const answer = await startPaypal(deps(req), {
        input: req.query,
        ...actor(req),
        returnUrl: billingScreenUrl(requestOrigin(req, app.config.publicUrl), accountId, onBehalf),
      });
      return reply.code(answer.statusCode).send(answer.body);
    },
  });
  api.route({
    ...fromContract(paymentContracts.paypal),
    handler: async (req, reply) => {
      const answer = await continuePaypal(deps(req), { input: req.body, ...actor(req) });
      return reply.code(answer.statusCode).send(answer.body);
    },
  });
  const paypalClear = fromContract(paymentContracts.paypalClear);
  api.route({
    ...paypalClear,
    config: { ...paypalClear.config, csrf: true },
    handler: async (req) => ({ cleared: await clearPaypal(app.db, req.account.accountId) }),
  });
}
