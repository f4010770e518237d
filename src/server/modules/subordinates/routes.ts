import { z } from 'zod';
import { subordinateSearchContract } from '../../../shared/contracts/subordinate-search.ts';
import { fromContract } from '../../contracts.ts';
import { notFound } from '../../errors.ts';
import { perMinuteInProcess } from '../../plugins/rate-limits.ts';
import { getPublicProfile } from './get-public-profile.ts';
import { searchSubordinates } from './search-subordinates.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

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

  app.get('/api/accounts/:id/public', { config: { access: 'visitor' } }, async (req) => {
    const parsed = idParam.safeParse(req.params);
    if (!parsed.success) throw notFound('The organization');
    return getPublicProfile(app.db, parsed.data.id);
  });
}
