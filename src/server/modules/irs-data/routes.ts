import { irsCheckContracts } from '../../../shared/contracts/irs-check.ts';
import { calendarDate } from '../../../shared/rules/compliance-calendar.ts';
import { fromContract } from '../../contracts.ts';
import { perMinuteInProcess } from '../../plugins/rate-limits.ts';
import { checkOrganization, findOrganizations } from './check-organization.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The instant revocation-risk check (docs/irs-standing.md "Instant check"): visitors, rate limited as the search is. */
export async function irsCheckRoutes(app: FastifyInstance) {
  const limited = { rateLimit: perMinuteInProcess(app.config.rateLimits.searchPerMinute) };
  const lookup = fromContract(irsCheckContracts.lookup);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...lookup,
    config: { ...lookup.config, ...limited },
    handler: async ({ query }) => findOrganizations(app.db, query.query, { after: query.after, before: query.before }),
  });
  const check = fromContract(irsCheckContracts.check);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...check,
    config: { ...check.config, ...limited },
    handler: async ({ params }) => checkOrganization(app.db, params.ein, calendarDate(new Date())),
  });
}
