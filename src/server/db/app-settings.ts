import { eq } from 'drizzle-orm';
import { appSettings } from './schema.ts';
import type { Db } from './client.ts';

/**
 * Returns the setting `key`, creating it with `make()` the first time. Safe when several processes
 * start at once: the first insert wins and everyone reads the winner.
 */
export async function getOrCreateSetting(db: Db, key: string, make: () => string): Promise<string> {
  await db.insert(appSettings).values({ key, value: make() }).onConflictDoNothing();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  return row.value;
}

/** The setting `key`, or null when it was never set. */
export async function getSetting(db: Db, key: string): Promise<string | null> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  return row?.value ?? null;
}

/** Sets `key` to `value` (created or replaced). */
export async function putSetting(db: Db, key: string, value: string): Promise<void> {
  await db.insert(appSettings).values({ key, value }).onConflictDoUpdate({ target: appSettings.key, set: { value } });
}
