import { z } from 'zod';
import type { PageObject } from '../rules/pagination.ts';

/**
 * Where payments land (docs/requirements/product.md tool 14; docs/requirements/screens.md /app/finances, /admin/payments/latest/{accountId}): the
 * account's payments, newest first, and a printable receipt of one payment. Read-only views, so
 * money travels as integer cents under `*_cents` names like the invoice views (docs/requirements/platform.md §3); show it
 * with `formatCurrency` (docs/requirements/constants.md). Dates are ISO 8601.
 */

/** payments.method: how a payment was made. */
export type FinanceMethod = 'card' | 'bank' | 'paypal' | 'zero';

/**
 * payments.status as the finances page lists it. 'awaiting_consent' and 'cancelled' (PayPal
 * sessions never completed) are never listed: nothing was attempted from the payer's side.
 */
export type FinanceStatus = 'pending' | 'paid' | 'held' | 'declined' | 'failed' | 'voided' | 'refunded';

/** Statuses left out of the finances list and without receipts: PayPal sessions that never completed. */
export const UNLISTED_PAYMENT_STATUSES = ['awaiting_consent', 'cancelled'] as const;

/**
 * Statuses that have a receipt: the money was taken (held: taken, still under review; refunded:
 * taken, then given back, which the receipt shows).
 */
export const RECEIPT_STATUSES = ['paid', 'held', 'refunded'] as const;

/** Payments per page of GET /api/finances. */
export const FINANCES_PER_PAGE = 20;

/** An invoice a payment was for. */
export const financeInvoiceSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  /**
   * Integer cents the payment settled on this invoice (payment_invoices), for a paid payment.
   * null for a payment that is not paid (held, pending, declined, failed): it was meant for the
   * invoice (payments.invoice_ids) but applied nothing to it.
   */
  amount_cents: z.number().int().nullable(),
});
export type FinanceInvoice = z.input<typeof financeInvoiceSchema>;

/** One payment of the account (GET /api/finances `payments.data[]`, receipt `payment`). */
export const financePaymentSchema = z.object({
  id: z.number().int(),
  method: z.enum(['card', 'bank', 'paypal', 'zero'] as const satisfies readonly FinanceMethod[]),
  status: z.enum([
    'pending',
    'paid',
    'held',
    'declined',
    'failed',
    'voided',
    'refunded',
  ] as const satisfies readonly FinanceStatus[]),
  /** Charged, integer cents (0 for a zero payment). */
  amount_cents: z.number().int(),
  /** Taken off by a discount code, integer cents. */
  discount_cents: z.number().int(),
  /** As the gateway reports it: 'Visa', 'eCheck' …; null when unknown (PayPal, zero, no answer). */
  account_type: z.string().nullable(),
  /** Masked by the gateway, e.g. 'XXXX1111'; never a full number. */
  account_last4: z.string().nullable(),
  auth_code: z.string().nullable(),
  gateway_trans_id: z.string().nullable(),
  /** ISO 8601. */
  created_at: z.string(),
  /** When the outcome was recorded (ISO 8601); null while pending. */
  settled_at: z.string().nullable(),
  /** Given back by staff so far, integer cents (docs/payments.md "Staff actions"). */
  refunded_cents: z.number().int(),
  /** The refunds made, oldest first: integer cents and when (ISO 8601). */
  refunds: z.array(z.object({ amount_cents: z.number().int(), created_at: z.string() })),
  /** Oldest invoice first. */
  invoices: z.array(financeInvoiceSchema),
});
export type FinancePayment = z.input<typeof financePaymentSchema>;

/** An unpaid invoice of the account (balance above 0), for the "Pay now" notice. */
export interface OpenInvoice {
  id: number;
  number: string;
  document_at: string;
  /** Still owed, integer cents. */
  balance_cents: number;
}

/** GET /api/finances: the account, one page of its payments, and its unpaid invoices. */
export interface FinancesView {
  account: { id: number; name: string };
  payments: PageObject<FinancePayment>;
  invoices: { open: OpenInvoice[] };
}

/** GET /api/payments/:id/receipt: one paid or held payment with who paid and who was paid. */
export interface PaymentReceipt {
  payment: FinancePayment;
  /** `ein` formatted 12-3456789, or '' when the account has none. */
  account: { id: number; name: string; ein: string };
  company: { name: string; phone: string; email: string };
}

/** Query of GET /api/finances: `account_id` (admins only), 1-based `page` (anything unreadable is page 1). */
export const financesQuery = z.object({
  account_id: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: 'The account id must be a number.' })
      .int('The account id must be a number.')
      .positive('The account id must be a number.')
      .max(2_147_483_647, 'The account id must be a number.')
      .optional(),
  ),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type FinancesQuery = z.output<typeof financesQuery>;

/** Payment statuses in words, for people (docs/requirements/errors.md "Payments" and this page's own). */
export const PAYMENT_STATUS_LABELS: Readonly<Record<FinanceStatus, string>> = {
  paid: 'Paid',
  held: 'Held for review',
  pending: 'Not confirmed yet',
  declined: 'Declined',
  failed: 'Failed',
  voided: 'Voided (nothing charged)',
  refunded: 'Refunded',
};

/** 'paid' -> 'Paid'; a status this code does not know is shown as it is. */
export const paymentStatusLabel = (status: string): string => PAYMENT_STATUS_LABELS[status as FinanceStatus] ?? status;

/** Whether a payment of this status has a receipt (paid, held or refunded). */
export const hasReceipt = (status: string): boolean => (RECEIPT_STATUSES as readonly string[]).includes(status);

/** Payment methods in words. */
export const PAYMENT_METHOD_NAMES: Readonly<Record<FinanceMethod, string>> = {
  card: 'Card',
  bank: 'Bank account',
  paypal: 'PayPal',
  zero: 'Discount (no payment)',
};

/**
 * How a payment was made, in words: 'Card Visa XXXX1111', 'Bank account eCheck XXXX1234',
 * 'PayPal', 'Discount (no payment)'. Parts the gateway did not report are left out ('Card').
 */
export function paymentMethodLabel(p: Pick<FinancePayment, 'method' | 'account_type' | 'account_last4'>): string {
  const name = PAYMENT_METHOD_NAMES[p.method] ?? String(p.method);
  if (p.method !== 'card' && p.method !== 'bank') return name;
  return [name, p.account_type, p.account_last4].filter((s) => s && s.trim()).join(' ');
}
