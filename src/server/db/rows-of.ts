import type { DbOrTx } from './client.ts';
import type { SQL } from 'drizzle-orm';

/**
 * The rows of a raw query (`db.execute`), typed as `T`: PGlite and node-postgres both answer
 * `{ rows }`. Reads or writes whatever `query` does; throws what the database throws.
 */
export async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
