import { eq } from 'drizzle-orm';
import { dollarsToCents } from '../../../shared/rules/billing.ts';
import { payerRefusalText } from '../../../shared/rules/payment-refusals.ts';
import { payments } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import {
  splitFullName,
  type BillTo,
  type ChargeOutcome,
  type PaymentGateway,
} from '../../providers/payments/authorize-net.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { getCompany } from '../content/get-company.ts';
import { countPaymentDecline, takePaymentLimits, type Payer } from './payment-limits.ts';
import {
  assertNotHeld,
  assertPayable,
  claimDiscount,
  findPaymentByKey,
  holdInvoices,
  lockInvoices,
  summarizeLocked,
  type PaymentRow,
  paymentRefId,
} from './payment-steps.ts';
import { movePayment, notifyPaymentOutcome } from './payment-transitions.ts';
import type { PaymentOutcome, PaymentRefusal } from '../../../shared/contracts/billing.ts';
import type { BankPayment, CreditCardPayment } from '../../../shared/schemas/payments.ts';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { LimitSettings } from '../limits/limit-rules.ts';
import type { FastifyBaseLogger } from 'fastify';

/** docs/requirements/errors.md "Payments" texts, and this module's own answers for the cases docs/requirements/errors.md leaves open. */
export const PAYMENT_MESSAGES = {
  approved: 'This transaction has been approved.',
  failed: 'Unable to complete payment.',
  amountChanged: 'The amount changed. Please review and try again.',
  nothingToCharge: 'Nothing is left to pay by card or bank account. Please settle without payment.',
  keyUsed: 'This payment attempt has already been used for another account. Please reload the page and try again.',
  held: 'Your payment was received and is being reviewed. Your invoices will be updated once it is approved. Please do not pay again.',
  pending:
    'We could not confirm the payment yet. Please do not pay again; your invoices will be updated once the payment is confirmed.',
} as const;

type PaymentMethod = 'card' | 'bank';
/**
 * payments.status. 'awaiting_consent': a PayPal session the payer has not approved yet (nothing
 * charged); 'cancelled': such a session given up. 'pending': the gateway was or is being called.
 */
type PaymentStatus = 'awaiting_consent' | 'cancelled' | 'pending' | 'paid' | 'held' | 'declined' | 'failed';

/** What the route answers: the HTTP status and the JSON body. */
export interface PaymentAnswer {
  statusCode: 200 | 202 | 422;
  body: PaymentOutcome | PaymentRefusal;
}

/** Input of {@link payWithOpaqueData}. */
export interface OpaquePaymentRequest {
  method: PaymentMethod;
  /** Parsed with creditCardPaymentSchema (card) or bankPaymentSchema (bank). */
  input: CreditCardPayment | BankPayment;
  user: SessionUser;
  /** The account paid for, already authorised (own account, or any account for an admin). */
  accountId: number;
  /** An admin paying for an account that is not their own: audited. */
  onBehalf: boolean;
  ip?: string;
}

export interface PaymentDeps {
  db: Db;
  gateway: PaymentGateway;
  /** config.limits: the payment attempts and declines allowed (payment-limits.ts). */
  limits: LimitSettings;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  now?: () => Date;
}

