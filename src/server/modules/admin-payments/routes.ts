import { adminInvoicesContracts } from '../../../shared/contracts/admin-invoices.ts';
import { adminPaymentContracts as c } from '../../../shared/contracts/admin-payments.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { sendDownload } from '../../send-download.ts';
import { getCompany } from '../content/get-company.ts';
import { lastReconciledAt, reconcilePendingAfterMs, runReconciliation } from '../payments/reconciliation-job.ts';
import { decideHeldPayment } from './decide-held-payment.ts';
import { findAdminPaymentRow, listPaymentsAttention } from './list-attention.ts';
import { exportOpenInvoicesCsv, listOpenInvoices } from './list-open-invoices.ts';
import { exportAdminPaymentsCsv, listAdminPayments } from './list-payments.ts';
import { getMoneyTotals } from './money-totals.ts';
import { refundPayment } from './refund-payment.ts';
import { resolveDiscrepancy, resolvePaymentReview } from './resolve-review.ts';
import { reviewPaymentAlert } from './review-payment-alert.ts';
import { voidPayment } from './void-payment.ts';
import type { StaffActionAnswer, StaffPaymentDeps } from './staff-payment-deps.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The staff's view of money (docs/payments.md; page /admin/payments). Staff only: 401 for visitors,
 * 403 for everyone else; an unknown filter value or a bad body is 422.
 * - `GET /api/admin/payments?status=&method=&search=&sort=&page=` every account's payments, newest
 *   first, and `GET /api/admin/payments/export.csv` with the same query all of them as CSV;
 *   `GET /api/admin/invoices/open?overdue=&page=` every account's open invoices, oldest first,
 *   both page objects of 25;
 * - `GET /api/admin/money-totals` the whole-site totals above both lists (open balances, held and
 *   pending payments), read once per visit of the page rather than with every page of a list;
 * - `GET /api/admin/payments/attention` what needs a decision (and the open payment alerts), and
 *   `POST /api/admin/payments/reconcile` to ask the gateway now;
 * - `POST /api/admin/payments/{id}/approve|decline|void|resolve` `{ reason }` and
 *   `POST /api/admin/payments/{id}/refund` `{ amount, reason }`: each audited, the account mailed;
 * - `POST /api/admin/payments/discrepancies/{id}/resolve` `{ resolution }`;
 * - `POST /api/admin/payments/alerts/{id}/review` `{ note }`: a possible card testing alert
 *   reviewed (docs/payments.md "Card testing"), audited.
 */
export async function adminPaymentRoutes(app: FastifyInstance) {
  app.register(async (admin) => {
    const api = admin.withTypeProvider<ZodTypeProvider>();
    api.route({ ...fromContract(c.list), handler: async (req) => listAdminPayments(app.db, req.query) });
    api.route({
      ...fromContract(c.exportCsv),
      handler: async (req, reply) => {
        const csv = await exportAdminPaymentsCsv(app.db, req.query);
        return sendDownload(reply, csv, `payments-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
      },
    });
    const invoicesApi = admin.withTypeProvider<ZodTypeProvider>();
    invoicesApi.route({
      ...fromContract(adminInvoicesContracts.open),
      handler: async (req) => listOpenInvoices(app.db, req.query),
    });
    invoicesApi.route({
      ...fromContract(adminInvoicesContracts.openCsv),
      handler: async (req, reply) => {
        const csv = await exportOpenInvoicesCsv(app.db, req.query);
        return sendDownload(reply, csv, `open-invoices-${calendarDate(new Date())}.csv`, 'text/csv; charset=utf-8');
      },
    });
    invoicesApi.route({
      ...fromContract(adminInvoicesContracts.moneyTotals),
      handler: async () => getMoneyTotals(app.db),
    });
    api.route({
      ...fromContract(c.attention),
      handler: async () =>
        listPaymentsAttention(app.db, {
          pendingAfterMs: reconcilePendingAfterMs(app),
          lastReconciledAt: await lastReconciledAt(app),
        }),
    });
    api.route({
      ...fromContract(c.reconcile),
      handler: async () => ({
        message: 'The payments were checked with the payment gateway.',
        summary: await runReconciliation(app),
      }),
    });

    const deps = async (req: FastifyRequest): Promise<StaffPaymentDeps> => ({
      db: app.db,
      gateway: app.providers.payments,
      log: req.log,
      companyName: (await getCompany(app.db)).name,
    });
    const answer = async (reply: FastifyReply, done: StaffActionAnswer) =>
      reply
        .code(done.statusCode)
        .send({ message: done.message, payment: await findAdminPaymentRow(app.db, done.paymentId) });

    for (const action of ['approve', 'decline'] as const) {
      api.route({
        ...fromContract(c[action]),
        handler: async (req, reply) => {
          const paymentId = recordIdOf(req.params.id, 'The payment');
          const { reason } = req.body;
          return answer(
            reply,
            await decideHeldPayment(await deps(req), { paymentId, action, reason, actor: req.actor }),
          );
        },
      });
    }
    api.route({
      ...fromContract(c.void),
      handler: async (req, reply) => {
        const paymentId = recordIdOf(req.params.id, 'The payment');
        const { reason } = req.body;
        return answer(reply, await voidPayment(await deps(req), { paymentId, reason, actor: req.actor }));
      },
    });
    api.route({
      ...fromContract(c.refund),
      handler: async (req, reply) => {
        const paymentId = recordIdOf(req.params.id, 'The payment');
        const { amount, reason } = req.body;
        return answer(reply, await refundPayment(await deps(req), { paymentId, amount, reason, actor: req.actor }));
      },
    });
    api.route({
      ...fromContract(c.resolve),
      handler: async (req, reply) => {
        const paymentId = recordIdOf(req.params.id, 'The payment');
        const { reason } = req.body;
        return answer(reply, await resolvePaymentReview(await deps(req), { paymentId, reason, actor: req.actor }));
      },
    });
    api.route({
      ...fromContract(c.resolveDiscrepancy),
      handler: async (req) => {
        const id = recordIdOf(req.params.id, 'The gateway charge');
        const { resolution } = req.body;
        return resolveDiscrepancy(await deps(req), { id, resolution, actor: req.actor });
      },
    });
    api.route({
      ...fromContract(c.reviewAlert),
      handler: async (req) => {
        const id = recordIdOf(req.params.id, 'The alert');
        return reviewPaymentAlert(app.db, { id, note: req.body.note, actor: req.actor });
      },
    });
  });
}
