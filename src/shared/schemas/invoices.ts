import type { PaymentType } from './payments.ts';

/**
 * Invoices as the account area reads them (docs/requirements/product.md tool 14; docs/requirements/entities.md "Invoice": id, number, document_at,
 * order_details (label, type, value), public_notes, balance, value).
 *
 * Money: these are read-only views, not payloads of docs/requirements/entities.md, so amounts travel as integer cents under
 * `*_cents` names, like GET /api/invoices/unpaid has from the start (docs/requirements/platform.md §2.5 and §3: integer
 * cents inside the server and database; the decimal-dollar `value` of docs/requirements/entities.md "Payment payloads"
 * is what the browser sends back when paying). Show them with `formatCurrency` (docs/requirements/constants.md).
 */

/** One order detail (invoice line): docs/requirements/entities.md label, type, value. */
export interface OrderDetail {
  label: string;
  /** 'new_account', 'renewal', 'upgrade', 'incorporation', 'service_fee' (see `lineTypeLabel`). */
  type: string;
  /** Integer cents; may be negative for a credit line. */
  value_cents: number;
}

/** A payment applied to the invoice: one allocation of a paid payment to this invoice. */
export interface AppliedPayment {
  /** The payment's id. */
  id: number;
  /** When the payment was made, ISO 8601. */
  paid_at: string;
  /** How it was paid (docs/requirements/entities.md "Payment payloads" `type`). */
  type: PaymentType;
  /** The part of the payment applied to this invoice, integer cents. */
  amount_cents: number;
}

/** The organization an invoice is addressed to (the account it belongs to). */
export interface InvoiceOrganization {
  id: number;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
}

/** GET /api/invoices/:id: one invoice with its order details and payments (page /app/invoices/show/{id}). */
export interface InvoiceView {
  id: number;
  number: string;
  /** Invoice date, ISO 8601. */
  document_at: string;
  public_notes: string;
  /** Invoice total, integer cents. */
  value_cents: number;
  /** What is still owed, integer cents (0 when paid). */
  balance_cents: number;
  organization: InvoiceOrganization;
  /** In the order they were billed. */
  order_details: OrderDetail[];
  /** Oldest first; [] when nothing was paid on it yet. */
  payments: AppliedPayment[];
}

/** Order-detail types in words, for people reading an invoice. */
export const LINE_TYPE_LABELS: Readonly<Record<string, string>> = {
  new_account: 'New account',
  renewal: 'Renewal',
  upgrade: 'Upgrade',
  incorporation: 'Incorporation',
  service_fee: 'Service fee',
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
