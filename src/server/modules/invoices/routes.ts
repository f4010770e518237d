import { notFound } from '../../errors.ts';
import { getInvoice } from './get-invoice.ts';
import { listUnpaidInvoices } from './list-unpaid-invoices.ts';
import type { FastifyInstance } from 'fastify';

/** Largest serial id: anything else in the address cannot be an invoice. */
const MAX_ID = 2_147_483_647;

/** The invoice id of an address: a positive integer, or 404 like an unknown invoice (never 422). */
function invoiceIdOf(params: unknown): number {
  const raw = String((params as { id?: unknown }).id ?? '');
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(id <= MAX_ID)) throw notFound('The invoice');
  return id;
}

/** Billing reads (docs/requirements/product.md tool 14): the account's unpaid invoices and one invoice's page data. Visitors 401;
 * the unpaid list is the user's own account's, one invoice their own account's or any for staff (else 404). */
export async function invoiceRoutes(app: FastifyInstance) {
  app.get('/api/invoices/unpaid', { config: { access: 'signed-in' } }, async (req) => ({
    invoices: await listUnpaidInvoices(app.db, req.currentUser.accountId),
  }));
  app.get('/api/invoices/:id', { config: { access: 'signed-in' } }, async (req) =>
    getInvoice(app.db, req.currentUser, invoiceIdOf(req.params)),
  );
}
