/**
 * Memoises `load(db)` per database for `ttlMs`. For small, rarely changed rows read on every page
 * (company, banners); `invalidate(db)` after an admin change. With several processes, others see
 * the change within `ttlMs`.
 */
export function cachedPerDb<D extends object, T>(ttlMs: number, load: (db: D) => Promise<T>) {
  const cache = new WeakMap<D, { value: Promise<T>; expires: number }>();
  return {
    get(db: D): Promise<T> {
      const hit = cache.get(db);
      if (hit && hit.expires > Date.now()) return hit.value;
      const value = load(db);
      cache.set(db, { value, expires: Date.now() + ttlMs });
      value.catch(() => cache.delete(db));
      return value;
    },
    invalidate(db: D) {
      cache.delete(db);
    },
  };
}
