import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { adminComplianceContracts } from '../../../shared/contracts/admin-compliance.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { getCalendar } from './get-calendar.ts';
import { listRevocationRisk } from './list-revocation-risk.ts';
import { deletePenaltyFigures, listPenaltyFigures, savePenaltyFigures } from './penalty-figures.ts';
import { recordFiling } from './record-filing.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The compliance calendar (docs/requirements/product.md "Compliance calendar"). Dates are 'YYYY-MM-DD' (UTC calendar date).
 * - `GET /api/account/calendar` → `{ today, fiscal_year_end_month, deadlines, filings }`: deadlines
 *   from deadlinesFor (src/shared/rules/compliance-calendar.ts; the next Form 990-series due date
 *   from the fiscal year end, 1-based month, the renewal date, and the next annual filing of the
 *   account's state (accounts.state) when staff keep a date for it, kind 'state', labelled like
 *   "Indiana annual report"; state-filings.ts), the Form 990 one with
 *   `filed: true, filed_on` when a filing for its tax year is recorded; `filings` the account's
 *   recorded filings `{ tax_year, form, filed_on }`, newest first. The holder's own account, or any
 *   account for an admin (`account_id`); others 404. Reads only.
 * - `GET /api/admin/compliance/risk?page=` (admins) → a page object of accounts at revocation risk
 *   (list-revocation-risk.ts).
 * - `POST /api/admin/accounts/:id/filings` (admins) `{ tax_year, form, filed_on }` → 201 the filing
 *   (record-filing.ts); 422 on a taken year, a future date, a bad form.
 * - `GET|POST /api/admin/penalty-figures`, `DELETE /api/admin/penalty-figures/:year` (staff): the
 *   IRC §6652(c) figures of each due year (penalty-figures.ts).
 */
export async function complianceRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(accountOverviewContracts.calendar),
    handler: async (req) => getCalendar(app.db, req.account.accountId, calendarDate(new Date())),
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...fromContract(adminComplianceContracts.risk),
    handler: async (req) => listRevocationRisk(app.db, calendarDate(new Date()), req.query.page),
  });
  api.route({
    ...fromContract(adminComplianceContracts.recordFiling),
    handler: async (req, reply) => {
      const accountId = recordIdOf(req.params.id, 'The account');
      const filing = await recordFiling(app.db, accountId, req.body, req.actor, calendarDate(new Date()));
      return reply.status(201).send({ filing, message: `The filing for tax year ${filing.tax_year} was recorded.` });
    },
  });
  api.route({
    ...fromContract(adminComplianceContracts.penaltyFigures),
    handler: async () => ({ data: await listPenaltyFigures(app.db) }),
  });
  api.route({
    ...fromContract(adminComplianceContracts.savePenaltyFigures),
    handler: async (req) => {
      const figures = await savePenaltyFigures(app.db, req.body, req.actor);
      return { figures, message: `The penalty figures for returns due in ${figures.due_year} were saved.` };
    },
  });
  api.route({
    ...fromContract(adminComplianceContracts.deletePenaltyFigures),
    handler: async (req) => {
      await deletePenaltyFigures(app.db, req.params.year, req.actor);
      return { message: `The penalty figures for returns due in ${req.params.year} were removed.` };
    },
  });
}
