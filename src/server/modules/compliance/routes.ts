import { z } from 'zod';
import { accountOverviewContracts } from '../../../shared/contracts/account-overview.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { pageQuery } from '../../../shared/schemas/admin.ts';
import { filingSchema } from '../../../shared/schemas/compliance.ts';
import { fromContract } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { auditActor } from '../../plugins/session.ts';
import { parseInput } from '../../validate.ts';
import { getCalendar } from './get-calendar.ts';
import { listRevocationRisk } from './list-revocation-risk.ts';
import { recordFiling } from './record-filing.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const idOf = (req: FastifyRequest) => {
  const parsed = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }).safeParse(req.params);
  if (!parsed.success) throw notFound('The account');
  return parsed.data.id;
};

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
 */
export async function complianceRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(accountOverviewContracts.calendar),
    handler: async (req) => getCalendar(app.db, req.account.accountId, calendarDate(new Date())),
  });

  app.get('/api/admin/compliance/risk', { config: { access: 'staff' } }, async (req) =>
    listRevocationRisk(app.db, calendarDate(new Date()), parseInput(pageQuery, req.query).page),
  );

  app.post('/api/admin/accounts/:id/filings', { config: { access: 'staff' } }, async (req, reply) => {
    const accountId = idOf(req);
    const input = parseInput(filingSchema, req.body);
    const filing = await recordFiling(app.db, accountId, input, auditActor(req), calendarDate(new Date()));
    return reply.status(201).send({ filing, message: `The filing for tax year ${filing.tax_year} was recorded.` });
  });
}
