import { createHash } from 'node:crypto';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';
import type { SQL } from 'drizzle-orm';

/**
 * The rows of a raw query (`db.execute`), typed as `T`: PGlite and node-postgres both answer
 * `{ rows }`. Reads or writes whatever `query` does; throws what the database throws.
 */
export async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const dialect = new PgDialect();
/** Statement names by query text: a name is given to one text only (node-postgres refuses a name reused for another). */
const statementNames = new Map<string, string>();

/**
 * {@link rowsOf} as a named prepared statement (docs/benchmarks.md "IRS national files on PostgreSQL"): on a
 * PostgreSQL server each pooled connection parses and plans the statement once and then only
 * binds and executes it, which for the instant check's one statement was most of PostgreSQL's
 * CPU per answer. The name is `label` and a hash of the query text, so a text that changes (a new
 * column list, a different number of values) is a new statement. PGlite runs it as rowsOf does.
 * Reads or writes whatever `query` does; throws what the database throws.
 * @param label short name of the statement, e.g. 'irs_check' ([a-z_], for the server's pg_prepared_statements)
 */
export async function preparedRowsOf<T>(db: DbOrTx, label: string, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (!name) {
    name = `${label}_${createHash('sha256').update(built.sql).digest('hex').slice(0, 12)}`;
    statementNames.set(built.sql, name);
  }
  const result = await db._.session.prepareQuery(built, undefined, name, false).execute();
  return (result as unknown as { rows: T[] }).rows;
}
