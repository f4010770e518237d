import { z } from 'zod';
import { financesQuery, financesViewSchema, paymentReceiptSchema } from '../schemas/finances.ts';
import { invoiceViewSchema, orderDetailSchema } from '../schemas/invoices.ts';
import {
  bankPaymentSchema,
  creditCardPaymentSchema,
  discountReserveBodySchema,
  walletInitSchema,
  walletPaymentSchema,
  zeroPaymentSchema,
} from '../schemas/payments.ts';
import { actingAccountField, recordIdParams, timestampSchema, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/** One unpaid invoice (balance above 0) with its order details; amounts in integer cents. */
const unpaidInvoiceSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  document_at: timestampSchema,
  value_cents: z.number().int(),
  balance_cents: z.number().int(),
  public_notes: z.string(),
  /** A payment of it is in flight, held for review or pending: it cannot be paid now (docs/payments.md). */
  is_processing: z.boolean(),
  order_details: z.array(orderDetailSchema),
});

/** A discount as it travels (docs/requirements/entities.md "Discount"): `currency_value` in decimal dollars. */
const discountPayloadSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  currency_value: z.number(),
  multiplier: z.number(),
  is_new_account: z.boolean(),
  is_renewals: z.boolean(),
  is_upgrades: z.boolean(),
  is_service_fees: z.boolean(),
});

/**
 * The PayPal session the billing screen restores on return (docs/requirements/behaviour.md "Online
 * wallet"): `value` in decimal dollars, `started_at` ISO 8601.
 */
const paypalSessionSchema = z.object({
  tx_id: z.string(),
  invoices: z.array(z.number().int()),
  value: z.number(),
  discount_id: z.number().int().nullable(),
  discount: discountPayloadSchema.nullable(),
  started_at: z.string(),
});

/** GET /api/payments/screen: the account is null for a user whose organization does not exist yet (docs/payments.md "No organization yet"). */
const paymentScreenSchema = z.object({
  account: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  on_behalf: z.boolean(),
  invoices: z.array(unpaidInvoiceSchema),
  /** The tokenizer's public settings, never the transaction key. */
  gateway: z.object({ accept_js_url: z.string(), api_login_id: z.string(), client_key: z.string() }).nullable(),
  paypal: paypalSessionSchema.nullable(),
});

/** The gateway's result as the billing screen reads it (docs/requirements/calls.md "Reads messages.resultCode"). */
const resultMessagesSchema = z.object({
  resultCode: z.enum(['Ok', 'Error']),
  message: z.array(z.object({ code: z.string(), text: z.string() })).optional(),
});

/**
 * A payment's outcome (docs/requirements/errors.md "Payments"): 200 paid (with where to go next,
 * and `unassigned` when the money could not be applied), 202 held for review or not confirmed yet.
 */
const paymentOutcomeSchema = z.object({
  message: z.string(),
  redirect: z.string().optional(),
  status: z.string(),
  payment_id: z.number().int(),
  unassigned: z.boolean().optional(),
  messages: resultMessagesSchema,
});

/**
 * A refused payment: the 422 of a refused payload, or of a payment the gateway declined or failed,
 * which also names the payment, its status and the gateway's code and text.
 */
const paymentRefusedSchema = validationFailedSchema.extend({
  page: z.unknown().optional(),
  status: z.string().optional(),
  payment_id: z.number().int().optional(),
  messages: resultMessagesSchema.optional(),
});

/** A payment's outcome as the payment services hand it to their routes (200 or 202). */
export type PaymentOutcome = z.output<typeof paymentOutcomeSchema>;
/** A payment refused with its reasons, as the payment services hand it to their routes (422). */
export type PaymentRefusal = z.output<typeof paymentRefusedSchema>;

/** GET /app/payments/paypal/init on success: where PayPal asks the payer to approve. */
const paypalStartedSchema = z.object({
  messages: z.object({ resultCode: z.literal('Ok') }),
  transactionResponse: z.object({
    transId: z.string(),
    secureAcceptance: z.object({ secureAcceptanceUrl: z.string() }),
  }),
});

