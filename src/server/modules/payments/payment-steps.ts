import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { billingSummary, type BillingSummary } from '../../../shared/rules/billing.ts';
import type { DbOrTx } from '../../db/client.ts';
import { invoices, paymentInvoices, payments } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { findReservedDiscount, type ReservedDiscount } from '../discounts/find-reserved-discount.ts';
import { findOrderDetails } from '../invoices/order-details.ts';
import { applyPaidRenewal } from '../renewals/apply-paid-renewal.ts';

/**
 * Steps shared by the payment services (card and bank: pay-with-opaque-data.ts; zero payment:
 * settle-zero-payment.ts). See docs/decisions/004-payments-pending-first.md.
 */

export type PaymentRow = typeof payments.$inferSelect;

/** A selected invoice, locked for the payment's transaction. */
export interface LockedInvoice {
  id: number;
  number: string;
  balanceCents: number;
}

/** The gateway's refId for a payment, also the reservation's payment_ref: at most 20 characters. */
export const paymentRefId = (paymentId: number) => `gs-pay-${paymentId}`;

/** The payment row holding `key`, or undefined. */
export async function findPaymentByKey(db: DbOrTx, key: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, key)).limit(1);
  return row;
}

/**
 * Locks (FOR UPDATE) the selected invoices that belong to `accountId`, oldest first, whatever
 * their balance. Call inside the payment's transaction, then `assertPayable`.
 */
export async function lockInvoices(tx: DbOrTx, accountId: number, invoiceIds: readonly number[]): Promise<LockedInvoice[]> {
  return tx
    .select({ id: invoices.id, number: invoices.number, balanceCents: invoices.balanceCents })
    .from(invoices)
    .where(and(inArray(invoices.id, [...invoiceIds]), eq(invoices.accountId, accountId)))
    .orderBy(asc(invoices.documentAt), asc(invoices.id))
    .for('update');
}

/**
 * Every selected invoice must be among the locked rows (the account's) and still have a balance.
 * @throws HttpError 404 otherwise (another account's invoice is never revealed)
 */
export function assertPayable(rows: readonly LockedInvoice[], invoiceIds: readonly number[]): void {
  if (rows.length !== new Set(invoiceIds).size || rows.some((r) => r.balanceCents <= 0)) throw notFound('The invoice');
}

/**
 * The server's summary of the locked invoices (SPEC §5 "Discounts and totals"), with the discount
 * only while the account holds an unexpired reservation of `discountId` (findReservedDiscount).
 * The client's value and discount total are never used.
 */
export async function summarizeLocked(
  tx: DbOrTx, rows: readonly LockedInvoice[], accountId: number, discountId: number | null, now: Date,
): Promise<{ discount: ReservedDiscount | null; summary: BillingSummary }> {
  const lines = await findOrderDetails(tx, rows.map((r) => r.id));
  const discount = discountId ? await findReservedDiscount(tx, accountId, discountId, now) : null;
  const summary = billingSummary(
    rows.map((r) => ({ id: r.id, balanceCents: r.balanceCents, lines: (lines.get(r.id) ?? []).map((l) => ({ type: l.type, valueCents: l.value_cents })) })),
    discount,
  );
  return { discount, summary };
}

/**
 * Applies `creditCents` (amount paid plus discount) to the payment's invoices oldest first: lowers
 * each balance (never below 0) and writes a payment_invoices row per invoice touched; a renewal
 * invoice paid in full is applied (applyPaidRenewal). Locks the invoices again (a no-op when the
 * caller already holds them).
 * @returns the part of the credit that could not be applied (0 when all of it was)
 */
export async function applyCreditToInvoices(tx: DbOrTx, payment: Pick<PaymentRow, 'id' | 'accountId' | 'invoiceIds'>, creditCents: number): Promise<number> {
  const open = await lockInvoices(tx, payment.accountId, payment.invoiceIds);
  let credit = creditCents;
  for (const invoice of open) {
    const applied = Math.min(Math.max(0, invoice.balanceCents), credit);
    if (applied <= 0) continue;
    await tx.update(invoices).set({ balanceCents: sql`${invoices.balanceCents} - ${applied}` }).where(eq(invoices.id, invoice.id));
    await tx.insert(paymentInvoices).values({ paymentId: payment.id, invoiceId: invoice.id, amountCents: applied });
    credit -= applied;
    // A renewal invoice paid in full renews the account (issue 7).
    if (applied === invoice.balanceCents) await applyPaidRenewal(tx, invoice.id);
  }
  return credit;
}
