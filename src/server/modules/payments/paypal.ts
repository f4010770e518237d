// Longer than 400 lines: the PayPal flow's three steps (start, the way back, clearing) share the session rows
// and their states (docs/payments.md).
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import {
  billingSummary,
  centsToDollars,
  dollarsToCents,
  toDiscountPayload,
  type DiscountPayload,
} from '../../../shared/rules/billing.ts';
import { discountReservations, discounts, payments } from '../../db/schema.ts';
import { notFound, ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { toDiscount } from '../discounts/discount-row.ts';
import { findOrderDetails } from '../invoices/order-details.ts';
import {
  answerFor,
  isRefused,
  PAYMENT_MESSAGES,
  payerOf,
  recordOutcome,
  type PaymentAnswer,
  type PaymentDeps,
} from './pay-with-opaque-data.ts';
import { countPaymentDecline, takePaymentLimits } from './payment-limits.ts';
import {
  assertNotHeld,
  assertPayable,
  claimDiscount,
  holdInvoices,
  lockInvoices,
  paymentRefId,
  summarizeLocked,
  type PaymentRow,
} from './payment-steps.ts';
import type { WalletInit, WalletPayment } from '../../../shared/schemas/payments.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { ChargeOutcome, PaypalStartOutcome } from '../../providers/payments/authorize-net.ts';

/** Texts of the PayPal flow that docs/requirements/errors.md leaves open (its failures show the toast 'That didn't work.'). */
const PAYPAL_MESSAGES = {
  cancelled: 'This PayPal payment was cancelled.',
  unknown: 'This PayPal payment has ended. Please start again.',
  notStarted: 'PayPal could not be reached. Please try again or pay by card or bank account.',
  nothingToCharge: 'Nothing is left to pay. Please settle without payment.',
} as const;

/** docs/requirements/permissions.md: the wallet form always goes to /app/finances, admins included. */
const PAYPAL_REDIRECT = '/app/finances';

/** PayPal Express Checkout tokens last three hours; a session older than this is not offered back. */
const PAYPAL_SESSION_HOURS = 3;

/** Who starts or continues a PayPal payment, for which account (already authorised). */
export interface PaypalActor {
  user: SessionUser;
  accountId: number;
  /** An admin acting for an account that is not their own: audited. */
  onBehalf: boolean;
  ip?: string;
}

/** Answer of {@link startPaypal} on success: what docs/requirements/calls.md says the page reads. */
export interface PaypalStartAnswer {
  statusCode: 200;
  body: {
    messages: { resultCode: 'Ok' };
    transactionResponse: { transId: string; secureAcceptance: { secureAcceptanceUrl: string } };
  };
}

/**
 * The PayPal session the billing screen restores on return (docs/requirements/behaviour.md "Online wallet", "Discount
 * code": invoices locked, discount applied and locked): the latest unfinished PayPal payment of
 * the account, started within {@link PAYPAL_SESSION_HOURS}. `value` is decimal dollars.
 */
export interface PaypalSession {
  tx_id: string;
  invoices: number[];
  value: number;
  discount_id: number | null;
  discount: DiscountPayload | null;
  started_at: string;
}

/**
 * GET /app/payments/paypal/init (docs/requirements/product.md tool 14, docs/requirements/behaviour.md "Online wallet", docs/requirements/calls.md): opens a PayPal Express
 * Checkout payment through Authorize.Net for the selected invoices.
 *
 * First the payment limits (payment-limits.ts takePaymentLimits: 429 past the account's or the
 * client address's attempts or declines, docs/payments.md "Card testing"). One transaction locks the invoices (404 unless all are the account's with a balance), recomputes
 * the total with the reserved discount (422 'The amount changed…' when the payer's `value` differs,
 * 422 when nothing is left to pay), cancels the account's earlier unfinished PayPal session and
 * inserts the payment `awaiting_consent` (method 'paypal', a server-made idempotency key). Then the
 * gateway's authCapture with payPal is called once; its transId is stored and the secure
 * acceptance URL answered. Any other outcome marks the payment `failed` (nothing was charged: the
 * money moves only on continue) and answers 422 with the gateway's text.
 *
 * `returnUrl` is the billing screen's absolute address PayPal sends the payer back to; `paypal=return`
 * or `paypal=cancel` is added to it.
 * Writes: limit_counters, payments, audit_log (admins acting for an account; a limit's refusal).
 * @throws HttpError 404, ValidationError 422 as above; TooManyRequests 429 past a payment limit
 */
export async function startPaypal(
  deps: PaymentDeps,
  req: PaypalActor & { input: WalletInit; returnUrl: string },
): Promise<PaypalStartAnswer | PaymentAnswer> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const { input, accountId } = req;
  await takePaymentLimits(db, deps.limits, payerOf(req));

  const created = await db.transaction(async (tx) => {
    const rows = await lockInvoices(tx, accountId, input.invoices);
    assertPayable(rows, input.invoices);
    // Not worth sending the payer to PayPal for an invoice another payment holds (docs/payments.md).
    assertNotHeld(rows);
    const { discount, summary } = await summarizeLocked(tx, rows, accountId, input.discount_id, now());
    if (summary.total === 0) throw new ValidationError({ value: [PAYPAL_MESSAGES.nothingToCharge] });
    if (dollarsToCents(input.value) !== summary.total)
      throw new ValidationError({ value: [PAYMENT_MESSAGES.amountChanged] });
    await cancelOpenSessions(tx, accountId);
    const [row] = await tx
      .insert(payments)
      .values({
        accountId,
        userId: req.user.id,
        method: 'paypal',
        status: 'awaiting_consent',
        amountCents: summary.total,
        discountId: discount && summary.discount_total > 0 ? discount.id : null,
        discountReservationId: discount && summary.discount_total > 0 ? discount.reservationId : null,
        discountCents: summary.discount_total,
        invoiceIds: rows.map((r) => r.id),
        idempotencyKey: `paypal-${randomUUID()}`,
      })
      .returning();
    if (req.onBehalf) {
      await recordAudit(tx, {
        actorUserId: req.user.id,
        accountId,
        action: 'payment.paypal_started_on_behalf',
        ip: req.ip,
        details: { paymentId: row.id, amountCents: summary.total, invoiceIds: row.invoiceIds },
      });
    }
    return { payment: row, invoiceNumber: rows.map((r) => r.number).join(',') };
  });

  const { payment } = created;
  const back = (which: 'return' | 'cancel') => {
    const url = new URL(req.returnUrl);
    url.searchParams.set('paypal', which);
    return url.toString();
  };
  let outcome: PaypalStartOutcome;
  try {
    outcome = await deps.gateway.paypalAuthCapture({
      amountCents: payment.amountCents,
      successUrl: back('return'),
      cancelUrl: back('cancel'),
      refId: paymentRefId(payment.id),
      invoiceNumber: created.invoiceNumber,
      description: `GoodStanding payment ${payment.id}`,
    });
  } catch (err) {
    deps.log.error({ paymentId: payment.id, errName: (err as Error | null)?.name }, 'PayPal start threw');
    outcome = { status: 'unknown', reason: 'network' };
  }

  if (outcome.status === 'consent_required') {
    await db.update(payments).set({ gatewayTransId: outcome.transId }).where(eq(payments.id, payment.id));
    deps.log.info({ paymentId: payment.id, accountId }, 'PayPal payment awaiting consent');
    return {
      statusCode: 200,
      body: {
        messages: { resultCode: 'Ok' },
        transactionResponse: {
          transId: outcome.transId,
          secureAcceptance: { secureAcceptanceUrl: outcome.secureAcceptanceUrl },
        },
      },
    };
  }

  if (outcome.status === 'approved' || outcome.status === 'held') {
    // Not what the gateway documents for payPal (it answers 5 first), but money may have moved: record it.
    const [row] = await db.update(payments).set({ status: 'pending' }).where(eq(payments.id, payment.id)).returning();
    const settled = await recordOutcome(deps, row, outcome, now());
    return answerFor(settled.row, PAYPAL_REDIRECT, settled.unassignedCents);
  }
  // Before the payer approves, authCapture with payPal moves no money: a failed start is final.
  const code = outcome.status === 'unknown' ? null : outcome.code || outcome.message?.code || null;
  const text =
    outcome.status === 'unknown'
      ? PAYPAL_MESSAGES.notStarted
      : outcome.text || outcome.message?.text || PAYPAL_MESSAGES.notStarted;
  const [failed] = await db
    .update(payments)
    .set({ status: 'failed', gatewayCode: code, gatewayMessage: text, settledAt: now() })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'awaiting_consent')))
    .returning();
  deps.log.warn({ paymentId: payment.id, status: outcome.status }, 'PayPal payment could not start');
  return answerFor(failed ?? payment, PAYPAL_REDIRECT, 0);
}

