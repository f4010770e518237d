import { createHash } from 'node:crypto';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';
import type { Query, SQL } from 'drizzle-orm';

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
    name = statementName(label, built.sql);
    statementNames.set(built.sql, name);
  }
  return run<T>(db, built, name, {});
}

const statementName = (label: string, text: string) =>
  `${label}_${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;

async function run<T>(db: DbOrTx, built: Query, name: string, values: Record<string, unknown>): Promise<T[]> {
  const result = await db._.session.prepareQuery(built, undefined, name, false).execute(values);
  return (result as unknown as { rows: T[] }).rows;
}

/** A statement built once, run with the values of its placeholders (preparedStatement). */
export interface PreparedStatement<T> {
  /**
   * Its rows, typed as `T`, for `values` (by `sql.placeholder` name). Reads or writes whatever the
   * statement does; throws what the database throws.
   */
  rows(db: DbOrTx, values: Record<string, unknown>): Promise<T[]>;
}

/**
 * A statement whose text never changes, its values given as `sql.placeholder(name)`: its SQL is
 * built once, on first use, and then run as {@link preparedRowsOf} runs it (a named prepared
 * statement on a PostgreSQL server). For the statements of the hottest routes, where building the
 * text on every call cost as much of the server's time as running it (docs/benchmarks.md "IRS
 * national files on PostgreSQL").
 * @param label short name of the statement ([a-z_])
 */
export function preparedStatement<T>(label: string, query: SQL): PreparedStatement<T> {
  let built: { query: Query; name: string } | undefined;
  return {
    rows(db, values) {
      if (!built) {
        const q = dialect.sqlToQuery(query);
        built = { query: q, name: statementName(label, q.sql) };
      }
      return run<T>(db, built.query, built.name, values);
    },
  };
}
