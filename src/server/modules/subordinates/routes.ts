import { z } from 'zod';
import { subordinateSearchQuery } from '../../../shared/schemas/search.ts';
import { notFound } from '../../errors.ts';
import { perMinuteInProcess } from '../../plugins/rate-limits.ts';
import { parseInput } from '../../validate.ts';
import { getPublicProfile } from './get-public-profile.ts';
import { searchSubordinates } from './search-subordinates.ts';
import type { FastifyInstance } from 'fastify';

const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Subordinate search (docs/requirements/product.md tool 16) and public profiles. */
export async function subordinateRoutes(app: FastifyInstance) {
  app.get(
    '/search',
    { config: { access: 'visitor', rateLimit: perMinuteInProcess(app.config.rateLimits.searchPerMinute) } },
    async (req) => {
      const q = parseInput(subordinateSearchQuery, req.query);
      return searchSubordinates(
        app.db,
        q.keyword,
        q.page,
        (page) => `/search?${new URLSearchParams({ search: q.search, keyword: q.keyword, page: String(page) })}`,
      );
    },
  );

  app.get('/api/accounts/:id/public', { config: { access: 'visitor' } }, async (req) => {
    const parsed = idParam.safeParse(req.params);
    if (!parsed.success) throw notFound('The organization');
    return getPublicProfile(app.db, parsed.data.id);
  });
}
