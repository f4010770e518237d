import { billingContracts } from '../../../shared/contracts/billing.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { getInvoice } from './get-invoice.ts';
import { listUnpaidInvoices } from './list-unpaid-invoices.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Billing reads (docs/requirements/product.md tool 14): the account's unpaid invoices and one invoice's page data. Visitors 401;
 * the unpaid list is the user's own account's, one invoice their own account's or any for staff (else 404). */
export async function invoiceRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...fromContract(billingContracts.unpaidInvoices),
    handler: async (req) => ({ invoices: await listUnpaidInvoices(app.db, req.currentUser.accountId) }),
  });
  // A malformed id is 404 like an unknown invoice (never 422).
  api.route({
    ...fromContract(billingContracts.invoice),
    handler: async (req) => getInvoice(app.db, req.currentUser, recordIdOf(req.params.id, 'The invoice')),
  });
}
