import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedRowsOf, preparedStatement } from '../../src/server/db/rows-of.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Named prepared statements (src/server/db/rows-of.ts, docs/benchmarks.md "IRS national files on PostgreSQL"): a
 * statement the product runs often is parsed and planned once per connection. One label may carry
 * several texts; each gets its own name, or PostgreSQL would refuse the second.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('preparedRowsOf', () => {
  it('runs two texts under one label on one connection, each again with new values', async () => {
    const names = await t.database.db.transaction(async (tx) => {
      for (const n of [1, 2]) {
        expect(await preparedRowsOf(tx, 'probe', sql`SELECT ${n}::int AS n`)).toEqual([{ n }]);
        expect(await preparedRowsOf(tx, 'probe', sql`SELECT ${n}::int AS n, ${`x${n}`}::text AS s`)).toEqual([
          { n, s: `x${n}` },
        ]);
      }
      return (
        await preparedRowsOf<{ name: string }>(
          tx,
          'listing',
          sql`SELECT name FROM pg_prepared_statements WHERE name LIKE 'probe\_%' ORDER BY name`,
        )
      ).map((r) => r.name);
    });
    // PGlite runs them unnamed; a PostgreSQL connection keeps one statement per text.
    if (t.database.kind === 'postgres') {
      expect(names).toHaveLength(2);
      expect(names.every((name) => /^probe_[0-9a-f]{12}$/.test(name))).toBe(true);
    } else {
      expect(names).toEqual([]);
    }
  });

  it("preparedStatement builds its text once and runs it with each call's placeholder values", async () => {
    const n = sql.placeholder('n');
    const statement = preparedStatement<{ n: number; twice: number }>(
      'placeholders',
      sql`SELECT ${n}::int AS n, ${n}::int * 2 AS twice`,
    );
    for (const value of [3, 7])
      expect(await statement.rows(t.database.db, { n: value })).toEqual([{ n: value, twice: value * 2 }]);
    // A transaction's connection runs it too.
    expect(await t.database.db.transaction((tx) => statement.rows(tx, { n: 5 }))).toEqual([{ n: 5, twice: 10 }]);
  });
});
