import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { financesQuery } from '../../../shared/schemas/finances.ts';
import { getPaymentReceipt } from './get-receipt.ts';
import { listFinances } from './list-finances.ts';

/** Largest serial id: anything else in the address cannot be a payment. */
const MAX_ID = 2_147_483_647;

/** The payment id of an address: a positive integer, or 404 like an unknown payment (never 422). */
function paymentIdOf(params: unknown): number {
  const raw = String((params as { id?: unknown }).id ?? '');
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(id <= MAX_ID)) throw notFound('The receipt');
  return id;
}

/**
 * Where payments land (docs/requirements/product.md tool 14; docs/requirements/screens.md /app/finances, /admin/payments/latest/{accountId}): the
 * account's payments and one payment's receipt. Signed-in users only (401).
 */
export async function financeRoutes(app: FastifyInstance) {
  app.get('/api/finances', { preHandler: requireUser }, async (req) => {
    const raw = (req.query ?? {}) as Record<string, unknown>;
    // A holder's account_id is ignored, not checked: they always read their own account.
    const query = parseInput(financesQuery, req.user!.isAdmin ? raw : { page: raw.page });
    return listFinances(app.db, req.user!, query);
  });
  app.get('/api/payments/:id/receipt', { preHandler: requireUser }, async (req) => getPaymentReceipt(app.db, req.user!, paymentIdOf(req.params)));
}
