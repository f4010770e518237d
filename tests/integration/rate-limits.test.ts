import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { rateLimits } from '../../src/server/db/schema.ts';
import { rateLimitHitCounter, sweepRateLimits } from '../../src/server/plugins/rate-limits.ts';
import { inquiryContracts } from '../../src/shared/contracts/public-forms.ts';
import { subordinateSearchContract } from '../../src/shared/contracts/subordinate-search.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';
import type { FastifyInstance } from 'fastify';

/**
 * Rate limits shared by several server processes on one database (docs/requirements/platform.md §5.4,
 * RATE_LIMIT_STORE=database; docs/deploy.md): two apps built on the same database stand for two
 * processes behind a load balancer. Also the client address behind a trusted proxy (TRUST_PROXY).
 */

const CONTACT = {
  name: 'Ann Lee',
  email: 'ann@example.com',
  organization: 'Lincoln Boosters',
  subject: '990 help',
  message: 'Which 990 do we file?',
};
const PROXY = '10.0.0.2';

let t: TestApp;
let second: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({
    config: { rateLimitStore: 'database', trustProxy: PROXY, rateLimits: { formsPerMinute: 3, searchPerMinute: 2 } },
  });
  // A second server process on the same database: same configuration, its own memory.
  second = await buildApp(t.config, { database: t.database, logger: false });
  await second.ready();
});

afterAll(async () => {
  await second?.close();
  await t?.close();
});

/** A visitor of `app` at `ip` whose session opened on `app`. */
const visitor = (app: FastifyInstance, ip: string) => new Agent(app, ip).start();

/** Submits the contact form through a proxy at PROXY that forwards for `forwardedFor`. */
async function viaProxy(app: FastifyInstance, forwardedFor: string) {
  const a = await visitor(app, PROXY);
  return a.request('POST', '/contact', CONTACT, { 'x-forwarded-for': forwardedFor });
}

