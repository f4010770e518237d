import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { payments, sessions, users } from '../../src/server/db/schema.ts';
import { pgliteForDrizzle } from '../../src/server/db/pglite-adapter.ts';

/**
 * The PGlite client Drizzle is given (src/server/db/pglite-adapter.ts) answers exactly what plain
 * Drizzle-on-PGlite answers: dates, timestamps, arrays and JSON, in and out of transactions.
 */

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory://' });
  await database.migrate();
});
afterAll(async () => {
  await database?.close();
});

describe('pgliteForDrizzle', () => {
  it('reads timestamps as Date, and arrays and JSON as values, like Drizzle with its own parsers', async () => {
    const db = database.db;
    const expiresAt = new Date('2031-05-06T07:08:09.123Z');
    const [u] = await db.insert(users).values({ email: 'adapter@example.com', passwordHash: 'x' }).returning();
    await db.insert(sessions).values({ idHash: 'h'.repeat(64), userId: u.id, expiresAt, ip: '127.0.0.1', userAgent: 'test' });
    const [s] = await db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(s.expiresAt).toBeInstanceOf(Date);
    expect(s.expiresAt.toISOString()).toBe('2031-05-06T07:08:09.123Z');

    const raw = await db.execute(sql`SELECT ${expiresAt.toISOString()}::timestamptz AS at, ARRAY[1, 2, 3]::int[] AS ids,
      ARRAY['2031-05-06T07:08:09Z'::timestamptz] AS ats, '{"a": [1]}'::jsonb AS doc, interval '90 minutes' AS span, date '2031-05-06' AS day`);
    const row = (raw as unknown as { rows: Record<string, unknown>[] }).rows[0];

    // The same statement through plain Drizzle on its own PGlite: what the product read before.
    const plainClient = await PGlite.create('memory://');
    try {
      const plain = await drizzle(plainClient).execute(sql`SELECT ${expiresAt.toISOString()}::timestamptz AS at, ARRAY[1, 2, 3]::int[] AS ids,
        ARRAY['2031-05-06T07:08:09Z'::timestamptz] AS ats, '{"a": [1]}'::jsonb AS doc, interval '90 minutes' AS span, date '2031-05-06' AS day`);
      expect(row).toEqual((plain as unknown as { rows: Record<string, unknown>[] }).rows[0]);
    } finally {
      await plainClient.close();
    }
    expect(row.ids).toEqual([1, 2, 3]);
    expect(row.doc).toEqual({ a: [1] });
  });

  it('commits and rolls back transactions', async () => {
    const db = database.db;
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ email: 'kept@example.com', passwordHash: 'x' });
    });
    await expect(db.transaction(async (tx) => {
      await tx.insert(users).values({ email: 'dropped@example.com', passwordHash: 'x' });
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    const emails = (await db.select({ email: users.email }).from(users)).map((r) => r.email);
    expect(emails).toContain('kept@example.com');
    expect(emails).not.toContain('dropped@example.com');
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(payments);
    expect(n).toBe(0);
  });

  it('leaves a query with parsers of its own to PGlite', async () => {
    const client = await PGlite.create('memory://');
    try {
      const wrapped = pgliteForDrizzle(client);
      // Drizzle's set first (installed once), then a caller's own parser for int4.
      await wrapped.query('SELECT 1', [], { parsers: { 1184: (v: string) => v } });
      const res = await wrapped.query<{ n: unknown }>('SELECT 41 + 1 AS n', [], { parsers: { 23: (v: string) => `int:${v}` } });
      expect(res.rows[0].n).toBe('int:42');
      const plain = await wrapped.query<{ n: unknown }>('SELECT 41 + 1 AS n');
      expect(plain.rows[0].n).toBe(42);
    } finally {
      await client.close();
    }
  });
});
