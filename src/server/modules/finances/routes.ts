import { billingContracts } from '../../../shared/contracts/billing.ts';
import { financesQuery } from '../../../shared/schemas/finances.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { getPaymentReceipt } from './get-receipt.ts';
import { listFinances } from './list-finances.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Where payments land (docs/requirements/product.md tool 14; docs/requirements/screens.md /app/finances, /admin/payments/latest/{accountId}): the
 * account's payments and one payment's receipt. Visitors 401.
 */
export async function financeRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // A holder's account_id is ignored, not checked: they always read their own account; staff
  // name one (422 "The account id field is required." when they name none and have none).
  const accountScope = { holderChoice: 'ignored', choice: financesQuery.pick({ account_id: true }) } as const;
  const finances = fromContract(billingContracts.finances);
  api.route({
    ...finances,
    config: { ...finances.config, accountScope },
    handler: async (req) => listFinances(app.db, req.account.accountId, req.query.page),
  });
  // Own account's receipts, or any for staff; anything else 404 (get-receipt.ts), a malformed id too (never 422).
  api.route({
    ...fromContract(billingContracts.receipt),
    handler: async (req) => getPaymentReceipt(app.db, req.currentUser, recordIdOf(req.params.id, 'The receipt')),
  });
}