describe('rate limits counted in the database', () => {
  it('counts the public form across both servers: the 4th submission from one address gets 429 on either', async () => {
    const onFirst = await visitor(t.app, '192.0.2.10');
    const onSecond = await visitor(second, '192.0.2.10');
    expect((await onFirst.call(inquiryContracts.contact, { body: CONTACT })).statusCode).toBe(201);
    expect((await onSecond.call(inquiryContracts.contact, { body: CONTACT })).statusCode).toBe(201);
    expect((await onFirst.call(inquiryContracts.contact, { body: CONTACT })).statusCode).toBe(201);
    for (const a of [onSecond, onFirst]) {
      const limited = await a.call(inquiryContracts.contact, { body: CONTACT });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/^Too many requests\. Please wait \d+ seconds and try again\.$/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // Another address, and another form from the same address, are counted apart.
    expect((await (await visitor(second, '192.0.2.11')).post('/contact', CONTACT)).statusCode).toBe(201);
    expect((await onSecond.call(inquiryContracts.complianceCheck)).statusCode).toBe(422);
  });

  it('keeps one row per route and address, counting every hit once when many arrive together', async () => {
    const count = rateLimitHitCounter(t.database.db);
    const keys = ['POST /test-route|198.51.100.1', 'POST /test-route|198.51.100.9'];
    // Hits arriving while a statement runs go out together in the next one, several per key.
    const hits = await Promise.all(
      Array.from({ length: 80 }, (_, i) => count(keys[i % 2], 60_000).then((h) => ({ key: keys[i % 2], ...h }))),
    );
    for (const key of keys) {
      const mine = hits.filter((h) => h.key === key);
      expect(mine.map((h) => h.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      for (const h of mine) expect(h.ttl).toBeGreaterThan(55_000);
      const rows = await t.database.db.select().from(rateLimits).where(eq(rateLimits.key, key));
      expect(rows).toHaveLength(1);
      expect(rows[0].hits).toBe(40);
    }
  });

  it('starts a new window once the old one has ended, and sweeps ended windows', async () => {
    const count = rateLimitHitCounter(t.database.db);
    const key = 'POST /short-window|198.51.100.2';
    expect((await count(key, 300)).current).toBe(1);
    expect((await count(key, 300)).current).toBe(2);
    const deadline = Date.now() + 5_000;
    let hit = await count(key, 300);
    while (hit.current !== 1 && Date.now() < deadline) hit = await count(key, 300);
    expect(hit.current).toBe(1);

    await t.database.db
      .insert(rateLimits)
      .values({ key: 'POST /ended|198.51.100.3', hits: 9, resetAt: sql`now() - interval '1 second'` });
    expect(await sweepRateLimits(t.database.db)).toBeGreaterThanOrEqual(1);
    const left = await t.database.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(left.map((r) => r.key)).not.toContain('POST /ended|198.51.100.3');
    expect(left.map((r) => r.key)).toContain('POST /test-route|198.51.100.1');
  });

  it('counts batches from two processes while expired windows are swept, without a failed hit', async () => {
    // Two processes' counters and the sweeper lock the same rows; on PostgreSQL a batch that locked
    // them in another order than its neighbour, or a sweep waiting for them, would deadlock.
    const counters = [rateLimitHitCounter(t.database.db), rateLimitHitCounter(second.db)];
    const failures: unknown[] = [];
    let counted = 0;
    let hitting = true;
    const sweeping = [t.database.db, second.db].map(async (db) => {
      while (hitting)
        await sweepRateLimits(db).catch((e: unknown) => {
          failures.push(e);
        });
    });
    // 30 clients, 100 hits each, spread over 20 addresses whose 20 ms windows keep ending.
    await Promise.all(
      Array.from({ length: 30 }, async (_, client) => {
        for (let i = 0; i < 100; i++) {
          await counters[client % 2](`POST /swept|198.51.100.${(client * 31 + i * 17) % 20}`, 20).then(
            () => {
              counted++;
            },
            (e: unknown) => {
              failures.push(e);
            },
          );
        }
      }),
    );
    hitting = false;
    await Promise.all(sweeping);
    expect(failures).toEqual([]);
    expect(counted).toBe(30 * 100);
  });

  it('rejects every hit of a batch whose statement fails, and counts again afterwards', async () => {
    const count = rateLimitHitCounter(t.database.db);
    // A key PostgreSQL cannot store (NUL is not allowed in text) fails the whole statement.
    const results = await Promise.allSettled([
      count('POST /first|198.51.100.4', 60_000),
      count('bad\u0000key', 60_000),
      count('POST /batched|198.51.100.4', 60_000),
    ]);
    expect(results[0].status).toBe('fulfilled');
    expect(results.slice(1).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((await count('POST /batched|198.51.100.4', 60_000)).current).toBe(1);
  });

  it('counts the subordinate search in each process, without writing a row per search', async () => {
    const a = await visitor(t.app, '192.0.2.20');
    const b = await visitor(second, '192.0.2.20');
    for (const agent of [a, a, b, b])
      expect(
        (
          await agent.call(subordinateSearchContract, {
            query: { search: 'verify-501c3', keyword: 'boosters', page: 1 },
          })
        ).statusCode,
      ).toBe(200);
    expect(
      (await a.call(subordinateSearchContract, { query: { search: 'verify-501c3', keyword: 'boosters', page: 1 } }))
        .statusCode,
    ).toBe(429);
    expect(await t.database.db.select().from(rateLimits).where(like(rateLimits.key, '%/search%'))).toEqual([]);
  });
});

describe('the client address behind a trusted proxy (TRUST_PROXY)', () => {
  it('keys on the address the proxy saw, not on what the client wrote into X-Forwarded-For', async () => {
    // The proxy appends the real peer (203.0.113.5) to whatever the client sent.
    for (let i = 0; i < 3; i++)
      expect((await viaProxy(i % 2 ? second : t.app, `10.9.9.${i}, 203.0.113.5`)).statusCode).toBe(201);
    expect((await viaProxy(second, '203.0.113.77, 203.0.113.5')).statusCode).toBe(429);
    expect((await viaProxy(t.app, '203.0.113.6')).statusCode).toBe(201);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const direct = await visitor(t.app, '198.51.100.40');
    for (let i = 0; i < 3; i++) {
      const res = await direct.request('POST', '/contact', CONTACT, { 'x-forwarded-for': `203.0.113.${100 + i}` });
      expect(res.statusCode).toBe(201);
    }
    expect((await direct.request('POST', '/contact', CONTACT, { 'x-forwarded-for': '203.0.113.200' })).statusCode).toBe(
      429,
    );
    const rows = await t.database.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(like(rateLimits.key, 'POST /contact|%'));
    expect(rows.map((r) => r.key).sort()).toEqual([
      'POST /contact|192.0.2.10',
      'POST /contact|192.0.2.11',
      'POST /contact|198.51.100.40',
      'POST /contact|203.0.113.5',
      'POST /contact|203.0.113.6',
    ]);
  });
});
