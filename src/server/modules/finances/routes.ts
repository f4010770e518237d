import { financesQuery } from '../../../shared/schemas/finances.ts';
import { notFound } from '../../errors.ts';
import { parseInput } from '../../validate.ts';
import { getPaymentReceipt } from './get-receipt.ts';
import { listFinances } from './list-finances.ts';
import type { FastifyInstance } from 'fastify';

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
 * account's payments and one payment's receipt. Visitors 401.
 */
export async function financeRoutes(app: FastifyInstance) {
  // A holder's account_id is ignored, not checked: they always read their own account; staff
  // name one (422 "The account id field is required." when they name none and have none).
  const accountScope = { holderChoice: 'ignored', choice: financesQuery.pick({ account_id: true }) } as const;
  app.get('/api/finances', { config: { access: 'account-user', accountScope } }, async (req) => {
    const { page } = parseInput(financesQuery.pick({ page: true }), req.query);
    return listFinances(app.db, req.account.accountId, page);
  });
  // Own account's receipts, or any for staff; anything else 404 (get-receipt.ts).
  app.get('/api/payments/:id/receipt', { config: { access: 'signed-in' } }, async (req) =>
    getPaymentReceipt(app.db, req.currentUser, paymentIdOf(req.params)),
  );
}
