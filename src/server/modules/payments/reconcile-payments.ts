// Longer than 400 lines: one reconciliation round: claiming payments, asking the gateway, settling each and
// recording what no payment explains, under one lease (docs/payments.md).
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { gatewayDiscrepancies, paymentRefunds, payments } from '../../db/schema.ts';
import { markForReview, REVIEW_REASONS, type PaymentRow } from './payment-steps.ts';
import { movePayment, notifyPaymentOutcome, type PaymentNotice } from './payment-transitions.ts';
import { recordRefundOutcome } from './refund-outcome.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { GatewayTransaction, PaymentGateway, TransactionSummary } from '../../providers/payments/authorize-net.ts';
import type { FastifyBaseLogger } from 'fastify';

/** The refId a payment's charge is sent with, and a refund's: gs-pay-{id}, gs-ref-{id}. */
const PAYMENT_REF = /^gs-pay-(\d{1,10})$/;
const REFUND_REF = /^gs-ref-(\d{1,10})$/;
/** The resolution written on a gateway transaction that is not this site's (so it is not read again). */
const FOREIGN_TRANSACTION = 'Not a charge of this site.';
/** Why a pending refund is recorded failed: its refId is not among the unsettled transactions. */
const REFUND_NOT_FOUND = 'The payment gateway has no record of this refund.';
/** Pages of getUnsettledTransactionList read per run at most (1,000 transactions each). */
const MAX_PAGES = 20;
/** A payment is asked about at most once a minute, whichever server runs the job. */
const RECHECK_MS = 60_000;

/** What the gateway's transactionStatus means for a payment of ours. */
type GatewayVerdict = 'captured' | 'held' | 'declined' | 'voided' | 'waiting';

/** docs/payments.md "Reconciliation": how each transactionStatus is read. */
function verdictOf(transactionStatus: string): GatewayVerdict {
  switch (transactionStatus) {
    case 'capturedPendingSettlement':
    case 'settledSuccessfully':
    case 'approvedReview':
    case 'pendingFinalSettlement':
    case 'pendingSettlement':
    case 'refundSettledSuccessfully':
    case 'refundPendingSettlement':
      return 'captured';
    case 'FDSPendingReview':
    case 'FDSAuthorizedPendingReview':
    case 'underReview':
      return 'held';
    case 'declined':
    case 'failedReview':
      return 'declined';
    case 'voided':
    case 'expired':
    case 'generalError':
    case 'communicationError':
    case 'settlementError':
    case 'returnedItem':
      return 'voided';
    default:
      return 'waiting';
  }
}

/** Dependencies of {@link reconcilePayments} (and of the staff's payment actions). */
export interface ReconcileDeps {
  db: Db;
  gateway: PaymentGateway;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** The provider's name, for the mails to accounts. */
  companyName: string;
  now?: () => Date;
}

/** When payments are asked about (config.payments.reconcile). */
export interface ReconcileOptions {
  /** A pending payment or refund is asked about once this old (past the gateway's call timeout). */
  pendingAfterMs: number;
  /** Payments asked about per run at most. */
  batch?: number;
}

/** What one run did. */
export interface ReconcileSummary {
  /** Payments asked about. */
  checked: number;
  /** Payments moved, by new status. */
  moved: Record<string, number>;
  /** Payments newly put before staff. */
  flagged: number;
  /** Refunds whose outcome was recorded. */
  refunds: number;
  /** Gateway charges newly found that no payment of ours accounts for. */
  discrepancies: number;
  /** The unsettled list could not be read (the gateway did not answer, or refused). */
  listUnavailable: boolean;
}

