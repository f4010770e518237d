import { and, asc, eq, inArray, isNotNull, lt, or } from 'drizzle-orm';
import { must } from '../../../shared/must.ts';
import { accounts, paymentRefunds, payments } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { toFinancePaymentsOfAccounts } from '../finances/payment-view.ts';
import { REVIEW_REASONS, type PaymentRow } from '../payments/payment-steps.ts';
import { listOpenDiscrepancies } from '../payments/reconcile-payments.ts';
import { listOpenPaymentAlerts } from './list-payment-alerts.ts';
import type {
  AdminPaymentRow,
  AttentionPayment,
  PaymentsAttention,
  StaffPaymentAction,
} from '../../../shared/schemas/admin-payments.ts';
import type { Db } from '../../db/client.ts';

/** At most this many payments are listed as needing a decision (oldest first). */
const ATTENTION_LIMIT = 100;

/**
 * What staff may do with a payment now (docs/payments.md "Staff actions"): approve or decline a
 * held one; decline a pending one the gateway has no record of; void or refund a paid one (void
 * only while nothing is refunded); resolve one put before staff. Zero payments have no gateway
 * actions.
 */
function staffActionsFor(
  p: Pick<PaymentRow, 'status' | 'method' | 'gatewayTransId' | 'refundedCents' | 'reviewReason'>,
): StaffPaymentAction[] {
  const actions: StaffPaymentAction[] = [];
  const viaGateway = p.method !== 'zero' && p.gatewayTransId !== null;
  if (p.status === 'held' && viaGateway) actions.push('approve', 'decline');
  if (p.status === 'pending' && p.reviewReason === REVIEW_REASONS.noRecord) actions.push('decline');
  if (p.status === 'paid' && viaGateway) {
    if (p.refundedCents === 0) actions.push('void');
    actions.push('refund');
  }
  if (p.reviewReason !== null) actions.push('resolve');
  return actions;
}

/**
 * Payment rows of any accounts as the staff's lists show them: the finances shape with the account,
 * what staff may do with each, and the gateway's own code and words (staff only, docs/payments.md
 * "Card testing"). Reads payments' invoices and accounts; writes nothing.
 */
export async function toAdminPaymentRows(
  db: Db,
  rows: readonly { payment: PaymentRow; account: { id: number; name: string } }[],
): Promise<AdminPaymentRow[]> {
  const shaped = await toFinancePaymentsOfAccounts(
    db,
    rows.map((r) => r.payment),
  );
  return shaped.map((p, i) => {
    const { account, payment } = must(rows[i], 'the payment row shaped');
    return {
      ...p,
      account,
      actions: staffActionsFor(payment),
      gateway_code: payment.gatewayCode,
      gateway_message: payment.gatewayMessage,
    };
  });
}

/** Payment `paymentId` as the staff's lists show it (the answer of a staff action). @throws HttpError 404 */
export async function findAdminPaymentRow(db: Db, paymentId: number): Promise<AdminPaymentRow> {
  const rows = await db
    .select({ payment: payments, account: { id: accounts.id, name: accounts.name } })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.accountId))
    .where(eq(payments.id, paymentId));
  if (!rows.length) throw notFound('The payment');
  return must((await toAdminPaymentRows(db, rows))[0], 'the shaped payment');
}

/**
 * GET /api/admin/payments/attention (docs/payments.md "Reconciliation"; staff only): every payment
 * that needs a staff decision, oldest first (held for review; pending past `pendingAfterMs`, its
 * answer never came; put before staff by the reconciliation), with a refund still pending, the
 * open gateway discrepancies, and the payment alerts not reviewed yet, newest first, at most 100
 * (possible card testing, docs/payments.md "Card testing"; listOpenPaymentAlerts). Reads payments,
 * payment_refunds, accounts, gateway_discrepancies, payment_alerts; writes nothing.
 */
export async function listPaymentsAttention(
  db: Db,
  opts: { pendingAfterMs: number; lastReconciledAt: Date | null; now?: Date },
): Promise<PaymentsAttention> {
  const now = opts.now ?? new Date();
  const pendingRefunds = await db
    .select({ paymentId: paymentRefunds.paymentId, amountCents: paymentRefunds.amountCents })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.status, 'pending'));
  const refundOf = new Map(pendingRefunds.map((r) => [r.paymentId, r.amountCents]));
  const rows = await db
    .select({ payment: payments, account: { id: accounts.id, name: accounts.name } })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.accountId))
    .where(
      or(
        eq(payments.status, 'held'),
        and(eq(payments.status, 'pending'), lt(payments.createdAt, new Date(now.getTime() - opts.pendingAfterMs))),
        isNotNull(payments.reviewReason),
        refundOf.size ? inArray(payments.id, [...refundOf.keys()]) : undefined,
      ),
    )
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .limit(ATTENTION_LIMIT);
  const shaped = await toAdminPaymentRows(db, rows);
  const discrepancies = await listOpenDiscrepancies(db);
  return {
    payments: shaped.map((p, i): AttentionPayment => {
      const row = must(rows[i], 'the payment row shaped').payment;
      return {
        ...p,
        review_reason: row.reviewReason,
        checks: row.checks,
        checked_at: row.checkedAt?.toISOString() ?? null,
        pending_refund_cents: refundOf.get(row.id) ?? null,
      };
    }),
    discrepancies: discrepancies.map((d) => ({
      id: d.id,
      trans_id: d.transId,
      trans_ref_id: d.transRefId,
      payment_id: d.paymentId,
      amount_cents: d.amountCents,
      transaction_status: d.transactionStatus,
      account_type: d.accountType,
      account_last4: d.accountLast4,
      invoice_number: d.invoiceNumber,
      submitted_at: d.submittedAt?.toISOString() ?? null,
      found_at: d.foundAt.toISOString(),
    })),
    alerts: await listOpenPaymentAlerts(db),
    last_reconciled_at: opts.lastReconciledAt?.toISOString() ?? null,
  };
}