/** Billing reads (docs/requirements/product.md tool 14): unpaid invoices, one invoice, the payments and a receipt. */
export const billingContracts = {
  unpaidInvoices: defineContract({
    method: 'GET',
    url: '/api/invoices/unpaid',
    access: 'signed-in',
    scoped: true,
    summary: "The signed-in user's account's unpaid invoices, newest first",
    response: { 200: z.object({ invoices: z.array(unpaidInvoiceSchema) }) },
  }),
  invoice: defineContract({
    method: 'GET',
    url: '/api/invoices/:id',
    access: 'signed-in',
    scoped: true,
    summary: "One invoice of the user's own account (any for staff) with its order details and payments",
    params: recordIdParams,
    response: { 200: invoiceViewSchema },
  }),
  finances: defineContract({
    method: 'GET',
    url: '/api/finances',
    access: 'account-user',
    scoped: true,
    summary: "The account's payments, newest first, one page at a time, and its unpaid invoices",
    querystring: financesQuery.pick({ page: true }).extend({ account_id: actingAccountField }),
    response: { 200: financesViewSchema },
  }),
  receipt: defineContract({
    method: 'GET',
    url: '/api/payments/:id/receipt',
    access: 'signed-in',
    scoped: true,
    summary: "A printable receipt of one paid, held or refunded payment of the user's own account (any for staff)",
    params: recordIdParams,
    response: { 200: paymentReceiptSchema },
  }),
};

/**
 * Paying (docs/requirements/product.md tool 14, docs/requirements/calls.md POST /app/payments/*):
 * the billing screen's data, the discount code, card, bank, PayPal and settling with a discount.
 * Card and bank numbers never reach these routes: they carry the tokenizer's opaque data.
 */
export const paymentContracts = {
  screen: defineContract({
    method: 'GET',
    url: '/api/payments/screen',
    access: 'account-user',
    scoped: true,
    summary: 'The billing screen: the account, its unpaid invoices, the tokenizer settings and an open PayPal session',
    querystring: z.object({ account_id: actingAccountField }),
    response: { 200: paymentScreenSchema },
  }),
  reserveDiscount: defineContract({
    method: 'POST',
    url: '/app/discount/reserve',
    access: 'account-user',
    scoped: true,
    summary: 'Reserve a discount code for the account, or remove it with an empty code',
    body: discountReserveBodySchema,
    response: {
      200: z.object({
        discount: discountPayloadSchema.nullable(),
        reservation_id: z.number().int().optional(),
        expires_at: z.string().optional(),
      }),
      422: validationFailedSchema,
    },
  }),
  credit: defineContract({
    method: 'POST',
    url: '/app/payments/credit',
    access: 'account-user',
    scoped: true,
    summary: 'Pay invoices by card (the tokenizer’s opaque data), once per idempotency key',
    body: creditCardPaymentSchema.extend({ account_id: actingAccountField }),
    response: { 200: paymentOutcomeSchema, 202: paymentOutcomeSchema, 422: paymentRefusedSchema },
  }),
  bank: defineContract({
    method: 'POST',
    url: '/app/payments/bank',
    access: 'account-user',
    scoped: true,
    summary: 'Pay invoices from a bank account (the tokenizer’s opaque data), once per idempotency key',
    body: bankPaymentSchema.extend({ account_id: actingAccountField }),
    response: { 200: paymentOutcomeSchema, 202: paymentOutcomeSchema, 422: paymentRefusedSchema },
  }),
  zeroPayment: defineContract({
    method: 'POST',
    url: '/app/payments/zero-payment',
    access: 'account-user',
    scoped: true,
    summary: 'Settle invoices with a discount that covers their whole total',
    body: zeroPaymentSchema.extend({ account_id: actingAccountField }),
    response: { 200: paymentOutcomeSchema, 422: paymentRefusedSchema },
  }),
  paypalInit: defineContract({
    method: 'GET',
    url: '/app/payments/paypal/init',
    access: 'account-user',
    scoped: true,
    summary: 'Open a PayPal session for the chosen invoices (nothing is charged before the payer approves)',
    querystring: walletInitSchema.extend({ account_id: actingAccountField }),
    response: {
      200: z.union([paypalStartedSchema, paymentOutcomeSchema]),
      202: paymentOutcomeSchema,
      422: paymentRefusedSchema,
    },
  }),
  paypal: defineContract({
    method: 'POST',
    url: '/app/payments/paypal',
    access: 'account-user',
    scoped: true,
    summary: 'Complete the PayPal payment the payer approved',
    body: walletPaymentSchema.extend({ account_id: actingAccountField }),
    response: { 200: paymentOutcomeSchema, 202: paymentOutcomeSchema, 422: paymentRefusedSchema },
  }),
  paypalClear: defineContract({
    method: 'GET',
    url: '/app/payments/paypal/clear',
    access: 'account-user',
    scoped: true,
    summary: "Cancel the account's unfinished PayPal sessions",
    querystring: z.object({ account_id: actingAccountField }),
    response: { 200: z.object({ cleared: z.number().int() }) },
  }),
};
