/** One key of a batch: how many hits arrived for it, and what they were counted with. */
export interface BatchedKey<P> {
  key: string;
  /** Hits of this key in the batch (≥ 1), in arrival order. */
  hits: number;
  /** The first hit's parameters (every hit of one key is counted with the same ones). */
  params: P;
}

/** What one hit learns: its key's result for the whole batch, and where the hit stood in it. */
export interface BatchedHit<R> {
  result: R;
  /** The hit's place among its key's hits of the batch, from 0, in arrival order. */
  index: number;
  /** How many hits of its key the batch counted. */
  hits: number;
}

interface Waiting<P, R> {
  params: P;
  settle: Array<{ resolve: (hit: BatchedHit<R>) => void; reject: (error: unknown) => void }>;
}

/**
 * Counts single hits through `send`, with at most one statement in flight: a hit arriving when
 * none runs goes out at once, hits arriving meanwhile go out together in the next statement. Under
 * load many requests then cost one statement instead of one each, and every hit is still counted
 * exactly once, in the database, before its request goes on. The per-minute rate limits
 * (plugins/rate-limits.ts) and the abuse limits (modules/limits/take-limit.ts) count through it.
 * @param send counts one batch, its keys sorted (every process locks rows in the same order, so two
 *   batches cannot deadlock); resolves with each key's result; a rejection fails every hit of the batch
 * @returns hit(key, params): resolves once the batch holding this hit is counted
 */
export function batchedHits<P, R>(
  send: (batch: BatchedKey<P>[]) => Promise<Map<string, R>>,
): (key: string, params: P) => Promise<BatchedHit<R>> {
  let waiting = new Map<string, Waiting<P, R>>();
  let inFlight = false;

  const flush = () => {
    const batch = waiting;
    waiting = new Map();
    inFlight = true;
    const keys = [...batch]
      .map(([key, w]) => ({ key, hits: w.settle.length, params: w.params }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    send(keys)
      .then((results) => {
        for (const [key, w] of batch) {
          if (!results.has(key)) throw new Error(`the batch returned no row for ${key}`);
          const result = results.get(key) as R;
          w.settle.forEach((s, index) => s.resolve({ result, index, hits: w.settle.length }));
        }
      })
      .catch((error: unknown) => {
        for (const w of batch.values()) for (const s of w.settle) s.reject(error);
      })
      .finally(() => {
        inFlight = false;
        if (waiting.size) flush();
      });
  };

  return (key, params) =>
    new Promise<BatchedHit<R>>((resolve, reject) => {
      const entry = waiting.get(key) ?? { params, settle: [] };
      entry.settle.push({ resolve, reject });
      waiting.set(key, entry);
      if (!inFlight) flush();
    });
}
