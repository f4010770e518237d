import { z } from 'zod';

/**
 * The page object every paged list answers with (docs/requirements/entities.md "Search results
 * page"; src/shared/rules/pagination.ts `PageObject`), for rows of `row`.
 */
export function pageObjectSchema<Row extends z.ZodType>(row: Row) {
  return z.object({
    current_page: z.number().int(),
    data: z.array(row),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    next_page_url: z.string().nullable(),
    prev_page_url: z.string().nullable(),
    total_is_capped: z.boolean().optional(),
  });
}
