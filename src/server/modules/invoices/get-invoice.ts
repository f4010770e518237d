import { and, asc, eq, type SQL } from 'drizzle-orm';
import { accounts, invoices, paymentInvoices, payments } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { findOrderDetails } from './order-details.ts';
import type { AppliedPayment, InvoiceView } from '../../../shared/schemas/invoices.ts';
import type { PaymentType } from '../../../shared/schemas/payments.ts';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../plugins/session.ts';

/** payments.method → the payload `type` the page names it by (docs/requirements/entities.md "Payment payloads"). */
const PAYMENT_TYPE_OF_METHOD: Readonly<Record<string, PaymentType>> = {
  card: 'credit_card',
  bank: 'bank_account',
  paypal: 'paypal',
  zero: 'zero_payment',
};

/**
 * One invoice for its page /app/invoices/show/{id} (docs/requirements/product.md tool 14, docs/requirements/screens.md; docs/requirements/entities.md "Invoice"): number,
 * date, the organization billed, order details (label, type, value), public notes, value, balance
 * and the payments applied to it. Amounts in integer cents (`*_cents`), dates as ISO 8601.
 *
 * Who may read it (docs/requirements/platform.md §5.6): a user of the invoice's own account; an admin, any invoice
 * (reading writes no audit row: only acting on behalf of an account is logged).
 * `payments` lists what paid payments applied to this invoice (payment_invoices), oldest first;
 * a zero payment (settled by a discount) shows as type 'zero_payment'.
 * Writes nothing.
 * @throws HttpError 404 'The invoice could not be found.' for an unknown id and for another
 *   account's invoice alike (never 403: it does not reveal that the invoice exists)
 */
export async function getInvoice(db: Db, user: SessionUser, id: number): Promise<InvoiceView> {
  const conditions: SQL[] = [eq(invoices.id, id)];
  if (!user.isAdmin) {
    if (!user.accountId) throw notFound('The invoice');
    conditions.push(eq(invoices.accountId, user.accountId));
  }
  const [row] = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      documentAt: invoices.documentAt,
      publicNotes: invoices.publicNotes,
      valueCents: invoices.valueCents,
      balanceCents: invoices.balanceCents,
      accountId: accounts.id,
      name: accounts.name,
      street: accounts.street,
      city: accounts.city,
      state: accounts.state,
      zip: accounts.zip,
    })
    .from(invoices)
    .innerJoin(accounts, eq(accounts.id, invoices.accountId))
    .where(and(...conditions));
  if (!row) throw notFound('The invoice');
  const lines = await findOrderDetails(db, [row.id]);
  const applied = await db
    .select({
      id: payments.id,
      method: payments.method,
      paidAt: payments.settledAt,
      createdAt: payments.createdAt,
      amountCents: paymentInvoices.amountCents,
    })
    .from(paymentInvoices)
    .innerJoin(payments, eq(payments.id, paymentInvoices.paymentId))
    .where(and(eq(paymentInvoices.invoiceId, row.id), eq(payments.status, 'paid')))
    .orderBy(asc(paymentInvoices.createdAt), asc(paymentInvoices.id));
  const appliedPayments: AppliedPayment[] = applied.map((p) => ({
    id: p.id,
    paid_at: (p.paidAt ?? p.createdAt).toISOString(),
    type: PAYMENT_TYPE_OF_METHOD[p.method] ?? 'credit_card',
    amount_cents: p.amountCents,
  }));
  return {
    id: row.id,
    number: row.number,
    document_at: row.documentAt.toISOString(),
    public_notes: row.publicNotes,
    value_cents: row.valueCents,
    balance_cents: row.balanceCents,
    organization: {
      id: row.accountId,
      name: row.name,
      street: row.street,
      city: row.city,
      state: row.state,
      zip: row.zip,
    },
    order_details: lines.get(row.id) ?? [],
    payments: appliedPayments,
  };
}
