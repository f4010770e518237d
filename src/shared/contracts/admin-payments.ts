import { z } from 'zod';
import {
  adminPaymentRowSchema,
  adminPaymentsQuery,
  paymentActionAnswerSchema,
  paymentActionSchema,
  paymentsAttentionSchema,
  refundSchema,
  resolveDiscrepancySchema,
  reviewPaymentAlertSchema,
} from '../schemas/admin-payments.ts';
import { fileAnswer, recordIdParams, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/** An answer in words: what was done, or why it was refused (409). */
const messageSchema = z.object({ message: z.string() });

/** What a reconciliation run did (docs/payments.md "Reconciliation"). */
const reconcileSummarySchema = z.object({
  /** Payments asked about. */
  checked: z.number().int(),
  /** Payments moved, by new status. */
  moved: z.record(z.string(), z.number().int()),
  /** Payments newly put before staff. */
  flagged: z.number().int(),
  /** Refunds whose outcome was recorded. */
  refunds: z.number().int(),
  /** Gateway charges newly found that no payment of ours accounts for. */
  discrepancies: z.number().int(),
  /** The unsettled list could not be read (the gateway did not answer, or refused). */
  listUnavailable: z.boolean(),
});

/**
 * The answers of a staff action on a payment (docs/payments.md "Staff actions"): 200 done, 202
 * the gateway did not answer (the reconciliation records the outcome), 409 the payment is not in
 * a state for it, 422 a field refused.
 */
const actionAnswers = {
  200: paymentActionAnswerSchema,
  202: paymentActionAnswerSchema,
  409: messageSchema,
  422: validationFailedSchema,
};

/** One staff action on a held, pending or paid payment, with the reason kept in the audit log. */
const paymentAction = <const Action extends 'approve' | 'decline' | 'void' | 'resolve'>(
  action: Action,
  summary: string,
) =>
  defineContract({
    method: 'POST',
    url: `/api/admin/payments/:id/${action}`,
    access: 'staff',
    summary,
    params: recordIdParams,
    body: paymentActionSchema,
    response: actionAnswers,
  });

/** Admin → Payments (docs/payments.md, docs/staff-lists.md): staff only. */
export const adminPaymentContracts = {
  list: defineContract({
    method: 'GET',
    url: '/api/admin/payments',
    access: 'staff',
    summary: "Every account's payments, filtered by status and method, searched, sorted, 25 a page",
    querystring: adminPaymentsQuery,
    response: { 200: pageObjectSchema(adminPaymentRowSchema) },
  }),
  exportCsv: defineContract({
    method: 'GET',
    url: '/api/admin/payments/export.csv',
    access: 'staff',
    summary: 'Every payment the list shows with the same filters, search and sort, as CSV',
    querystring: adminPaymentsQuery,
    response: { 200: fileAnswer('The payments as CSV, one row per payment') },
    produces: ['text/csv'],
  }),
  attention: defineContract({
    method: 'GET',
    url: '/api/admin/payments/attention',
    access: 'staff',
    summary:
      'Payments that need a staff decision and gateway charges no payment accounts for, oldest first; open payment alerts, newest first',
    response: { 200: paymentsAttentionSchema },
  }),
  reconcile: defineContract({
    method: 'POST',
    url: '/api/admin/payments/reconcile',
    access: 'staff',
    summary: 'Ask the payment gateway now about held and pending payments and unknown charges',
    response: { 200: z.object({ message: z.string(), summary: reconcileSummarySchema }) },
  }),
  approve: paymentAction('approve', 'Approve a payment held for review: the money is applied (audited, mailed)'),
  decline: paymentAction(
    'decline',
    'Decline a held payment, or a pending one the gateway has no record of (audited, mailed)',
  ),
  void: paymentAction('void', 'Void a paid payment before it settles (audited, mailed)'),
  resolve: paymentAction('resolve', 'Mark a payment put before staff as dealt with (audited)'),
  refund: defineContract({
    method: 'POST',
    url: '/api/admin/payments/:id/refund',
    access: 'staff',
    summary: 'Refund part or all of a paid payment, amount in dollars (audited, mailed)',
    params: recordIdParams,
    body: refundSchema,
    response: actionAnswers,
  }),
  resolveDiscrepancy: defineContract({
    method: 'POST',
    url: '/api/admin/payments/discrepancies/:id/resolve',
    access: 'staff',
    summary: 'Mark a gateway charge no payment accounts for as dealt with, saying what was done (audited)',
    params: recordIdParams,
    body: resolveDiscrepancySchema,
    response: { 200: messageSchema, 409: messageSchema, 422: validationFailedSchema },
  }),
  reviewAlert: defineContract({
    method: 'POST',
    url: '/api/admin/payments/alerts/:id/review',
    access: 'staff',
    summary: 'Mark a payment alert (possible card testing) reviewed, with a note of what staff found (audited)',
    params: recordIdParams,
    body: reviewPaymentAlertSchema,
    response: { 200: messageSchema, 409: messageSchema, 422: validationFailedSchema },
  }),
};
