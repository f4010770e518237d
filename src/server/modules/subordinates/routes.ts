import { publicProfileContracts } from '../../../shared/contracts/public-profile.ts';
import { subordinateSearchContract } from '../../../shared/contracts/subordinate-search.ts';
import { fromContract, recordIdOf } from '../../contracts.ts';
import { perMinuteInProcess } from '../../plugins/rate-limits.ts';
import { getPublicProfile } from './get-public-profile.ts';
import { searchSubordinates } from './search-subordinates.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Subordinate search (docs/requirements/product.md tool 16) and public profiles. */
export async function subordinateRoutes(app: FastifyInstance) {
  const search = fromContract(subordinateSearchContract);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...search,
    config: { ...search.config, rateLimit: perMinuteInProcess(app.config.rateLimits.searchPerMinute) },
    handler: async ({ query: q }) =>
      searchSubordinates(
        app.db,
        q.keyword,
        q.page,
        (page) => `/search?${new URLSearchParams({ search: q.search, keyword: q.keyword, page: String(page) })}`,
      ),
  });

  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(publicProfileContracts.show),
    handler: async (req) => getPublicProfile(app.db, recordIdOf(req.params.id, 'The organization')),
  });
}
