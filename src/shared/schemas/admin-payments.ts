import { z } from 'zod';
import { pageObjectSchema } from '../contracts/page-object.ts';
import { requiredText } from '../validation.ts';
import { financePaymentSchema, type FinanceMethod, type FinanceStatus } from './finances.ts';
import { listSearch, listSort } from './list-params.ts';
import { dollarsField } from './payments.ts';
import type { PageObject } from '../rules/pagination.ts';

/**
 * The staff's view of money (admin console /admin/payments): every account's payments,
 * newest first, and every account's open invoices, oldest first, with totals that need staff
 * attention. Money is in integer cents under `*_cents` names, dates are ISO 8601, like the other
 * read-only views (shapes of payments as in ./finances.ts).
 */

/** Rows per page of GET /api/admin/payments and GET /api/admin/invoices/open. */
export const ADMIN_PAYMENTS_PER_PAGE = 25;

/** Statuses the list shows and filters by; PayPal sessions never completed are never listed. */
export const ADMIN_PAYMENT_STATUSES = [
  'paid',
  'held',
  'pending',
  'declined',
  'failed',
  'voided',
  'refunded',
] as const satisfies readonly FinanceStatus[];
/** Methods the list filters by. */
export const ADMIN_PAYMENT_METHODS = ['card', 'bank', 'paypal', 'zero'] as const satisfies readonly FinanceMethod[];
/** Overdue filter of the open invoices: dated more than this many days ago. */
export const OPEN_INVOICE_OVERDUE_FILTERS = ['30'] as const;

/** Columns the payments list sorts by (`sort`, "-" for descending); newest first by default. */
export const ADMIN_PAYMENT_SORTS = ['created_at', 'amount_cents', 'method', 'status'] as const;
/** The most rows GET /api/admin/payments/export.csv writes (narrow the filters beyond that). */
export const ADMIN_PAYMENTS_EXPORT_CAP = 10_000;
/** Columns the open invoices list sorts by; oldest first by default. */
export const OPEN_INVOICE_SORTS = ['document_at', 'balance_cents', 'number'] as const;
/** The most rows GET /api/admin/invoices/open/export.csv writes. */
export const OPEN_INVOICES_EXPORT_CAP = 10_000;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const page = z.coerce.number().int().min(1).max(100_000).catch(1);

/**
 * Query of GET /api/admin/payments and of the page's "Payments" tab: `status` and `method`
 * (empty means any), `search` (every word of the account's name or city, the card's or account's
 * last four digits, or the gateway's transaction id), `sort` (ADMIN_PAYMENT_SORTS), 1-based `page`
 * (anything unreadable is page 1).
 */
export const adminPaymentsQuery = z.object({
  status: z.preprocess(
    emptyToUndefined,
    z.enum(ADMIN_PAYMENT_STATUSES, { error: 'The selected status is invalid.' }).optional(),
  ),
  method: z.preprocess(
    emptyToUndefined,
    z.enum(ADMIN_PAYMENT_METHODS, { error: 'The selected method is invalid.' }).optional(),
  ),
  search: listSearch,
  sort: listSort(ADMIN_PAYMENT_SORTS, '-created_at'),
  page,
});
export type AdminPaymentsQuery = z.output<typeof adminPaymentsQuery>;

/**
 * Query of GET /api/admin/invoices/open and of the page's "Open invoices" tab: `overdue` '30'
 * (dated more than 30 days ago; empty means any), `search` (the invoice number, e.g. GS-000123 or
 * its digits, or every word of the account's name or city), `sort` (OPEN_INVOICE_SORTS), 1-based `page`.
 */
export const adminOpenInvoicesQuery = z.object({
  overdue: z.preprocess(
    emptyToUndefined,
    z.enum(OPEN_INVOICE_OVERDUE_FILTERS, { error: 'The selected overdue filter is invalid.' }).optional(),
  ),
  search: listSearch,
  sort: listSort(OPEN_INVOICE_SORTS, 'document_at'),
  page,
});
export type AdminOpenInvoicesQuery = z.output<typeof adminOpenInvoicesQuery>;

