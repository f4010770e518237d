import { supervisionContracts as c } from '../../../shared/contracts/supervision.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract } from '../../contracts.ts';
import { getSupervisionForm } from './get-supervision-form.ts';
import { listSupervisionStatus } from './list-supervision-status.ts';
import { saveSupervisionReport } from './save-supervision-report.ts';
import { sendEducationNotice } from './send-compliance-education.ts';
import { supervisionOverview } from './supervision-overview.ts';
import { latestEndedTaxYear } from './tax-years.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Yearly supervision and Form 990-N preparation (docs/supervision.md). Dates are UTC calendar dates.
 * - `GET /api/account/supervision?tax_year=&account_id=` (any user of the account, or an admin for
 *   any account through `account_id`; others 404) → SupervisionFormView: the form of a tax year
 *   (default the latest ended) with the facts the product knows, the saved report, its gross
 *   receipts test, the 990-N seen in the IRS data and the e-Postcard summary. 422 for a year not ended.
 * - `PUT /api/account/supervision` (any user of the account, or an admin with `account_id`; others
 *   404) the report (supervisionReportSchema) → 200 `{ message, form }`; 422 with the field's message
 *   (IRS field limits, the gross receipts test pointing to Form 990-EZ or 990, a fiscal year end month
 *   other than the one on file, an EIN other than the one on file, a year not ended). Audited.
 * - `GET /api/admin/supervision/overview` (staff) → SupervisionOverview: GEN groups and this year's
 *   compliance education notice of each.
 * - `GET /api/admin/supervision?group_id=&tax_year=&status=&search=&page=` (staff) → the member
 *   groups' report and 990-N status for a tax year, a page object of 25.
 * - `POST /api/admin/supervision/education` (staff) `{ group_id, year }` → 201 `{ message, recipients }`;
 *   409 when this year's notice of the group was already sent; 422 for another year or no recipient. Audited.
 * Staff routes answer 401 to visitors and 403 to everyone else.
 */
export async function supervisionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...fromContract(c.form),
    handler: async (req) =>
      getSupervisionForm(app.db, req.account.accountId, req.query.tax_year, calendarDate(new Date())),
  });

  api.route({
    ...fromContract(c.save),
    handler: async (req) => {
      const { accountId } = req.account;
      const today = calendarDate(new Date());
      const { taxYear } = await saveSupervisionReport(app.db, accountId, req.body, req.actor, today);
      return {
        message: `The supervision report for tax year ${taxYear} was saved.`,
        form: await getSupervisionForm(app.db, accountId, taxYear, today),
      };
    },
  });

  app.register(async (admin) => {
    const staffApi = admin.withTypeProvider<ZodTypeProvider>();
    const today = () => calendarDate(new Date());
    staffApi.route({
      ...fromContract(c.overview),
      handler: async () => supervisionOverview(app.db, Number(today().slice(0, 4)), latestEndedTaxYear(12, today())),
    });
    staffApi.route({
      ...fromContract(c.list),
      handler: async (req) => listSupervisionStatus(app.db, req.query, latestEndedTaxYear(12, today())),
    });
    staffApi.route({
      ...fromContract(c.sendEducation),
      handler: async (req, reply) => {
        const answer = await sendEducationNotice(app.db, {
          groupId: req.body.group_id,
          year: req.body.year,
          today: today(),
          publicUrl: app.config.publicUrl,
          actor: req.actor,
        });
        return reply.code(201).send(answer);
      },
    });
  });
}
