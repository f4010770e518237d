import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { formatEin } from '../../../shared/rules/formats.ts';
import { RECEIPT_STATUSES, type PaymentReceipt } from '../../../shared/schemas/finances.ts';
import { accounts, payments } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { getCompany } from '../content/get-company.ts';
import { toFinancePayments } from './payment-view.ts';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../plugins/session.ts';

/**
 * GET /api/payments/:id/receipt, for the printable page /app/payments/receipt/{id} (docs/requirements/product.md tool 14;
 * docs/requirements/entities.md "Company": name, phone; docs/requirements/permissions.md): one payment as `toFinancePayments` shapes it (integer cents,
 * ISO 8601 dates, the invoices it settled with the amount on each), the account paid for (name and
 * EIN formatted 12-3456789, '' when unknown) and the company (name, phone, e-mail).
 *
 * Only a paid or held payment has a receipt (held: the money was taken and is under review, so
 * its invoices carry `amount_cents` null); a pending, declined, failed, awaiting-consent or
 * cancelled one has none. Who may read it (docs/requirements/platform.md §5.6): a user of the payment's account; an
 * admin, any receipt. Writes nothing.
 * @throws HttpError 404 'The receipt could not be found.' for an unknown id, another account's
 *   payment and a payment without a receipt alike (never 403: nothing is revealed)
 */
export async function getPaymentReceipt(db: Db, user: SessionUser, id: number): Promise<PaymentReceipt> {
  const conditions: SQL[] = [eq(payments.id, id), inArray(payments.status, [...RECEIPT_STATUSES])];
  if (!user.isAdmin) {
    if (!user.accountId) throw notFound('The receipt');
    conditions.push(eq(payments.accountId, user.accountId));
  }
  const [row] = await db
    .select({ payment: payments, account: { id: accounts.id, name: accounts.name, ein: accounts.ein } })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.accountId))
    .where(and(...conditions))
    .limit(1);
  if (!row) throw notFound('The receipt');
  const [payment] = await toFinancePayments(db, row.account.id, [row.payment]);
  const ein = row.account.ein ?? '';
  const company = await getCompany(db);
  return {
    payment: must(payment, 'the receipt payment shaped'),
    account: { id: row.account.id, name: row.account.name, ein: formatEin(ein) },
    company: { name: company.name, phone: company.phone, email: company.email },
  };
}
