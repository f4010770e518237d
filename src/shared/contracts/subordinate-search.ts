import { subordinateRowSchema, subordinateSearchQuery } from '../schemas/search.ts';
import { validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';
import { pageObjectSchema } from './page-object.ts';

/**
 * The public subordinate search (docs/requirements/product.md tool 16, docs/requirements/calls.md):
 * anyone may search by keyword; the answer is a page object (docs/requirements/entities.md
 * "Search results page") of name, city and state.
 */
export const subordinateSearchContract = defineContract({
  method: 'GET',
  url: '/search',
  access: 'visitor',
  summary: 'Search the subordinate listing by name or city (15 a page)',
  querystring: subordinateSearchQuery,
  response: { 200: pageObjectSchema(subordinateRowSchema), 422: validationFailedSchema },
});
