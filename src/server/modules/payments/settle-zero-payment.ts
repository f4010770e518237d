import { canSettleWithoutPayment } from '../../../shared/rules/billing.ts';
import { payments } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { getCompany } from '../content/get-company.ts';
import { redeemReservation } from '../discounts/redeem-reservation.ts';
import {
  applyCreditToInvoices,
  assertNotHeld,
  assertPayable,
  findPaymentByKey,
  lockInvoices,
  paymentRefId,
  summarizeLocked,
  type PaymentRow,
} from './payment-steps.ts';
import { notifyPaymentOutcome } from './payment-transitions.ts';
import type { PaymentOutcome } from '../../../shared/contracts/billing.ts';
import type { ZeroPayment } from '../../../shared/schemas/payments.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { PaymentDeps } from './pay-with-opaque-data.ts';

/** Answers of POST /app/payments/zero-payment (docs/requirements/errors.md leaves the texts open, except the toast on failure). */
export const ZERO_PAYMENT_MESSAGES = {
  settled: 'Your invoices were settled with the discount.',
  noDiscount: 'The discount code is no longer reserved for you. Please enter it again.',
  notCovered: 'The discount does not cover the whole balance. Please pay the rest by card or bank account.',
  alreadyRedeemed: 'This discount code has already been used.',
  keyUsed: 'This payment attempt has already been used. Please reload the page and try again.',
} as const;

/** docs/requirements/permissions.md: the zero-payment form always goes to /app/finances, admins included. */
const ZERO_PAYMENT_REDIRECT = '/app/finances';

/** Input of {@link settleZeroPayment}. */
/** A zero payment is only ever answered settled (200); refusals are thrown. */
type SettledAnswer = { statusCode: 200; body: PaymentOutcome };

export interface ZeroPaymentRequest {
  /** Parsed with zeroPaymentSchema. */
  input: ZeroPayment;
  user: SessionUser;
  /** The account settled for, already authorised (own account, or any account for an admin). */
  accountId: number;
  /** An admin settling for an account that is not their own: audited. */
  onBehalf: boolean;
  ip?: string;
}

/**
 * POST /app/payments/zero-payment (docs/requirements/product.md tool 14, docs/requirements/behaviour.md "Payment method", docs/requirements/validation.md "Settling without payment
 * is offered only when the discount is above 0 and the total is 0", docs/requirements/calls.md): settles the selected
 * invoices with the reserved discount, no gateway involved.
 *
 * 1. A payment with the same idempotency key already exists: its outcome is answered again and
 *    nothing is written (a double click, a retry).
 * 2. One transaction: the invoices are locked (FOR UPDATE); a twin with the same key that committed
 *    meanwhile is answered instead; every invoice must be the account's with a balance (else 404).
 *    The summary is recomputed with billingSummary and the discount from findReservedDiscount; the
 *    client's value and discount_total are not used. An invoice held by a payment in flight, held
 *    or pending answers 409 'A payment for this invoice is already being processed.' (docs/payments.md). Unless canSettleWithoutPayment holds (discount
 *    above 0, server total 0) the answer is 422 and nothing is written. Then the payment is
 *    inserted `paid`, method 'zero', amount 0, discount_cents = the discount used; the discount is
 *    applied to the balances oldest first (payment_invoices rows); the reservation is redeemed —
 *    when redeemReservation returns false the whole transaction rolls back with 422.
 *
 * Writes: payments, payment_invoices, invoices.balance_cents, discount_reservations, audit_log,
 * mail_outbox (the receipt, docs/mail.md "Transactional mails").
 * @throws HttpError 404 for an invoice that is not the account's or has nothing left to pay
 * @throws ValidationError 422 without a reserved discount, when the discount does not cover the
 *   total, when the reservation was already redeemed, or for a key used by another attempt
 */
