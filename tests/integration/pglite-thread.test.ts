import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { startPgliteThread } from '../../src/server/db/pglite-thread.ts';
import { sessions, users } from '../../src/server/db/schema.ts';

/**
 * PGlite in its own thread (src/server/db/pglite-thread.ts): Drizzle gets exactly what it got from
 * PGlite in the server's thread (dates, timestamps, arrays, JSON), transactions keep other
 * statements waiting, PostgreSQL's error codes arrive, and the files are complete after close.
 */

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory://' });
  await database.migrate();
});
afterAll(async () => {
  await database?.close();
});

const VALUES = (at: string) => sql`SELECT ${at}::timestamptz AS at, ARRAY[1, 2, 3]::int[] AS ids,
  ARRAY['2031-05-06T07:08:09Z'::timestamptz] AS ats, '{"a": [1]}'::jsonb AS doc, interval '90 minutes' AS span,
  date '2031-05-06' AS day, 12345678901::bigint AS big, '\\x0102'::bytea AS bytes, 1.50::numeric AS amount`;

describe('PGlite in its own thread', () => {
  it('reads timestamps as Date, and arrays, JSON and numbers as values, like Drizzle on PGlite in one thread', async () => {
    const db = database.db;
    const expiresAt = new Date('2031-05-06T07:08:09.123Z');
    const [u] = await db.insert(users).values({ email: 'thread@example.com', passwordHash: 'x' }).returning();
    await db
      .insert(sessions)
      .values({ idHash: 'h'.repeat(64), userId: u.id, expiresAt, ip: '127.0.0.1', userAgent: 'test' });
    const [s] = await db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(s.expiresAt).toBeInstanceOf(Date);
    expect(s.expiresAt.toISOString()).toBe('2031-05-06T07:08:09.123Z');

    const row = ((await db.execute(VALUES(expiresAt.toISOString()))) as unknown as { rows: Record<string, unknown>[] })
      .rows[0];
    const plainClient = await PGlite.create('memory://');
    try {
      const plain = await drizzle(plainClient).execute(VALUES(expiresAt.toISOString()));
      expect(row).toEqual((plain as unknown as { rows: Record<string, unknown>[] }).rows[0]);
    } finally {
      await plainClient.close();
    }
    expect(row.ids).toEqual([1, 2, 3]);
    expect(row.doc).toEqual({ a: [1] });
  });

  it('commits and rolls back transactions; a statement from outside waits until the transaction ends', async () => {
    const db = database.db;
    const countKept = () =>
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(eq(users.email, 'kept@example.com'));
    let outside: ReturnType<typeof countKept> | undefined;
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ email: 'kept@example.com', passwordHash: 'x' });
      outside = countKept();
      await tx.update(users).set({ firstName: 'Kept' }).where(eq(users.email, 'kept@example.com'));
    });
    expect(await outside).toEqual([{ n: 1 }]);
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(users).values({ email: 'dropped@example.com', passwordHash: 'x' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const emails = (await db.select({ email: users.email }).from(users)).map((r) => r.email);
    expect(emails).toContain('kept@example.com');
    expect(emails).not.toContain('dropped@example.com');
    // Savepoints inside a transaction, as Drizzle nests them.
    await db.transaction(async (tx) => {
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(users).values({ email: 'inner@example.com', passwordHash: 'x' });
          throw new Error('inner only');
        }),
      ).rejects.toThrow('inner only');
      await tx.insert(users).values({ email: 'outer@example.com', passwordHash: 'x' });
    });
    const after = (await db.select({ email: users.email }).from(users)).map((r) => r.email);
    expect(after).toContain('outer@example.com');
    expect(after).not.toContain('inner@example.com');
  });

  it("passes PostgreSQL's error code and constraint, and goes on answering afterwards", async () => {
    const db = database.db;
    const failure = await db
      .insert(users)
      .values({ email: 'kept@example.com', passwordHash: 'x' })
      .then(
        () => null,
        (err: unknown) => err,
      );
    const cause = (failure as { cause?: { code?: string; constraint?: string; message?: string } }).cause;
    expect(cause?.code).toBe('23505');
    expect(cause?.constraint).toBe('users_email_unique');
    expect(cause?.message).toMatch(/duplicate key value violates unique constraint/);
    expect(await db.execute(sql`SELECT 1 AS one`)).toMatchObject({ rows: [{ one: 1 }] });
  });

  it("keeps a page cache of PGLITE_SHARED_BUFFERS_MB (32 MB unless set) instead of PostgreSQL's 128 MB", async () => {
    expect((await database.db.execute(sql`SHOW shared_buffers`)).rows).toEqual([{ shared_buffers: '32MB' }]);
    const small = await openDatabase({ pgliteDir: 'memory://', pgliteSharedBuffersMb: 8 });
    try {
      expect((await small.db.execute(sql`SHOW shared_buffers`)).rows).toEqual([{ shared_buffers: '8MB' }]);
    } finally {
      await small.close();
    }
  });

  it('refuses a query with parsers of its own, which could not run in the other thread', async () => {
    const thread = await startPgliteThread('memory://');
    try {
      await expect(
        thread.query('SELECT 41 + 1 AS n', [], { parsers: { 23: (v: string) => `int:${v}` } }),
      ).rejects.toThrow(/only knows the text parsers/);
      expect((await thread.query<{ n: number }>('SELECT 41 + 1 AS n')).rows).toEqual([{ n: 42 }]);
    } finally {
      await thread.close();
    }
  });

  it('leaves complete files after close: a directory opened again has what was written', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-pglite-thread-'));
    try {
      const first = await openDatabase({ pgliteDir: dir });
      await first.migrate();
      await first.db.insert(users).values({ email: 'durable@example.com', passwordHash: 'x' });
      await first.close();
      const second = await openDatabase({ pgliteDir: dir });
      try {
        expect(await second.db.select({ email: users.email }).from(users)).toEqual([{ email: 'durable@example.com' }]);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
