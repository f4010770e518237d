import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * Reclaims dead rows and refreshes planner statistics of `table` (or the whole database).
 * PGlite has no autovacuum: without this after a large import, searches read a bloated GIN pending
 * list and plan without statistics. VACUUM cannot run inside a transaction; call it on its own.
 */
export async function vacuumAnalyze(db: Db, table?: 'accounts'): Promise<void> {
  await db.execute(table ? sql`VACUUM (ANALYZE) accounts` : sql`VACUUM (ANALYZE)`);
}
