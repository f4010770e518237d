import { z } from 'zod';
import { pageObjectSchema } from '../contracts/page-object.ts';

/**
 * Where payments land (docs/requirements/product.md tool 14; docs/requirements/screens.md /app/finances, /admin/payments/latest/{accountId}): the
 * account's payments, newest first, and a printable receipt of one payment. Read-only views, so
 * money travels as integer cents under `*_cents` names like the invoice views (docs/requirements/platform.md §3); show it
 * with `formatCurrency` (docs/requirements/constants.md). Dates are ISO 8601.
 */

/** payments.method: how a payment was made. */
export const financeMethodSchema = z.enum(['card', 'bank', 'paypal', 'zero']);
export type FinanceMethod = z.infer<typeof financeMethodSchema>;

/**
 * payments.status as the finances page lists it. 'awaiting_consent' and 'cancelled' (PayPal
 * sessions never completed) are never listed: nothing was attempted from the payer's side.
 */
export const financeStatusSchema = z.enum(['pending', 'paid', 'held', 'declined', 'failed', 'voided', 'refunded']);
export type FinanceStatus = z.infer<typeof financeStatusSchema>;

/** Statuses left out of the finances list and without receipts: PayPal sessions that never completed. */
export const UNLISTED_PAYMENT_STATUSES = ['awaiting_consent', 'cancelled'] as const;

/**
 * Statuses that have a receipt: the money was taken (held: taken, still under review; refunded:
 * taken, then given back, which the receipt shows).
 */
export const RECEIPT_STATUSES = ['paid', 'held', 'refunded'] as const;

/** Payments per page of GET /api/finances. */
export const FINANCES_PER_PAGE = 20;

/**
 * An invoice a payment was for. `amount_cents`: integer cents the payment settled on this invoice
 * (payment_invoices), for a paid payment; null for a payment that is not paid (held, pending,
 * declined, failed): it was meant for the invoice (payments.invoice_ids) but applied nothing to it.
 */
const financeInvoiceSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  amount_cents: z.number().int().nullable(),
});
export type FinanceInvoice = z.infer<typeof financeInvoiceSchema>;

/**
 * One payment of the account (GET /api/finances `payments.data[]`, receipt `payment`). Money in
 * integer cents (`amount_cents` charged, 0 for a zero payment; `discount_cents` taken off by a
 * discount code; `refunded_cents` given back by staff so far, docs/payments.md "Staff actions").
 * `account_type` as the gateway reports it ('Visa', 'eCheck'), `account_last4` masked by the
 * gateway ('XXXX1111', never a full number), both null when unknown. `settled_at` is null while
 * pending. Refunds oldest first; invoices oldest first. Moments are ISO 8601.
 */
export const financePaymentSchema = z.object({
  id: z.number().int(),
  method: financeMethodSchema,
  status: financeStatusSchema,
  amount_cents: z.number().int(),
  discount_cents: z.number().int(),
  account_type: z.string().nullable(),
  account_last4: z.string().nullable(),
  auth_code: z.string().nullable(),
  gateway_trans_id: z.string().nullable(),
  created_at: z.string(),
  settled_at: z.string().nullable(),
  refunded_cents: z.number().int(),
  refunds: z.array(z.object({ amount_cents: z.number().int(), created_at: z.string() })),
  invoices: z.array(financeInvoiceSchema),
});
export type FinancePayment = z.infer<typeof financePaymentSchema>;

/** An unpaid invoice of the account (balance above 0, integer cents still owed), for the "Pay now" notice. */
const openInvoiceSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  document_at: z.string(),
  balance_cents: z.number().int(),
});
export type OpenInvoice = z.infer<typeof openInvoiceSchema>;

/** GET /api/finances: the account, one page of its payments, and its unpaid invoices. */
export const financesViewSchema = z.object({
  account: z.object({ id: z.number().int(), name: z.string() }),
  payments: pageObjectSchema(financePaymentSchema),
  invoices: z.object({ open: z.array(openInvoiceSchema) }),
});
export type FinancesView = z.infer<typeof financesViewSchema>;

/**
 * GET /api/payments/:id/receipt: one paid or held payment with who paid and who was paid; the
 * account's `ein` formatted 12-3456789, or '' when it has none.
 */
export const paymentReceiptSchema = z.object({
  payment: financePaymentSchema,
  account: z.object({ id: z.number().int(), name: z.string(), ein: z.string() }),
  company: z.object({ name: z.string(), phone: z.string(), email: z.string() }),
});
export type PaymentReceipt = z.infer<typeof paymentReceiptSchema>;

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