/**
 * The reconciliation (docs/payments.md "Reconciliation"): asks the gateway about every payment held
 * for review or pending (in flight past `pendingAfterMs`: its answer never came), and settles,
 * voids or flags each; records refunds whose answer never came; and finds charges the gateway holds
 * that no payment of ours accounts for.
 *
 * 1. getUnsettledTransactionList (every page): each transaction not yet known here is looked up
 *    (getTransactionDetails) for the refId it was sent with: gs-pay-{payment id}, gs-ref-{refund
 *    id}, or someone else's (remembered as foreign, never read again).
 * 2. Payments pending or held, oldest first, up to `batch`, are claimed for this run (checked_at,
 *    FOR UPDATE SKIP LOCKED, so two servers never ask about the same one at once). Each is looked up
 *    by its transId, or (no answer ever came) found in the list by its refId. Captured → paid (the
 *    invoices credited); held for review → held; declined → declined; voided or expired → failed
 *    (pending) or declined (held). A transaction whose refId or amount differs from ours, and a
 *    pending payment the gateway has no record of, are put before staff (review_reason) and keep
 *    holding their invoices. Each move mails the account.
 * 3. Pending refunds (past `pendingAfterMs`) found in the list by their refId are recorded as
 *    refunded; those not there are recorded as failed, so staff can refund again (a refund stays
 *    in the unsettled list until the day's batch settles, and this runs every few minutes).
 * 4. A charge with our refId whose payment does not exist, ended otherwise or carries another
 *    transId becomes an open gateway_discrepancies row for staff.
 * Every step is idempotent: a payment moves only from the state it was read in.
 * Writes payments, payment_invoices, invoices, discount_reservations, payment_refunds,
 * gateway_discrepancies, mail_outbox. Never throws for gateway trouble (it is reported and retried
 * on the next run).
 */
export async function reconcilePayments(deps: ReconcileDeps, opts: ReconcileOptions): Promise<ReconcileSummary> {
  const { db, gateway } = deps;
  const now = deps.now ?? (() => new Date());
  const summary: ReconcileSummary = {
    checked: 0,
    moved: {},
    flagged: 0,
    refunds: 0,
    discrepancies: 0,
    listUnavailable: false,
  };

  // 1. What the gateway holds that is not settled yet, with the refId of everything new to us.
  const unsettled = await readUnsettled(gateway);
  const byPaymentRef = new Map<number, GatewayTransaction>();
  const byRefundRef = new Map<number, GatewayTransaction>();
  if (unsettled === null) {
    summary.listUnavailable = true;
    deps.log.warn({}, 'reconciliation: the unsettled transaction list could not be read');
  } else {
    for (const found of await lookUpUnknown(db, gateway, unsettled)) {
      const pay = PAYMENT_REF.exec(found.refId);
      const refund = REFUND_REF.exec(found.refId);
      if (pay && found.transactionType !== 'refundTransaction') byPaymentRef.set(Number(pay[1]), found);
      else if (refund) byRefundRef.set(Number(refund[1]), found);
      else await rememberForeign(db, found);
    }
  }

  // 2. Payments held or pending.
  for (const payment of await claimPayments(db, now(), opts)) {
    summary.checked++;
    const outcome = await checkPayment(deps, payment, byPaymentRef.get(payment.id), summary.listUnavailable, now());
    if (outcome === 'flagged') summary.flagged++;
    else if (outcome) summary.moved[outcome] = (summary.moved[outcome] ?? 0) + 1;
    byPaymentRef.delete(payment.id);
  }

  // 3. Refunds whose answer never came: done if the gateway lists them, else never made.
  if (!summary.listUnavailable) {
    const pending = await db
      .select()
      .from(paymentRefunds)
      .where(
        and(
          eq(paymentRefunds.status, 'pending'),
          lt(paymentRefunds.createdAt, new Date(now().getTime() - opts.pendingAfterMs)),
        ),
      );
    for (const refund of pending) {
      const found = byRefundRef.get(refund.id);
      const outcome =
        found && verdictOf(found.transactionStatus) === 'captured'
          ? { status: 'refunded' as const, transId: found.transId }
          : { status: 'failed' as const, code: null, text: REFUND_NOT_FOUND };
      if (await recordRefundOutcome(db, refund, outcome, deps.companyName, now())) summary.refunds++;
    }
  }

  // 4. Charges with our refId that no payment accounts for.
  for (const [paymentId, found] of byPaymentRef) {
    const verdict = verdictOf(found.transactionStatus);
    if (verdict !== 'captured' && verdict !== 'held') continue;
    const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
    const accounted =
      payment &&
      payment.gatewayTransId === found.transId &&
      !['declined', 'failed', 'cancelled', 'voided'].includes(payment.status);
    // A pending payment without a transId is matched in step 2 (or on the next run).
    const awaiting =
      payment &&
      payment.gatewayTransId === null &&
      (payment.status === 'pending' || payment.status === 'awaiting_consent');
    if (accounted || awaiting) continue;
    if (await recordDiscrepancy(db, found, payment ? payment.id : null)) summary.discrepancies++;
  }

  if (summary.checked || summary.refunds || summary.discrepancies)
    deps.log.info({ ...summary }, 'payments reconciled with the gateway');
  return summary;
}

