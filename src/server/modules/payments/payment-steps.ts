import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { billingSummary, type BillingSummary } from '../../../shared/rules/billing.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { discountReservations, invoices, paymentInvoices, payments } from '../../db/schema.ts';
import { HttpError, notFound, ValidationError } from '../../errors.ts';
import { findReservedDiscount, type ReservedDiscount } from '../discounts/find-reserved-discount.ts';
import { redeemReservation } from '../discounts/redeem-reservation.ts';
import { findOrderDetails } from '../invoices/order-details.ts';
import { queuePaidReinstatement } from '../reinstatement/order-reinstatement.ts';
import { applyPaidRenewal } from '../renewals/apply-paid-renewal.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Steps shared by the payment services (card and bank: pay-with-opaque-data.ts; zero payment:
 * settle-zero-payment.ts; PayPal: paypal.ts; staff actions and reconciliation). See
 * docs/payments.md and docs/decisions/004-payments-pending-first.md.
 */

/** docs/payments.md "One charge per invoice": the 409 answer while another payment holds an invoice. */
export const ALREADY_PROCESSING = 'A payment for this invoice is already being processed.';

export type PaymentRow = typeof payments.$inferSelect;

/** A selected invoice, locked for the payment's transaction. */
export interface LockedInvoice {
  id: number;
  number: string;
  balanceCents: number;
  /** The payment in flight, held or pending that holds the invoice, or null. */
  heldByPaymentId: number | null;
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
export async function lockInvoices(
  tx: DbOrTx,
  accountId: number,
  invoiceIds: readonly number[],
): Promise<LockedInvoice[]> {
  return tx
    .select({
      id: invoices.id,
      number: invoices.number,
      balanceCents: invoices.balanceCents,
      heldByPaymentId: invoices.heldByPaymentId,
    })
    .from(invoices)
    .where(and(inArray(invoices.id, [...invoiceIds]), eq(invoices.accountId, accountId)))
    .orderBy(asc(invoices.documentAt), asc(invoices.id))
    .for('update');
}

/** The 409 answer for an invoice of the account that has nothing left to pay. */
const ALREADY_PAID = 'This invoice has already been paid.';

/**
 * Every selected invoice must be among the locked rows (the account's) and still have a balance.
 * @throws HttpError 404 for an invoice that is not the account's (another account's invoice is
 *   never revealed); 409 ALREADY_PAID for one of the account's with nothing left to pay
 */
export function assertPayable(rows: readonly LockedInvoice[], invoiceIds: readonly number[]): void {
  if (rows.length !== new Set(invoiceIds).size) throw notFound('The invoice');
  if (rows.some((r) => r.balanceCents <= 0)) throw new HttpError(409, ALREADY_PAID);
}

/**
 * docs/payments.md "One charge per invoice": none of the locked invoices may be held by a payment
 * in flight, held for review or pending (other than `exceptPaymentId`). Call after lockInvoices:
 * the row locks make the check and the later holdInvoices one step on every server.
 * @throws HttpError 409 ALREADY_PROCESSING
 */
export function assertNotHeld(rows: readonly LockedInvoice[], exceptPaymentId?: number): void {
  if (rows.some((r) => r.heldByPaymentId !== null && r.heldByPaymentId !== exceptPaymentId))
    throw new HttpError(409, ALREADY_PROCESSING);
}

/**
 * Makes `paymentId` the holder of the locked invoices (invoices.held_by_payment_id), in the
 * transaction that inserts the payment. Only unheld invoices are taken, so a concurrent holder can
 * never be overwritten; the database releases the hold when the payment leaves 'pending' and 'held'
 * (trigger payments_release_invoices). Writes invoices.held_by_payment_id.
 * @throws HttpError 409 ALREADY_PROCESSING when any invoice is held by another payment
 */
export async function holdInvoices(tx: DbOrTx, paymentId: number, rows: readonly LockedInvoice[]): Promise<void> {
  const ids = rows.map((r) => r.id);
  const taken = await tx
    .update(invoices)
    .set({ heldByPaymentId: paymentId })
    .where(and(inArray(invoices.id, ids), isNull(invoices.heldByPaymentId)))
    .returning({ id: invoices.id });
  if (taken.length !== ids.length) throw new HttpError(409, ALREADY_PROCESSING);
}

/** The 422 answer when the account's code was claimed meanwhile by another payment. */
export const DISCOUNT_ALREADY_USED = 'This discount code has already been used.';

/**
 * Claims the account's reserved discount for payment `paymentId` before any money moves
 * (docs/payments.md "Discounts"): the reservation is marked redeemed with the payment's reference,
 * so a second payment (any method, any server) cannot use a once-per-account code too. Call in the
 * transaction that inserts the payment; a failure rolls the payment back. Released again by
 * releaseDiscountClaim when the payment moves no money. Writes discount_reservations.
 * @throws ValidationError 422 on `discount_id` DISCOUNT_ALREADY_USED when the code was claimed
 */
export async function claimDiscount(tx: DbOrTx, reservationId: number, paymentId: number, at: Date): Promise<void> {
  let claimed: boolean;
  try {
    claimed = await redeemReservation(tx, reservationId, paymentRefId(paymentId), at);
  } catch (err) {
    // Two reservations of one code redeemed at once: the unique index lets one through.
    if (!isUniqueViolation(err)) throw err;
    claimed = false;
  }
  if (!claimed) throw ValidationError.field('discount_id', DISCOUNT_ALREADY_USED);
}

/** Why a payment is put before staff (payments.review_reason), docs/payments.md "Reconciliation". */
export const REVIEW_REASONS = {
  unassigned: 'Approved, but its invoices were already settled: refund or void it.',
  noRecord: 'The gateway has no record of this charge after the wait.',
  gatewayMismatch: 'The gateway reports this charge differently from our records.',
} as const;

/** Takes a payment off the staff's list once they dealt with it (payments.review_reason). Writes payments. */
export async function clearReview(tx: DbOrTx, paymentId: number): Promise<void> {
  await tx.update(payments).set({ reviewReason: null }).where(eq(payments.id, paymentId));
}

/** Puts a payment before staff with `reason` (payments.review_reason). Writes payments. */
export async function markForReview(tx: DbOrTx, paymentId: number, reason: string): Promise<void> {
  await tx.update(payments).set({ reviewReason: reason }).where(eq(payments.id, paymentId));
}

/**
 * Gives back a discount claimed by a payment that moved no money (declined, failed, voided), so
 * the account may use the code again (docs/payments.md "Discounts"). The reservation becomes open
 * again unless the account already holds another open reservation of the same code, in which case
 * this one is removed. Writes discount_reservations. @returns true when a claim was released
 */
export async function releaseDiscountClaim(
  tx: DbOrTx,
  payment: Pick<PaymentRow, 'id' | 'discountReservationId'>,
): Promise<boolean> {
  if (payment.discountReservationId === null) return false;
  const ref = paymentRefId(payment.id);
  const [claimed] = await tx
    .select({ accountId: discountReservations.accountId, discountId: discountReservations.discountId })
    .from(discountReservations)
    .where(and(eq(discountReservations.id, payment.discountReservationId), eq(discountReservations.paymentRef, ref)))
    .for('update');
  if (!claimed) return false;
  const [open] = await tx
    .select({ id: discountReservations.id })
    .from(discountReservations)
    .where(
      and(
        eq(discountReservations.accountId, claimed.accountId),
        eq(discountReservations.discountId, claimed.discountId),
        isNull(discountReservations.redeemedAt),
      ),
    )
    .limit(1);
  if (open) {
    await tx.delete(discountReservations).where(eq(discountReservations.id, payment.discountReservationId));
  } else {
    await tx
      .update(discountReservations)
      .set({ redeemedAt: null, paymentRef: null })
      .where(eq(discountReservations.id, payment.discountReservationId));
  }
  return true;
}

/**
 * The server's summary of the locked invoices (docs/requirements/validation.md "Discounts and totals"), with the discount
 * only while the account holds an unexpired reservation of `discountId` (findReservedDiscount).
 * The client's value and discount total are never used.
 */
export async function summarizeLocked(
  tx: DbOrTx,
  rows: readonly LockedInvoice[],
  accountId: number,
  discountId: number | null,
  now: Date,
): Promise<{ discount: ReservedDiscount | null; summary: BillingSummary }> {
  const lines = await findOrderDetails(
    tx,
    rows.map((r) => r.id),
  );
  const discount = discountId ? await findReservedDiscount(tx, accountId, discountId, now) : null;
  const summary = billingSummary(
    rows.map((r) => ({
      id: r.id,
      balanceCents: r.balanceCents,
      lines: (lines.get(r.id) ?? []).map((l) => ({ type: l.type, valueCents: l.value_cents })),
    })),
    discount,
  );
  return { discount, summary };
}

/**
 * Applies `creditCents` (amount paid plus discount) to the payment's invoices oldest first: lowers
 * each balance (never below 0) and writes a payment_invoices row per invoice touched; a renewal
 * invoice paid in full is applied (applyPaidRenewal), a reinstatement order paid in full is put in
 * the staff work queue (queuePaidReinstatement). Locks the invoices again (a no-op when the
 * caller already holds them).
 * @returns the part of the credit that could not be applied (0 when all of it was)
 */
export async function applyCreditToInvoices(
  tx: DbOrTx,
  payment: Pick<PaymentRow, 'id' | 'accountId' | 'invoiceIds'>,
  creditCents: number,
): Promise<number> {
  const open = await lockInvoices(tx, payment.accountId, payment.invoiceIds);
  let credit = creditCents;
  for (const invoice of open) {
    const applied = Math.min(Math.max(0, invoice.balanceCents), credit);
    if (applied <= 0) continue;
    await tx
      .update(invoices)
      .set({ balanceCents: sql`${invoices.balanceCents} - ${applied}` })
      .where(eq(invoices.id, invoice.id));
    await tx.insert(paymentInvoices).values({ paymentId: payment.id, invoiceId: invoice.id, amountCents: applied });
    credit -= applied;
    // A renewal invoice paid in full renews the account (docs/requirements/product.md "Staff console");
    // a paid reinstatement order goes to staff to prepare (docs/irs-standing.md "Reinstatement").
    if (applied === invoice.balanceCents) {
      await applyPaidRenewal(tx, invoice.id);
      await queuePaidReinstatement(tx, invoice.id);
    }
  }
  return credit;
}
