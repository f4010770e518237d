import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, banners, discounts, invoices, users } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { isFirstStart, seedDemo } from '../../src/server/db/seed/seed.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The first start's demo seed is all or nothing (docs/requirements/platform.md §5.10): when it stops midway (here a
 * unique e-mail refused at its last user; in production a kill -9), nothing of it stays, so the
 * next start is still a first start and seeds everything once, with sign-ins it can show.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const total = async (table: typeof accounts | typeof banners | typeof discounts | typeof invoices | typeof users) =>
  (await t.database.db.select({ n: count() }).from(table))[0].n;

describe('seedDemo stopped midway', () => {
  it('leaves none of its rows, and a second run seeds everything once', async () => {
    const db = t.database.db;
    await createUser(db, { email: 'taken@example.com', password: 'Taken-pass-123' });
    await expect(
      seedDemo(db, {
        adminPassword: 'Admin-seed-pass-1',
        demoEmail: 'taken@example.com',
        demoPassword: 'Demo-seed-pass-1',
      }),
    ).rejects.toThrow();
    expect({
      accounts: await total(accounts),
      banners: await total(banners),
      discounts: await total(discounts),
      invoices: await total(invoices),
      users: await total(users),
    }).toEqual({ accounts: 0, banners: 0, discounts: 0, invoices: 0, users: 1 });

    await db.delete(users);
    expect(await isFirstStart(db)).toBe(true);
    const credentials = await seedDemo(db, {
      adminPassword: 'Admin-seed-pass-1',
      demoEmail: 'demo.again@example.com',
      demoPassword: 'Demo-seed-pass-1',
    });
    expect(credentials.demo.email).toBe('demo.again@example.com');
    expect(await total(users)).toBe(2);
    expect(await total(invoices)).toBe(2);
    expect(await total(accounts)).toBe(807);
  });
});
