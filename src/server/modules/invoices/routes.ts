import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { getInvoice } from './get-invoice.ts';
import { listUnpaidInvoices } from './list-unpaid-invoices.ts';

/** Largest serial id: anything else in the address cannot be an invoice. */
const MAX_ID = 2_147_483_647;

/** The invoice id of an address: a positive integer, or 404 like an unknown invoice (never 422). */
function invoiceIdOf(params: unknown): number {
  const raw = String((params as { id?: unknown }).id ?? '');
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(id <= MAX_ID)) throw notFound('The invoice');
  return id;
}

/** Billing reads (docs/requirements/product.md tool 14): the account's unpaid invoices and one invoice's page data. Signed-in users only (401). */
export async function invoiceRoutes(app: FastifyInstance) {
  app.get('/api/invoices/unpaid', { preHandler: requireUser }, async (req) => ({ invoices: await listUnpaidInvoices(app.db, req.user!.accountId) }));
  app.get('/api/invoices/:id', { preHandler: requireUser }, async (req) => getInvoice(app.db, req.user!, invoiceIdOf(req.params)));
}