/**
 * POST /app/payments/credit and /app/payments/bank (docs/payments.md; visitors 401, an account
 * user for their own account, staff for any account, audited): charges Accept.js opaque data for
 * the selected invoices.
 *
 * 1. A payment with the same idempotency key already exists: its outcome is answered again and the
 *    gateway is not called (a double click, a retry after a timeout, a concurrent submit). Any other
 *    attempt first takes the payment limits (payment-limits.ts: 429 past the account's or the client
 *    address's attempts per hour or declines per day; docs/payments.md "Card testing").
 * 2. One transaction: the invoices are locked (FOR UPDATE); a twin with the same key that committed
 *    meanwhile is answered instead. Every invoice must be the account's (404) with a balance (409
 *    'This invoice has already been paid.') and held by no other payment in flight, held or pending
 *    (409 'A payment for this invoice is already being processed.', on every server: the check and
 *    the hold are made under the row locks). Subtotal, discount (only a reservation held by the
 *    account, via findReservedDiscount) and total are recomputed with billingSummary; the client's
 *    `value` is never charged: when it differs the answer is 422 'The amount changed. Please review
 *    and try again.'. A total of 0 is 422 (zero payment is another route). The payment is inserted
 *    `pending` with the key, takes the hold on its invoices and claims its discount (422 when the
 *    code was used meanwhile), and the transaction commits: nothing of it is written on a refusal.
 * 3. The gateway is called once with refId `gs-pay-{id}`, invoiceNumber from the invoice
 *    numbers and duplicateWindow 0, so a retry right after a decline reaches the bank (docs/payments.md
 *    "Retrying after a decline").
 * 4. A second transaction records the outcome: approved → `paid`, the amount plus the discount is
 *    applied to the invoices' balances oldest first (payment_invoices rows); held → `held` (invoices
 *    still held, 202); declined → `declined`, error/duplicate → `failed` (422 with refusalMessage:
 *    what to do next, never the bank's reason, which staff keep; the discount claim is released; the
 *    decline is counted against the payer's limits); no answer → stays `pending` (202), never
 *    retried, left to the reconciliation (reconcile-payments.ts). The database releases the
 *    invoices when the payment leaves pending and held.
 *
 * Never stores or logs the opaque data; only the gateway's masked last four digits, codes and texts.
 * Writes: limit_counters, payments, payment_invoices, invoices (balance_cents, held_by_payment_id),
 * discount_reservations, audit_log, mail_outbox (the receipt, or the failed-payment notice); past a
 * limit only the refusal's audit row and staff alert (payment_alerts).
 * @throws HttpError 404 for an invoice that is not the account's; 409 for one already paid or held
 * @throws ValidationError 422 for a changed amount, a zero total, a used discount, or a key used by
 *   another account; TooManyRequests 429 past a payment limit
 */
