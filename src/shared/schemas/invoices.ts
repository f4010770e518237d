import { z } from 'zod';
import { PAYMENT_TYPES, type PaymentType } from './payments.ts';

/**
 * Invoices as the account area reads them (docs/requirements/product.md tool 14; docs/requirements/entities.md "Invoice": id, number, document_at,
 * order_details (label, type, value), public_notes, balance, value).
 *
 * Money: these are read-only views, not payloads of docs/requirements/entities.md, so amounts travel as integer cents under
 * `*_cents` names, like GET /api/invoices/unpaid has from the start (docs/requirements/platform.md §2.5 and §3: integer
 * cents inside the server and database; the decimal-dollar `value` of docs/requirements/entities.md "Payment payloads"
 * is what the browser sends back when paying). Show them with `formatCurrency` (docs/requirements/constants.md).
 */

/**
 * One order detail (invoice line): docs/requirements/entities.md label, type ('new_account',
 * 'renewal', 'upgrade', 'incorporation', 'service_fee', 'reinstatement', see `lineTypeLabel`), value in integer
 * cents (negative for a credit line).
 */
export const orderDetailSchema = z.object({ label: z.string(), type: z.string(), value_cents: z.number().int() });
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/**
 * A payment applied to the invoice: one allocation of a paid payment to this invoice; `paid_at`
 * ISO 8601, `type` how it was paid (docs/requirements/entities.md "Payment payloads"),
 * `amount_cents` the part applied to this invoice.
 */
const appliedPaymentSchema = z.object({
  id: z.number().int(),
  paid_at: z.string(),
  type: z.enum(PAYMENT_TYPES),
  amount_cents: z.number().int(),
});
export type AppliedPayment = z.infer<typeof appliedPaymentSchema>;

/**
 * GET /api/invoices/:id: one invoice with its order details (in billing order) and the payments
 * applied to it (oldest first) for the page /app/invoices/show/{id}. `document_at` ISO 8601;
 * `value_cents` the total and `balance_cents` what is still owed (0 when paid), integer cents.
 */
export const invoiceViewSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  document_at: z.string(),
  public_notes: z.string(),
  value_cents: z.number().int(),
  balance_cents: z.number().int(),
  organization: z.object({
    id: z.number().int(),
    name: z.string(),
    street: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
  }),
  order_details: z.array(orderDetailSchema),
  payments: z.array(appliedPaymentSchema),
});
export type InvoiceView = z.infer<typeof invoiceViewSchema>;
/** The organization an invoice is addressed to (the account it belongs to). */
export type InvoiceOrganization = InvoiceView['organization'];

/** Order-detail types in words, for people reading an invoice. */
export const LINE_TYPE_LABELS: Readonly<Record<string, string>> = {
  new_account: 'New account',
  renewal: 'Renewal',
  upgrade: 'Upgrade',
  incorporation: 'Incorporation',
  service_fee: 'Service fee',
  reinstatement: 'Reinstatement application',
};

/** Payment types in words (docs/requirements/entities.md "Payment payloads"). */
export const PAYMENT_TYPE_LABELS: Readonly<Record<PaymentType, string>> = {
  credit_card: 'Credit card',
  bank_account: 'Bank account',
  paypal: 'PayPal',
  zero_payment: 'Settled by discount',
};

/** 'new_account' -> 'New account'; an unknown type 'late_fee' -> 'Late fee'. */
export function lineTypeLabel(type: string): string {
  const known = LINE_TYPE_LABELS[type];
  if (known) return known;
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '';
}