export async function settleZeroPayment(
  deps: Omit<PaymentDeps, 'gateway' | 'limits'>,
  req: ZeroPaymentRequest,
): Promise<SettledAnswer> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const { input, accountId } = req;

  const existing = await findPaymentByKey(db, input.idempotency_key);
  if (existing) return replay(existing, accountId);

  const company = await getCompany(db);
  const outcome = await db.transaction(async (tx) => {
    const rows = await lockInvoices(tx, accountId, input.invoices);
    // A concurrent twin holding the same key settled these invoices while we waited for the locks.
    const twin = await findPaymentByKey(tx, input.idempotency_key);
    if (twin) return { twin };
    assertPayable(rows, input.invoices);
    assertNotHeld(rows);
    const at = now();
    const { discount, summary } = await summarizeLocked(tx, rows, accountId, input.discount_id, at);
    if (!discount || summary.discount_total <= 0)
      throw new ValidationError({ discount_id: [ZERO_PAYMENT_MESSAGES.noDiscount] });
    if (!canSettleWithoutPayment(summary)) throw new ValidationError({ value: [ZERO_PAYMENT_MESSAGES.notCovered] });

    const [row] = await tx
      .insert(payments)
      .values({
        accountId,
        userId: req.user.id,
        method: 'zero',
        status: 'paid',
        amountCents: 0,
        discountId: discount.id,
        discountReservationId: discount.reservationId,
        discountCents: summary.discount_total,
        invoiceIds: rows.map((r) => r.id),
        idempotencyKey: input.idempotency_key,
        settledAt: at,
      })
      .onConflictDoNothing({ target: payments.idempotencyKey })
      .returning();
    if (!row) return { twin: undefined };

    // discount_total may exceed the balances (eligible lines above a part-paid balance): the excess is forfeited (docs/requirements/validation.md).
    const unapplied = await applyCreditToInvoices(tx, row, summary.discount_total);
    if (!(await redeemReservation(tx, discount.reservationId, paymentRefId(row.id), at))) {
      throw new ValidationError({ discount_id: [ZERO_PAYMENT_MESSAGES.alreadyRedeemed] });
    }
    await notifyPaymentOutcome(tx, row, 'settled', company.name);
    if (req.onBehalf) {
      await recordAudit(tx, {
        actorUserId: req.user.id,
        accountId,
        action: 'payment.submitted_on_behalf',
        ip: req.ip,
        details: {
          paymentId: row.id,
          method: 'zero',
          amountCents: 0,
          discountCents: summary.discount_total,
          invoiceIds: row.invoiceIds,
        },
      });
    }
    return { row, unapplied };
  });

  if ('row' in outcome && outcome.row) {
    deps.log.info(
      {
        paymentId: outcome.row.id,
        accountId,
        discountCents: outcome.row.discountCents,
        forfeitedCents: outcome.unapplied,
      },
      'invoices settled with a discount',
    );
    return answerFor(outcome.row);
  }
  // Lost a race on the key: answer the winner's outcome.
  const twin = outcome.twin ?? (await findPaymentByKey(db, input.idempotency_key));
  if (!twin) throw new Error('payment with a conflicting idempotency key not found');
  return replay(twin, accountId);
}

/** The answer for a payment that already exists under the key: only a zero payment of this account. */
function replay(row: PaymentRow, accountId: number): SettledAnswer {
  if (row.accountId !== accountId || row.method !== 'zero')
    throw new ValidationError({ idempotency_key: [ZERO_PAYMENT_MESSAGES.keyUsed] });
  return answerFor(row);
}

/** `messages.resultCode` is what the billing screen reads (docs/requirements/calls.md). A zero payment is only ever stored paid. */
function answerFor(row: PaymentRow): SettledAnswer {
  return {
    statusCode: 200,
    body: {
      message: ZERO_PAYMENT_MESSAGES.settled,
      redirect: ZERO_PAYMENT_REDIRECT,
      status: row.status,
      payment_id: row.id,
      messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: ZERO_PAYMENT_MESSAGES.settled }] },
    },
  };
}