/**
 * POST /app/payments/paypal (docs/requirements/product.md tool 14, docs/requirements/entities.md "Wallet", docs/requirements/calls.md): completes the PayPal payment the payer
 * approved. The session is the account's `awaiting_consent` PayPal payment whose transId is
 * `tx_id` (404 otherwise). A session already continued or ended answers its recorded outcome again
 * without calling the gateway (a double click, two tabs).
 *
 * The invoices and value must be the session's (422 'The amount changed…'), and the invoices must
 * still be open with the same total: the discount is the session's reservation while it is not
 * redeemed (its 30-minute hold may run out while the payer is at PayPal). Then the payment is
 * claimed (`awaiting_consent` → `pending`, one winner) and, as for a card, holds its invoices (409
 * 'A payment for this invoice is already being processed.' while another payment holds one) and
 * claims its discount (docs/payments.md). authCaptureContinue is called once with the PayerID, and
 * the outcome recorded as for a card: paid → applied to the invoices; held → 202; declined or
 * failed → the discount claim released and counted against the payer's declines (payment-limits.ts);
 * no answer → left pending (202), never retried.
 * Writes: limit_counters, payments, payment_invoices, invoices.balance_cents, discount_reservations, audit_log.
 * @throws HttpError 404 for an unknown session or an invoice that is no longer payable
 * @throws ValidationError 422 for changed invoices, value or total
 */
