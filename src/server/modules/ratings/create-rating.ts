import { ratings } from '../../db/schema.ts';
import type { RatingInput } from '../../../shared/schemas/public-forms.ts';
import type { Db } from '../../db/client.ts';

/** Stores one helpfulness rating (docs/requirements/product.md tool 10). Writes: one ratings row. */
export async function createRating(db: Db, input: RatingInput, ip: string): Promise<number> {
  const [row] = await db
    .insert(ratings)
    .values({ url: input.url, rating: input.rating, comments: input.comments, ip })
    .returning({ id: ratings.id });
  return row.id;
}