/** Whole-site figures shown above both lists (never narrowed by the filters). */
export const adminMoneyTotalsSchema = z.object({
  /** Sum of every invoice's balance still owed, integer cents. */
  open_balance_cents: z.number().int(),
  /** Invoices with a balance above 0. */
  open_invoices: z.number().int(),
  /** Payments held for review at the gateway: money taken, not yet applied. */
  held_payments: z.number().int(),
  /** Payments whose gateway answer never came: not confirmed either way. */
  pending_payments: z.number().int(),
  /** Staff alerts not reviewed yet (payment_alerts, e.g. possible card testing; docs/payments.md "Card testing"). */
  open_payment_alerts: z.number().int(),
});
export type AdminMoneyTotals = z.output<typeof adminMoneyTotalsSchema>;

/** What staff may do with a payment now (docs/payments.md "Staff actions"). */
export const STAFF_PAYMENT_ACTIONS = ['approve', 'decline', 'void', 'refund', 'resolve'] as const;
export type StaffPaymentAction = (typeof STAFF_PAYMENT_ACTIONS)[number];

/**
 * One row of the payments list: a payment as the finances page shows it, with its account, the
 * actions staff may take, and the gateway's own code and words (`gateway_code`, e.g. '2' or
 * 'E00114', and `gateway_message`, e.g. 'This transaction has been declined.'; null when the
 * gateway gave none). Staff only: the payer's finances never carry them (docs/payments.md "Card
 * testing": the payer is told what to do, never why the bank said no).
 */
export const adminPaymentRowSchema = financePaymentSchema.extend({
  account: z.object({ id: z.number().int(), name: z.string() }),
  actions: z.array(z.enum(STAFF_PAYMENT_ACTIONS)),
  gateway_code: z.string().nullable(),
  gateway_message: z.string().nullable(),
});
export type AdminPaymentRow = z.input<typeof adminPaymentRowSchema>;

/**
 * What the gateway said of a declined or failed payment, as staff read it under its status:
 * "Declined by the gateway: This transaction has been declined. (code 2)", "Failed at the gateway:
 * The card details have expired. (code E00114)". Null for any other status, or when the gateway
 * gave neither words nor a code.
 */
export function gatewayRefusalText(
  p: Pick<AdminPaymentRow, 'status' | 'gateway_code' | 'gateway_message'>,
): string | null {
  if (p.status !== 'declined' && p.status !== 'failed') return null;
  const words = p.gateway_message?.trim();
  const code = p.gateway_code?.trim();
  if (!words && !code) return null;
  const head = p.status === 'declined' ? 'Declined by the gateway' : 'Failed at the gateway';
  return `${head}${words ? `: ${words}` : ''}${code ? ` (code ${code})` : ''}`;
}

/** GET /api/admin/payments: the docs/requirements/entities.md page object. */
export type AdminPaymentsPage = PageObject<AdminPaymentRow>;

/** One row of the open invoices list; `document_at` ISO 8601. */
const adminOpenInvoiceRowSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  account: z.object({ id: z.number().int(), name: z.string() }),
  document_at: z.string(),
  value_cents: z.number().int(),
  /** Still owed, integer cents (above 0). */
  balance_cents: z.number().int(),
});
export type AdminOpenInvoiceRow = z.output<typeof adminOpenInvoiceRowSchema>;

/** GET /api/admin/invoices/open: the docs/requirements/entities.md page object. */
export const adminOpenInvoicesPageSchema = pageObjectSchema(adminOpenInvoiceRowSchema);
export type AdminOpenInvoicesPage = z.output<typeof adminOpenInvoicesPageSchema>;

/**
 * Body of the staff's payment actions (docs/payments.md "Staff actions"): approve or decline a held
 * payment, decline a pending one the gateway has no record of, void a paid one before settlement.
 * The reason is kept in the audit log; it is never mailed to the account.
 */