export async function continuePaypal(
  deps: PaymentDeps,
  req: PaypalActor & { input: WalletPayment },
): Promise<PaymentAnswer> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const { input, accountId } = req;

  const [session] = await db
    .select()
    .from(payments)
    .where(
      and(eq(payments.accountId, accountId), eq(payments.method, 'paypal'), eq(payments.gatewayTransId, input.tx_id)),
    )
    .limit(1);
  if (!session) throw notFound('The PayPal payment');
  if (session.status !== 'awaiting_consent') return answerFor(session, PAYPAL_REDIRECT, 0);

  const sameInvoices =
    [...input.invoices].sort((a, b) => a - b).join(',') === [...session.invoiceIds].sort((a, b) => a - b).join(',');
  if (!sameInvoices || dollarsToCents(input.value) !== session.amountCents) {
    throw new ValidationError({ value: [PAYMENT_MESSAGES.amountChanged] });
  }

  const claimed = await db.transaction(async (tx) => {
    const rows = await lockInvoices(tx, accountId, session.invoiceIds);
    // A twin submit may have claimed the session, and even paid the invoices, while this one
    // waited for their locks: it is answered below with what is recorded, not with 409.
    const [current] = await tx.select({ status: payments.status }).from(payments).where(eq(payments.id, session.id));
    if (current?.status !== 'awaiting_consent') return null;
    assertPayable(rows, session.invoiceIds);
    // Held by this very session: a twin submit claimed it first and is answered below.
    assertNotHeld(rows, session.id);
    const discount =
      session.discountReservationId === null
        ? null
        : await discountOfSession(tx, accountId, session.discountReservationId);
    if (session.discountReservationId !== null && !discount)
      throw new ValidationError({ discount_id: [PAYMENT_MESSAGES.amountChanged] });
    const lines = await findOrderDetails(
      tx,
      rows.map((r) => r.id),
    );
    const summary = billingSummary(
      rows.map((r) => ({
        id: r.id,
        balanceCents: r.balanceCents,
        lines: (lines.get(r.id) ?? []).map((l) => ({ type: l.type, valueCents: l.value_cents })),
      })),
      discount,
    );
    if (summary.total !== session.amountCents || summary.discount_total !== session.discountCents) {
      throw new ValidationError({ value: [PAYMENT_MESSAGES.amountChanged] });
    }
    const [row] = await tx
      .update(payments)
      .set({ status: 'pending' })
      .where(and(eq(payments.id, session.id), eq(payments.status, 'awaiting_consent')))
      .returning();
    if (row) {
      // From here money may move: the invoices are held and the code claimed, as for a card.
      await holdInvoices(tx, row.id, rows);
      if (row.discountReservationId !== null && row.discountCents > 0)
        await claimDiscount(tx, row.discountReservationId, row.id, now());
    }
    if (row && req.onBehalf) {
      await recordAudit(tx, {
        actorUserId: req.user.id,
        accountId,
        action: 'payment.submitted_on_behalf',
        ip: req.ip,
        details: { paymentId: row.id, method: 'paypal', amountCents: row.amountCents, invoiceIds: row.invoiceIds },
      });
    }
    return row ?? null;
  });

  if (!claimed) {
    // A twin request claimed it first: answer what is recorded now.
    const [current] = await db.select().from(payments).where(eq(payments.id, session.id));
    return answerFor(current, PAYPAL_REDIRECT, 0);
  }

  let outcome: ChargeOutcome;
  try {
    outcome = await deps.gateway.paypalContinue({
      refTransId: input.tx_id,
      payerId: input.payer_id,
      amountCents: claimed.amountCents,
      refId: paymentRefId(claimed.id),
    });
  } catch (err) {
    deps.log.error(
      { paymentId: claimed.id, errName: (err as Error | null)?.name },
      'PayPal continue threw; payment left pending',
    );
    outcome = { status: 'unknown', reason: 'network' };
  }
  const settled = await recordOutcome(deps, claimed, outcome, now());
  if (isRefused(settled.row)) await countPaymentDecline(db, payerOf(req));
  deps.log.info(
    { paymentId: claimed.id, accountId, status: settled.row.status, code: settled.row.gatewayCode },
    'PayPal payment recorded',
  );
  return answerFor(settled.row, PAYPAL_REDIRECT, settled.unassignedCents);
}

