import {
  adminMoneyTotalsSchema,
  adminOpenInvoicesPageSchema,
  adminOpenInvoicesQuery,
} from '../schemas/admin-payments.ts';
import { fileAnswer } from './common.ts';
import { defineContract } from './contract.ts';

/** Admin → Payments, the open invoices tab and the totals above both lists (docs/payments.md): staff only. */
export const adminInvoicesContracts = {
  open: defineContract({
    method: 'GET',
    url: '/api/admin/invoices/open',
    access: 'staff',
    summary: "Every account's open invoices, oldest first, filtered by overdue, searched by number or account",
    querystring: adminOpenInvoicesQuery,
    response: { 200: adminOpenInvoicesPageSchema },
  }),
  openCsv: defineContract({
    method: 'GET',
    url: '/api/admin/invoices/open/export.csv',
    access: 'staff',
    summary: 'Every open invoice the list shows with the same filter, search and sort, as CSV',
    querystring: adminOpenInvoicesQuery,
    response: { 200: fileAnswer('The open invoices as CSV, one row per invoice') },
    produces: ['text/csv'],
  }),
  moneyTotals: defineContract({
    method: 'GET',
    url: '/api/admin/money-totals',
    access: 'staff',
    summary: 'Whole-site totals: open balances (cents), open invoices, held and pending payments, open payment alerts',
    response: { 200: adminMoneyTotalsSchema },
  }),
};
