import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';

/** The calls Drizzle's PGlite session makes on its client (query, exec, transaction). */
interface PgliteQueryClient {
  query: PGlite['query'];
  exec: PGlite['exec'];
  transaction<T>(fn: (tx: PgliteQueryClient) => Promise<T>): Promise<T>;
}

/** A message to the PGlite thread (src/server/db/pglite-worker.ts). */
export type PgliteRequest =
  | { id: number; kind: 'query'; text: string; params?: unknown[]; options?: WireQueryOptions; txId?: number }
  | { id: number; kind: 'exec'; text: string; options?: WireQueryOptions; txId?: number }
  | { id: number; kind: 'begin' | 'commit' | 'rollback'; txId: number }
  | { id: number; kind: 'dump' }
  | { id: number; kind: 'close' };

/** A request before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Its answer; id 0 is the start-up report. */
export type PgliteResponse =
  { id: number; result: unknown; error?: undefined } | { id: number; error: SerializedError };

/** An error as it crosses threads: name, message and PostgreSQL's fields (code, detail…). */
export interface SerializedError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

/** Query options without functions (which cannot cross threads). */
type WireQueryOptions = Omit<QueryOptions, 'parsers' | 'serializers' | 'onNotice' | 'blob'>;

/**
 * Types Drizzle keeps as text (its PGlite session sends these parsers, all `(value) => value`, with
 * every query): timestamp, timestamptz, interval, date, and the arrays of numeric, timestamp,
 * timestamptz, interval and date. The thread installs them once; queries are sent without them.
 */
export const DRIZZLE_TEXT_TYPE_IDS: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
const TEXT_TYPE_KEYS = new Set(DRIZZLE_TEXT_TYPE_IDS.map(String));

/** An error from the PGlite thread, with PostgreSQL's fields (code, detail, constraint…) as own properties. */
class PgliteThreadError extends Error {
  constructor(serialized: SerializedError) {
    super(serialized.message);
    Object.assign(this, serialized.fields);
    this.name = serialized.name;
  }
}

/**
 * Drops the `parsers` Drizzle sends with every query: the thread has the same ones installed.
 * @throws Error for any other parser or serializer, which could not run in the other thread
 */
function wireOptions(options: QueryOptions | undefined): WireQueryOptions | undefined {
  if (!options) return undefined;
  const { parsers, serializers, ...rest } = options;
  if (serializers || (parsers && !Object.keys(parsers).every((k) => TEXT_TYPE_KEYS.has(k)))) {
    throw new Error('the PGlite thread only knows the text parsers Drizzle sends');
  }
  return rest as WireQueryOptions;
}

export interface PgliteThread extends PgliteQueryClient {
  /**
   * A consistent copy of the whole data directory while serving (docs/operations.md "Backup and
   * restore"): PGlite's dumpDataDir after a CHECKPOINT, taken between two statements.
   * @returns the data directory as a gzip-compressed tar, PGlite's `loadDataDir` format
   */
  dump(): Promise<Uint8Array>;
  /** Closes PGlite (its files are complete afterwards) and ends the thread. */
  close(): Promise<void>;
}

/**
 * Starts PGlite (with pg_trgm) on `dataDir` in a worker thread of its own and returns a client for
 * Drizzle's PGlite driver that sends it every statement (docs/requirements/platform.md §6: the server's thread and
 * PostgreSQL then run on two cores instead of taking turns). Transactions hold PGlite's own lock
 * in that thread from BEGIN to COMMIT or ROLLBACK, so other statements wait as they would in one
 * thread. The thread keeps the process alive only while a statement is under way.
 * @param dataDir a directory (locked by the caller) or 'memory://'
 * @param opts.sharedBuffersMb PostgreSQL's shared_buffers in MB; PGlite's default (128) when absent
 * @param opts.snapshot a data directory from {@link PgliteThread.dump} (gzip tar) that a 'memory://'
 *   database starts as, instead of an empty cluster (the tests start from a migrated one)
 * @throws what PGlite throws while starting (e.g. a damaged data directory)
 */
export async function startPgliteThread(
  dataDir: string,
  opts: { sharedBuffersMb?: number; snapshot?: Uint8Array } = {},
): Promise<PgliteThread> {
  // The worker is TypeScript like the rest of the server. Node 22.18 and later strip its types
  // themselves, so the thread's isolate needs no loader (tsx took about 25 MB there,
  // docs/operations.md "Memory"); on an older Node tsx registers its loader in the thread first (a
  // worker does not take `--import` from its options, and the tests run without it).
  const workerUrl = JSON.stringify(new URL('./pglite-worker.ts', import.meta.url).href);
  const bootstrap = (process.features as { typescript?: string | false }).typescript
    ? `import(${workerUrl})`
    : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${workerUrl}); })`;
  const worker = new Worker(bootstrap, {
    eval: true,
    workerData: { dataDir, sharedBuffersMb: opts.sharedBuffersMb, snapshot: opts.snapshot },
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let nextTxId = 1;
  let failure: Error | null = null;

  const settleAll = (error: Error) => {
    failure = error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
    worker.unref();
  };
  const started = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: PgliteResponse) => {
      if (message.id === 0) {
        if (message.error) reject(new PgliteThreadError(message.error));
        else resolve();
        return;
      }
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      if (pending.size === 0) worker.unref();
      if (message.error) call.reject(new PgliteThreadError(message.error));
      else call.resolve(message.result);
    });
    worker.on('error', (err) => {
      reject(err);
      settleAll(err);
    });
    worker.on('exit', (code) => {
      const err = new Error(`the PGlite thread ended (exit code ${code})`);
      reject(err);
      settleAll(err);
    });
  });
  await started.catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });
  worker.unref();

  const call = <T>(request: Unnumbered<PgliteRequest>): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (pending.size === 1) worker.ref();
      worker.postMessage({ ...request, id });
    });
  };

  const statements = (txId?: number) => ({
    query: (async (text: string, params?: unknown[], options?: QueryOptions) =>
      call({ kind: 'query', text, params, options: wireOptions(options), txId })) as PgliteQueryClient['query'],
    exec: (async (text: string, options?: QueryOptions) =>
      call<Results[]>({ kind: 'exec', text, options: wireOptions(options), txId })) as PgliteQueryClient['exec'],
  });

  return {
    ...statements(),
    async transaction<T>(fn: (tx: PgliteQueryClient) => Promise<T>): Promise<T> {
      const txId = nextTxId++;
      await call({ kind: 'begin', txId });
      let result: T;
      try {
        result = await fn({
          ...statements(txId),
          transaction: () => Promise.reject(new Error('nested PGlite transactions are savepoints in Drizzle')),
        });
      } catch (err) {
        await call({ kind: 'rollback', txId }).catch(() => undefined);
        throw err;
      }
      await call({ kind: 'commit', txId });
      return result;
    },
    dump: () => call<Uint8Array>({ kind: 'dump' }),
    async close() {
      if (!failure) await call({ kind: 'close' });
      await worker.terminate();
    },
  };
}
