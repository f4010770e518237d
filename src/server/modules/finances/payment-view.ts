import { and, asc, eq, inArray } from 'drizzle-orm';
import { invoices, paymentInvoices, paymentRefunds, payments } from '../../db/schema.ts';
import type { FinanceInvoice, FinanceMethod, FinancePayment, FinanceStatus } from '../../../shared/schemas/finances.ts';
import type { DbOrTx } from '../../db/client.ts';

export type PaymentRow = typeof payments.$inferSelect;

/**
 * Payment rows of one account as the finances page and the receipt show them (docs/requirements/product.md tool 14), in
 * the order given. Each payment's invoices, oldest first:
 * - a paid or refunded payment: what it settled on each invoice (payment_invoices joined with
 *   invoices), `amount_cents` in integer cents (a refund gives money back; it leaves the invoice
 *   settled, docs/payments.md);
 * - any other status (held, pending, declined, failed, voided): the invoices it was meant for
 *   (payments.invoice_ids) with `amount_cents` null, since nothing was applied to them. A paid
 *   payment without allocation rows is shown the same way.
 * Each carries its refunds (payment_refunds that went through), oldest first.
 * Only invoices of `accountId` are read, so a stray id never reveals another account's invoice.
 * Reads payment_invoices, payment_refunds and invoices; writes nothing.
 */
export async function toFinancePayments(
  db: DbOrTx,
  accountId: number,
  rows: readonly PaymentRow[],
): Promise<FinancePayment[]> {
  return shapePayments(db, rows, () => accountId);
}

/**
 * Payment rows of any accounts (the admin's payments list), shaped like `toFinancePayments` in the
 * order given: each payment shows only invoices of its own account. Two queries whatever the
 * number of accounts. Reads payment_invoices and invoices; writes nothing.
 */
export async function toFinancePaymentsOfAccounts(db: DbOrTx, rows: readonly PaymentRow[]): Promise<FinancePayment[]> {
  return shapePayments(db, rows, (r) => r.accountId);
}

/** The shaping of both: `accountOf(row)` is the only account whose invoices a row may show. */
async function shapePayments(
  db: DbOrTx,
  rows: readonly PaymentRow[],
  accountOf: (row: PaymentRow) => number,
): Promise<FinancePayment[]> {
  if (!rows.length) return [];
  const accountIds = [...new Set(rows.map(accountOf))];
  const accountOfPayment = new Map(rows.map((r) => [r.id, accountOf(r)]));
  const paidIds = rows.filter((r) => r.status === 'paid' || r.status === 'refunded').map((r) => r.id);
  const applied = new Map<number, FinanceInvoice[]>();
  if (paidIds.length) {
    const allocations = await db
      .select({
        paymentId: paymentInvoices.paymentId,
        accountId: invoices.accountId,
        id: invoices.id,
        number: invoices.number,
        amount_cents: paymentInvoices.amountCents,
      })
      .from(paymentInvoices)
      .innerJoin(invoices, eq(invoices.id, paymentInvoices.invoiceId))
      .where(and(inArray(paymentInvoices.paymentId, paidIds), inArray(invoices.accountId, accountIds)))
      .orderBy(asc(invoices.documentAt), asc(invoices.id));
    for (const { paymentId, accountId, ...invoice } of allocations) {
      if (accountOfPayment.get(paymentId) !== accountId) continue;
      const list = applied.get(paymentId);
      if (list) list.push(invoice);
      else applied.set(paymentId, [invoice]);
    }
  }

  const selectedIds = [...new Set(rows.filter((r) => !applied.has(r.id)).flatMap((r) => r.invoiceIds))];
  const numbers = new Map<number, { number: string; accountId: number }>();
  if (selectedIds.length) {
    const found = await db
      .select({ id: invoices.id, number: invoices.number, accountId: invoices.accountId })
      .from(invoices)
      .where(and(inArray(invoices.id, selectedIds), inArray(invoices.accountId, accountIds)));
    for (const r of found) numbers.set(r.id, { number: r.number, accountId: r.accountId });
  }
  const refunds = new Map<number, { amount_cents: number; created_at: string }[]>();
  const refundedIds = rows.filter((r) => r.refundedCents > 0).map((r) => r.id);
  if (refundedIds.length) {
    const done = await db
      .select({
        paymentId: paymentRefunds.paymentId,
        amount_cents: paymentRefunds.amountCents,
        at: paymentRefunds.settledAt,
        createdAt: paymentRefunds.createdAt,
      })
      .from(paymentRefunds)
      .where(and(inArray(paymentRefunds.paymentId, refundedIds), eq(paymentRefunds.status, 'refunded')))
      .orderBy(asc(paymentRefunds.id));
    for (const r of done) {
      const entry = { amount_cents: r.amount_cents, created_at: (r.at ?? r.createdAt).toISOString() };
      const list = refunds.get(r.paymentId);
      if (list) list.push(entry);
      else refunds.set(r.paymentId, [entry]);
    }
  }
  const ownInvoice = (r: PaymentRow, id: number) => numbers.get(id)?.accountId === accountOf(r);

  return rows.map((r) => ({
    id: r.id,
    method: r.method as FinanceMethod,
    status: r.status as FinanceStatus,
    amount_cents: r.amountCents,
    discount_cents: r.discountCents,
    account_type: r.accountType,
    account_last4: r.accountLast4,
    auth_code: r.authCode,
    gateway_trans_id: r.gatewayTransId,
    created_at: r.createdAt.toISOString(),
    settled_at: r.settledAt ? r.settledAt.toISOString() : null,
    refunded_cents: r.refundedCents,
    refunds: refunds.get(r.id) ?? [],
    // invoice_ids were stored oldest first by the payment step (lockInvoices' order).
    invoices:
      applied.get(r.id) ??
      r.invoiceIds.flatMap((id) => {
        const invoice = numbers.get(id);
        return invoice && ownInvoice(r, id) ? [{ id, number: invoice.number, amount_cents: null }] : [];
      }),
  }));
}