/** Every unsettled transaction (up to MAX_PAGES pages), or null when the list could not be read. */
async function readUnsettled(gateway: PaymentGateway): Promise<TransactionSummary[] | null> {
  const all: TransactionSummary[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await gateway.getUnsettledTransactions({ offset: page });
    if (answer.status !== 'ok') return null;
    all.push(...answer.transactions);
    if (answer.transactions.length === 0 || all.length >= answer.total) break;
  }
  return all;
}

/**
 * Details of the listed transactions this site does not know yet: not a payment's or a refund's
 * transId, not already a discrepancy or a foreign transaction. Lookups that fail are skipped (the
 * next run asks again).
 */
async function lookUpUnknown(
  db: DbOrTx,
  gateway: PaymentGateway,
  listed: readonly TransactionSummary[],
): Promise<GatewayTransaction[]> {
  if (!listed.length) return [];
  const ids = listed.map((t) => t.transId);
  const known = new Set<string>();
  for (const chunk of chunks(ids, 500)) {
    const rows = await db
      .select({ id: payments.gatewayTransId })
      .from(payments)
      .where(inArray(payments.gatewayTransId, chunk));
    const refunds = await db
      .select({ id: paymentRefunds.gatewayTransId })
      .from(paymentRefunds)
      .where(inArray(paymentRefunds.gatewayTransId, chunk));
    const noted = await db
      .select({ id: gatewayDiscrepancies.transId })
      .from(gatewayDiscrepancies)
      .where(inArray(gatewayDiscrepancies.transId, chunk));
    for (const r of [...rows, ...refunds, ...noted]) if (r.id) known.add(r.id);
  }
  const found: GatewayTransaction[] = [];
  for (const t of listed) {
    if (known.has(t.transId)) continue;
    const lookup = await gateway.getTransactionDetails(t.transId);
    if (lookup.status === 'found') found.push(lookup.transaction);
  }
  return found;
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Claims up to `batch` payments held or pending (past `pendingAfterMs`), oldest first, not asked
 * about in the last minute: stamps checked_at and counts the check, skipping rows another server
 * is claiming. Writes payments.checked_at, checks.
 */
async function claimPayments(db: Db, now: Date, opts: ReconcileOptions): Promise<PaymentRow[]> {
  const pendingBefore = new Date(now.getTime() - opts.pendingAfterMs);
  const recheckBefore = new Date(now.getTime() - RECHECK_MS);
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          or(eq(payments.status, 'held'), and(eq(payments.status, 'pending'), lt(payments.createdAt, pendingBefore))),
          or(isNull(payments.checkedAt), lt(payments.checkedAt, recheckBefore)),
        ),
      )
      .orderBy(asc(payments.createdAt), asc(payments.id))
      .limit(opts.batch ?? 100)
      .for('update', { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(payments)
      .set({ checkedAt: now, checks: sql`${payments.checks} + 1` })
      .where(
        inArray(
          payments.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

/**
 * Settles one held or pending payment from what the gateway says of it. `listed` is its charge
 * found in the unsettled list by refId (for a payment whose answer never came).
 * @returns the status it moved to, 'flagged' when put before staff, or null when nothing changed
 */
async function checkPayment(
  deps: ReconcileDeps,
  payment: PaymentRow,
  listed: GatewayTransaction | undefined,
  listUnavailable: boolean,
  now: Date,
): Promise<string | null> {
  let found: GatewayTransaction | null = listed ?? null;
  if (!found && payment.gatewayTransId) {
    const lookup = await deps.gateway.getTransactionDetails(payment.gatewayTransId);
    if (lookup.status === 'found') found = lookup.transaction;
    else if (lookup.status !== 'not_found') return null;
  }
  if (!found) {
    // No charge with its refId among the unsettled ones: never charged, or settled long ago.
    // Only staff, looking at the gateway, can tell: the invoices stay held meanwhile.
    if (listUnavailable || payment.status !== 'pending' || payment.reviewReason) return null;
    await markForReview(deps.db, payment.id, REVIEW_REASONS.noRecord);
    return 'flagged';
  }
  const mismatch =
    (found.refId && found.refId !== `gs-pay-${payment.id}`) ||
    (found.amountCents > 0 && found.amountCents !== payment.amountCents);
  if (mismatch) {
    if (payment.reviewReason === REVIEW_REASONS.gatewayMismatch) return null;
    await markForReview(deps.db, payment.id, REVIEW_REASONS.gatewayMismatch);
    return 'flagged';
  }
  const verdict = verdictOf(found.transactionStatus);
  const facts = {
    transId: found.transId,
    accountLast4: found.accountNumber || null,
    accountType: found.accountType || null,
  };
  const plan: { to: 'paid' | 'held' | 'declined' | 'failed'; notice: PaymentNotice | null } | null =
    verdict === 'captured'
      ? { to: 'paid', notice: payment.status === 'held' ? 'approved' : 'paid' }
      : verdict === 'held'
        ? payment.status === 'pending'
          ? { to: 'held', notice: 'held' }
          : null
        : verdict === 'declined'
          ? { to: 'declined', notice: payment.status === 'held' ? 'declined' : 'failed' }
          : verdict === 'voided'
            ? payment.status === 'held'
              ? { to: 'declined', notice: 'declined' }
              : { to: 'failed', notice: 'failed' }
            : null;
  if (!plan) return null;
  const moved = await deps.db.transaction(async (tx) => {
    const done = await movePayment(
      tx,
      payment,
      [payment.status],
      plan.to,
      {
        ...facts,
        ...(plan.to === 'paid' ? { code: '1', message: 'Confirmed by the payment gateway.' } : {}),
        ...(plan.to === 'declined' || plan.to === 'failed'
          ? { message: `The payment gateway reports it ${found.transactionStatus}.` }
          : {}),
      },
      now,
    );
    if (done && plan.notice) await notifyPaymentOutcome(tx, done.row, plan.notice, deps.companyName);
    return done;
  });
  return moved ? plan.to : null;
}

/** Remembers a gateway transaction that is not this site's, resolved, so it is not looked up again. */
async function rememberForeign(db: DbOrTx, t: GatewayTransaction): Promise<void> {
  await db
    .insert(gatewayDiscrepancies)
    .values({
      ...discrepancyValues(t, null),
      resolvedAt: new Date(),
      resolution: FOREIGN_TRANSACTION,
    })
    .onConflictDoNothing({ target: gatewayDiscrepancies.transId });
}

/** Records an open discrepancy once per gateway transaction. @returns true when it is new */
async function recordDiscrepancy(db: DbOrTx, t: GatewayTransaction, paymentId: number | null): Promise<boolean> {
  const inserted = await db
    .insert(gatewayDiscrepancies)
    .values(discrepancyValues(t, paymentId))
    .onConflictDoNothing({ target: gatewayDiscrepancies.transId })
    .returning({ id: gatewayDiscrepancies.id });
  return inserted.length === 1;
}

function discrepancyValues(t: GatewayTransaction, paymentId: number | null) {
  return {
    transId: t.transId,
    transRefId: t.refId,
    paymentId,
    amountCents: t.amountCents,
    transactionStatus: t.transactionStatus,
    accountType: t.accountType,
    accountLast4: t.accountNumber,
    invoiceNumber: t.invoiceNumber,
    submittedAt: t.submittedAt,
  };
}

/** Open discrepancies, oldest first (staff's payments page). Reads gateway_discrepancies. */
export async function listOpenDiscrepancies(db: DbOrTx) {
  return db
    .select()
    .from(gatewayDiscrepancies)
    .where(isNull(gatewayDiscrepancies.resolvedAt))
    .orderBy(asc(gatewayDiscrepancies.foundAt), asc(gatewayDiscrepancies.id));
}