/**
 * GET /app/payments/paypal/clear (docs/requirements/behaviour.md "Online wallet": cancel clears the session): cancels
 * the account's unfinished PayPal payments. Nothing was charged for them.
 * Writes: payments.status 'cancelled'. @returns how many sessions were cancelled
 */
export async function clearPaypal(db: DbOrTx, accountId: number): Promise<number> {
  return (await cancelOpenSessions(db, accountId)).length;
}

/**
 * The account's PayPal session to restore on the billing screen, or null (none, or older than
 * {@link PAYPAL_SESSION_HOURS}). The discount is the session's reservation while it is unredeemed.
 * Reads only.
 */
export async function findPaypalSession(
  db: DbOrTx,
  accountId: number,
  now: Date = new Date(),
): Promise<PaypalSession | null> {
  const since = new Date(now.getTime() - PAYPAL_SESSION_HOURS * 3600_000);
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.accountId, accountId),
        eq(payments.method, 'paypal'),
        eq(payments.status, 'awaiting_consent'),
        gt(payments.createdAt, since),
      ),
    )
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(1);
  if (!row || !row.gatewayTransId) return null;
  const discount =
    row.discountReservationId === null ? null : await discountOfSession(db, accountId, row.discountReservationId);
  return {
    tx_id: row.gatewayTransId,
    invoices: row.invoiceIds,
    value: centsToDollars(row.amountCents),
    discount_id: discount?.id ?? null,
    discount: discount ? toDiscountPayload(discount) : null,
    started_at: row.createdAt.toISOString(),
  };
}

/** Marks every `awaiting_consent` PayPal payment of the account `cancelled`; returns their rows. */
async function cancelOpenSessions(db: DbOrTx, accountId: number): Promise<PaymentRow[]> {
  return db
    .update(payments)
    .set({ status: 'cancelled', gatewayMessage: PAYPAL_MESSAGES.cancelled, settledAt: new Date() })
    .where(
      and(eq(payments.accountId, accountId), eq(payments.method, 'paypal'), eq(payments.status, 'awaiting_consent')),
    )
    .returning();
}

/** The discount held by an unredeemed reservation of the account (its expiry is not checked: see continuePaypal). */
async function discountOfSession(db: DbOrTx, accountId: number, reservationId: number) {
  const [row] = await db
    .select({ discount: discounts })
    .from(discountReservations)
    .innerJoin(discounts, eq(discounts.id, discountReservations.discountId))
    .where(
      and(
        eq(discountReservations.id, reservationId),
        eq(discountReservations.accountId, accountId),
        isNull(discountReservations.redeemedAt),
      ),
    )
    .limit(1);
  return row ? toDiscount(row.discount) : null;
}
