/**
 * The PGlite thread (src/server/db/pglite-thread.ts starts it): PostgreSQL in WebAssembly runs
 * here, beside the server's own thread, so that HTTP work and SQL work use two cores. Answers the
 * messages of {@link PgliteRequest} in order of arrival; PGlite itself queues statements behind
 * an open transaction, as it does in one thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { must } from '../../shared/must.ts';
import { collectStartupGarbage } from '../memory.ts';
import {
  DRIZZLE_TEXT_TYPE_IDS,
  type PgliteRequest,
  type PgliteResponse,
  type SerializedError,
} from './pglite-thread.ts';

const port = must(parentPort, 'a parent thread (this file runs as a worker)');
const { dataDir, sharedBuffersMb, snapshot } = workerData as {
  dataDir: string;
  sharedBuffersMb?: number;
  snapshot?: Uint8Array;
};

/** Everything PostgreSQL said about an error (code, detail, constraint…), as plain data. */
function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function' || (typeof value === 'object' && value !== null)) continue;
    fields[key] = value;
  }
  return { name: err.name, message: err.message, fields };
}

const reply = (message: PgliteResponse) => port.postMessage(message);

interface OpenTransaction {
  tx: Transaction;
  finish: (commit: boolean) => void;
  settled: Promise<void>;
}

async function main() {
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir, {
      extensions: { pg_trgm },
      ...(snapshot ? { loadDataDir: new Blob([snapshot as Uint8Array<ArrayBuffer>]) } : {}),
      ...(sharedBuffersMb ? { postgresqlconf: [`shared_buffers = ${sharedBuffersMb}MB`] } : {}),
    });
    for (const type of DRIZZLE_TEXT_TYPE_IDS) pg.parsers[type] = (value: string) => value;
    // Loading PostgreSQL's WebAssembly and its files leaves garbage this thread may not collect for a while.
    collectStartupGarbage();
  } catch (err) {
    reply({ id: 0, error: serializeError(err) });
    return;
  }
  const transactions = new Map<number, OpenTransaction>();

  const target = (txId: number | undefined) => {
    if (txId === undefined) return pg;
    const open = transactions.get(txId);
    if (!open) throw new Error(`transaction ${txId} is not open`);
    return open.tx;
  };

  port.on('message', (request: PgliteRequest) => {
    const { id } = request;
    const run = async (): Promise<unknown> => {
      switch (request.kind) {
        case 'query':
          return target(request.txId).query(request.text, request.params, request.options as QueryOptions);
        case 'exec':
          return target(request.txId).exec(request.text, request.options as QueryOptions);
        case 'begin': {
          // PGlite runs BEGIN, then holds its transaction lock until `finish` settles the callback.
          let begun!: () => void;
          const ready = new Promise<void>((resolve) => (begun = resolve));
          let finish!: (commit: boolean) => void;
          const settled = pg
            .transaction(
              (tx) =>
                new Promise<void>((resolve, reject) => {
                  finish = (commit) => (commit ? resolve() : reject(new RollbackRequested()));
                  transactions.set(request.txId, { tx, finish, settled });
                  begun();
                }),
            )
            .catch((err: unknown) => {
              if (!(err instanceof RollbackRequested)) throw err;
            });
          // Answered once BEGIN ran, or with BEGIN's error (settled rejects before the callback runs).
          await Promise.race([ready, settled]);
          return null;
        }
        case 'commit':
        case 'rollback': {
          const open = transactions.get(request.txId);
          if (!open) throw new Error(`transaction ${request.txId} is not open`);
          transactions.delete(request.txId);
          open.finish(request.kind === 'commit');
          await open.settled;
          return null;
        }
        case 'dump': {
          // A checkpoint first, so a restore starts without replaying the write-ahead log; the dump
          // itself runs between statements (PGlite's query lock), crash-consistent like a snapshot.
          await pg.query('CHECKPOINT');
          const tar = await pg.dumpDataDir('gzip');
          return new Uint8Array(await tar.arrayBuffer());
        }
        case 'close':
          await pg.close();
          return null;
      }
    };
    run().then(
      (result) => reply({ id, result }),
      (err: unknown) => reply({ id, error: serializeError(err) }),
    );
  });
  reply({ id: 0, result: 'ready' });
}

/** Ends a transaction's callback so that PGlite rolls it back. */
class RollbackRequested extends Error {}

void main();
