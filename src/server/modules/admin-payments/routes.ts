import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { adminOpenInvoicesQuery, adminPaymentsQuery } from '../../../shared/schemas/admin-payments.ts';
import { listAdminPayments } from './list-payments.ts';
import { listOpenInvoices } from './list-open-invoices.ts';

/**
 * The staff's view of money (issue 7; page /admin/payments): `GET /api/admin/payments?status=&method=&page=`
 * (every account's payments, newest first) and `GET /api/admin/invoices/open?overdue=&page=` (every
 * account's open invoices, oldest first), both SPEC §3 page objects of 25 with the whole-site
 * totals. Admins only: 401 for visitors, 403 for everyone else; an unknown filter value is 422.
 */
export async function adminPaymentRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    admin.addHook('preHandler', requireAdmin);
    admin.get('/api/admin/payments', async (req) => listAdminPayments(app.db, parseInput(adminPaymentsQuery, req.query)));
    admin.get('/api/admin/invoices/open', async (req) => listOpenInvoices(app.db, parseInput(adminOpenInvoicesQuery, req.query)));
  });
}