export async function payWithOpaqueData(deps: PaymentDeps, req: OpaquePaymentRequest): Promise<PaymentAnswer> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const { input, accountId } = req;
  const redirect = req.user.isAdmin ? `/admin/payments/latest/${accountId}` : '/app/finances';

  const existing = await findPaymentByKey(db, input.idempotency_key);
  if (existing) return replay(existing, accountId, redirect);
  const payer = payerOf(req);
  await takePaymentLimits(db, deps.limits, payer);

  const created = await db.transaction(async (tx) => {
    const rows = await lockInvoices(tx, accountId, input.invoices);
    // A twin with the same key committed while we waited for the locks: answer its outcome.
    const twin = await findPaymentByKey(tx, input.idempotency_key);
    if (twin) return { twin };
    assertPayable(rows, input.invoices);
    assertNotHeld(rows);
    const at = now();
    const { discount, summary } = await summarizeLocked(tx, rows, accountId, input.discount_id, at);
    if (summary.total === 0) throw new ValidationError({ value: [PAYMENT_MESSAGES.nothingToCharge] });
    if (dollarsToCents(input.value) !== summary.total)
      throw new ValidationError({ value: [PAYMENT_MESSAGES.amountChanged] });
    const usesDiscount = discount !== null && summary.discount_total > 0;

    const [row] = await tx
      .insert(payments)
      .values({
        accountId,
        userId: req.user.id,
        method: req.method,
        status: 'pending',
        amountCents: summary.total,
        discountId: usesDiscount ? discount.id : null,
        discountReservationId: usesDiscount ? discount.reservationId : null,
        discountCents: summary.discount_total,
        invoiceIds: rows.map((r) => r.id),
        idempotencyKey: input.idempotency_key,
      })
      .onConflictDoNothing({ target: payments.idempotencyKey })
      .returning();
    if (!row) return { twin: undefined };
    await holdInvoices(tx, row.id, rows);
    // The code is claimed before the gateway is called, so a concurrent payment cannot use it too.
    if (usesDiscount) await claimDiscount(tx, discount.reservationId, row.id, at);
    if (req.onBehalf) {
      await recordAudit(tx, {
        actorUserId: req.user.id,
        accountId,
        action: 'payment.submitted_on_behalf',
        ip: req.ip,
        details: { paymentId: row.id, method: req.method, amountCents: summary.total, invoiceIds: row.invoiceIds },
      });
    }
    return { payment: row, invoiceNumber: rows.map((r) => r.number).join(',') };
  });

  if (!('payment' in created) || !created.payment) {
    // A concurrent request with the same key inserted first: answer its outcome, charge nothing.
    const twin = created.twin ?? (await findPaymentByKey(db, input.idempotency_key));
    if (!twin) throw new Error('payment with a conflicting idempotency key not found');
    return replay(twin, accountId, redirect);
  }

  const { payment } = created;
  let outcome: ChargeOutcome;
  try {
    outcome = await deps.gateway.chargeOpaqueData({
      amountCents: payment.amountCents,
      opaqueData: { dataDescriptor: input.dataDescriptor, dataValue: input.dataValue },
      refId: paymentRefId(payment.id),
      invoiceNumber: created.invoiceNumber,
      description: `GoodStanding payment ${payment.id}`,
      customer: { id: String(accountId) },
      billTo: billToOf(req),
      customerIp: req.ip,
      // Our idempotency key already stops a repeated attempt; the gateway's 120 s window would also
      // refuse a payer who fixes a declined card's zip code and tries again at once.
      duplicateWindowSeconds: 0,
    });
  } catch (err) {
    // The client promises not to throw for gateway trouble; if it does, the charge may have happened.
    deps.log.error(
      { paymentId: payment.id, errName: (err as Error | null)?.name },
      'payment gateway call threw; payment left pending',
    );
    outcome = { status: 'unknown', reason: 'network' };
  }

  const settled = await recordOutcome(deps, payment, outcome, now());
  if (isRefused(settled.row)) await countPaymentDecline(db, payer);
  deps.log.info(
    { paymentId: payment.id, accountId, status: settled.row.status, code: settled.row.gatewayCode },
    'payment recorded',
  );
  return answerFor(settled.row, redirect, settled.unassignedCents);
}

/** The payer as the payment limits count them. */
export const payerOf = (req: { user: SessionUser; accountId: number; ip?: string }): Payer => ({
  userId: req.user.id,
  accountId: req.accountId,
  ip: req.ip ?? '',
  isStaff: req.user.isAdmin,
});

/** Whether the gateway refused the payment (declined or failed): what the declines limits count. */
export const isRefused = (row: PaymentRow) => row.status === 'declined' || row.status === 'failed';

/** The answer for a payment that already exists under the key (never calls the gateway). */
function replay(row: PaymentRow, accountId: number, redirect: string): PaymentAnswer {
  if (row.accountId !== accountId) throw new ValidationError({ idempotency_key: [PAYMENT_MESSAGES.keyUsed] });
  return answerFor(row, redirect, 0);
}