export const paymentActionSchema = z.object({
  reason: requiredText({ label: 'reason', max: 500, lines: 'multi' }),
});
export type PaymentActionInput = z.output<typeof paymentActionSchema>;

/** Body of a refund: the amount in decimal dollars (at most what is left of the payment) and why. */
export const refundSchema = z.object({
  amount: dollarsField('amount').refine((v) => v > 0, 'The amount field must be greater than 0.'),
  reason: requiredText({ label: 'reason', max: 500, lines: 'multi' }),
});
export type RefundInput = z.output<typeof refundSchema>;

/** Body of marking a gateway discrepancy resolved: what staff did about it. */
export const resolveDiscrepancySchema = z.object({
  resolution: requiredText({ label: 'resolution', max: 500, lines: 'multi' }),
});

/** A payment that needs a staff decision, as the payments page lists it (integer cents, ISO dates). */
export const attentionPaymentSchema = adminPaymentRowSchema.extend({
  /** Why staff must decide; null for a payment simply held or pending. */
  review_reason: z.string().nullable(),
  /** How many times the reconciliation asked the gateway, and when last. */
  checks: z.number().int(),
  checked_at: z.string().nullable(),
  /** A refund whose answer never came, if any (integer cents). */
  pending_refund_cents: z.number().int().nullable(),
});
export type AttentionPayment = z.input<typeof attentionPaymentSchema>;

/** A charge at the gateway that no payment accounts for (integer cents, ISO dates). */
export const attentionDiscrepancySchema = z.object({
  id: z.number().int(),
  trans_id: z.string(),
  trans_ref_id: z.string(),
  payment_id: z.number().int().nullable(),
  amount_cents: z.number().int(),
  transaction_status: z.string(),
  account_type: z.string(),
  account_last4: z.string(),
  invoice_number: z.string(),
  submitted_at: z.string().nullable(),
  found_at: z.string(),
});
export type AttentionDiscrepancy = z.input<typeof attentionDiscrepancySchema>;

/** Kinds of staff alerts about payments (payment_alerts.kind). */
export const PAYMENT_ALERT_KINDS = ['possible_card_testing'] as const;

/**
 * A staff alert about payments not reviewed yet (docs/payments.md "Card testing"): an account or
 * a client address passed a payment limit. `rule` is the limit passed (e.g.
 * 'payment_attempts_per_account'), `count` what was counted when it was passed and `max_count`
 * the limit; `summary` says it in words ("11 payment attempts in an hour from this account (limit
 * 10)"). `account` is null when the attempts came from no account still known. ISO dates.
 */
export const paymentAlertSchema = z.object({
  id: z.number().int(),
  kind: z.enum(PAYMENT_ALERT_KINDS),
  rule: z.string(),
  account: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The client address the attempts came from ('' when unknown). */
  ip: z.string(),
  count: z.number().int(),
  max_count: z.number().int(),
  summary: z.string(),
  created_at: z.string(),
});
export type PaymentAlert = z.input<typeof paymentAlertSchema>;

/** Body of marking a payment alert reviewed: what staff found (kept in the audit log). */
export const reviewPaymentAlertSchema = z.object({
  note: requiredText({ label: 'note', max: 500, lines: 'multi' }),
});

/** GET /api/admin/payments/attention: what needs a staff decision, oldest first; alerts newest first. */
export const paymentsAttentionSchema = z.object({
  payments: z.array(attentionPaymentSchema),
  discrepancies: z.array(attentionDiscrepancySchema),
  /** Payment alerts not reviewed yet, newest first, at most 100. */
  alerts: z.array(paymentAlertSchema),
  /** When the reconciliation last ran on this server, or null. */
  last_reconciled_at: z.string().nullable(),
});
export type PaymentsAttention = z.input<typeof paymentsAttentionSchema>;

/** The answer of a staff action: what happened, in words, and the payment now. */
export const paymentActionAnswerSchema = z.object({ message: z.string(), payment: adminPaymentRowSchema });
