import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import {
  adminSupervisionQuery,
  educationSendSchema,
  supervisionQuery,
  supervisionReportSchema,
} from '../../../shared/schemas/supervision.ts';
import { auditActor } from '../../plugins/session.ts';
import { requestOrigin } from '../../request-origin.ts';
import { parseInput } from '../../validate.ts';
import { getCompany } from '../content/get-company.ts';
import { getSupervisionForm } from './get-supervision-form.ts';
import { listSupervisionStatus } from './list-supervision-status.ts';
import { saveSupervisionReport } from './save-supervision-report.ts';
import { sendComplianceEducation } from './send-compliance-education.ts';
import { supervisionOverview } from './supervision-overview.ts';
import { latestEndedTaxYear } from './tax-years.ts';
import type { FastifyInstance } from 'fastify';

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
  app.get('/api/account/supervision', { config: { access: 'account-user' } }, async (req) => {
    const { accountId } = req.account;
    const { tax_year } = parseInput(supervisionQuery, req.query);
    return getSupervisionForm(app.db, accountId, tax_year, calendarDate(new Date()));
  });

  app.put('/api/account/supervision', { config: { access: 'account-user' } }, async (req) => {
    const { accountId, onBehalf } = req.account;
    const input = parseInput(supervisionReportSchema, req.body);
    const today = calendarDate(new Date());
    const { taxYear } = await saveSupervisionReport(app.db, accountId, input, { ...auditActor(req), onBehalf }, today);
    return {
      message: `The supervision report for tax year ${taxYear} was saved.`,
      form: await getSupervisionForm(app.db, accountId, taxYear, today),
    };
  });

  app.register(async (admin) => {
    const today = () => calendarDate(new Date());
    admin.get('/api/admin/supervision/overview', { config: { access: 'staff' } }, async () =>
      supervisionOverview(app.db, Number(today().slice(0, 4)), latestEndedTaxYear(12, today())),
    );
    admin.get('/api/admin/supervision', { config: { access: 'staff' } }, async (req) =>
      listSupervisionStatus(app.db, parseInput(adminSupervisionQuery, req.query), latestEndedTaxYear(12, today())),
    );
    admin.post('/api/admin/supervision/education', { config: { access: 'staff' } }, async (req, reply) => {
      const input = parseInput(educationSendSchema, req.body);
      const sent = await sendComplianceEducation(app.db, {
        groupId: input.group_id,
        year: input.year,
        today: today(),
        origin: requestOrigin(req, app.config.publicUrl),
        companyName: (await getCompany(app.db)).name,
        actor: auditActor(req),
      });
      return reply.code(201).send({
        message: `The ${sent.year} compliance education notice of ${sent.groupLabel} was queued for ${sent.recipients} users.`,
        recipients: sent.recipients,
      });
    });
  });
}