/** docs/requirements/errors.md answers by status. `messages.resultCode` is what the billing screen reads (docs/requirements/calls.md). */
export function answerFor(row: PaymentRow, redirect: string, unassignedCents: number): PaymentAnswer {
  const status = row.status as PaymentStatus;
  switch (status) {
    case 'paid':
      return {
        statusCode: 200,
        body: {
          message: PAYMENT_MESSAGES.approved,
          redirect,
          status,
          payment_id: row.id,
          ...(unassignedCents > 0 ? { unassigned: true } : {}),
          messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: PAYMENT_MESSAGES.approved }] },
        },
      };
    case 'held':
      return {
        statusCode: 202,
        body: { message: PAYMENT_MESSAGES.held, redirect, status, payment_id: row.id, messages: { resultCode: 'Ok' } },
      };
    case 'pending':
      return {
        statusCode: 202,
        body: { message: PAYMENT_MESSAGES.pending, status, payment_id: row.id, messages: { resultCode: 'Ok' } },
      };
    default: {
      // Card and bank refusals say what to do next, never the bank's reason (staff keep it and the
      // code on the row); PayPal rows carry their own texts. The code the payer sees is the
      // payment's state, not the gateway's (docs/payments.md "Retrying after a decline").
      const text = payerRefusalText(row);
      return {
        statusCode: 422,
        body: {
          message: PAYMENT_MESSAGES.failed,
          errors: { payment: [text] },
          status,
          payment_id: row.id,
          messages: { resultCode: 'Error', message: [{ code: status, text }] },
        },
      };
    }
  }
}

/** billTo from the card holder's address, or the bank account's name. */
function billToOf(req: OpaquePaymentRequest): BillTo {
  if (req.method === 'card') {
    const card = req.input as CreditCardPayment;
    return {
      ...splitFullName(card.name),
      address: card.address,
      city: card.city,
      state: card.state,
      zip: card.zip,
      country: 'US',
      phoneNumber: card.phone || undefined,
    };
  }
  return { ...splitFullName((req.input as BankPayment).nameOnAccount) };
}

/**
 * Second transaction: writes the gateway's outcome onto the pending payment (only while it is
 * still pending) and, when approved, applies it to the invoices; when declined or failed, releases
 * the discount claim (docs/payments.md). In the same transaction it mails the account the receipt
 * (paid), the held-for-review notice (held) or the failed-payment notice (declined, failed).
 */
export async function recordOutcome(
  deps: PaymentDeps,
  payment: PaymentRow,
  outcome: ChargeOutcome,
  now: Date,
): Promise<{ row: PaymentRow; unassignedCents: number }> {
  if (outcome.status === 'unknown') {
    deps.log.warn(
      { paymentId: payment.id, reason: outcome.reason },
      'payment not confirmed by the gateway; left pending',
    );
    return { row: payment, unassignedCents: 0 };
  }
  const status =
    outcome.status === 'approved'
      ? 'paid'
      : outcome.status === 'held'
        ? 'held'
        : outcome.status === 'declined'
          ? 'declined'
          : 'failed';
  const company = await getCompany(deps.db);
  return deps.db.transaction(async (tx) => {
    const moved = await movePayment(
      tx,
      payment,
      ['pending'],
      status,
      {
        transId: outcome.transId,
        authCode: outcome.status === 'approved' ? outcome.authCode : null,
        accountLast4: 'accountNumber' in outcome ? outcome.accountNumber : null,
        accountType: 'accountType' in outcome ? outcome.accountType : null,
        code: outcome.code || outcome.message?.code || null,
        message: outcome.text || outcome.message?.text || null,
      },
      now,
    );
    if (!moved) {
      // Settled meanwhile by someone else (e.g. the reconciliation): report what is stored.
      const [current] = await tx.select().from(payments).where(eq(payments.id, payment.id));
      return { row: current, unassignedCents: 0 };
    }
    // The receipt, or the failed-payment notice, of this move only: a payment moved by someone
    // else first (the reconciliation) was mailed by them (docs/mail.md "Transactional mails").
    await notifyPaymentOutcome(
      tx,
      moved.row,
      status === 'paid' ? 'received' : status === 'held' ? 'held' : 'refused',
      company.name,
    );
    if (moved.unassignedCents > 0) {
      // docs/payments.md "Approved but unassigned": the invoices were settled meanwhile; staff must sort it out.
      deps.log.warn(
        { paymentId: moved.row.id, unassignedCents: moved.unassignedCents },
        'approved payment could not be fully applied to its invoices',
      );
    }
    return moved;
  });
}
