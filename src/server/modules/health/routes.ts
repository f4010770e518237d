import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { healthContracts, type Readiness } from '../../../shared/contracts/health.ts';
import { fromContract } from '../../contracts.ts';
import { MIGRATIONS_DIR, type Db } from '../../db/client.ts';
import { newStorageKey, type FileStorage } from '../../providers/storage/storage.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Longest wait for the database's answer before the check fails, in milliseconds. */
const DATABASE_CHECK_MS = 1_000;
/** Longest wait for the storage probe (a bucket is farther away than the database), in milliseconds. */
const STORAGE_CHECK_MS = 3_000;

async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The `when` of every migration committed with this build (migrations/meta/_journal.json). */
function committedMigrations(): { tag: string; when: number }[] {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map((e) => ({ tag: e.tag, when: e.when }));
}

/**
 * The committed migrations the database has not applied (by their journal timestamp, which
 * drizzle stores as `created_at`), e.g. ['0020_request_ids']; empty when it is up to date.
 * @param migrationsTable the schema-qualified drizzle migrations table (Database.migrationsTable)
 * @param committed the build's migrations (committedMigrations(), read once)
 */
async function missingMigrations(
  db: Db,
  migrationsTable: string,
  committed: { tag: string; when: number }[],
): Promise<string[]> {
  const result = await db.execute(sql.raw(`SELECT created_at FROM ${migrationsTable}`));
  const applied = new Set((result.rows as { created_at: string | number }[]).map((r) => Number(r.created_at)));
  return committed.filter((m) => !applied.has(m.when)).map((m) => m.tag);
}

/** Writes and deletes a small probe object, proving uploads can be stored now. */
async function probeStorage(storage: FileStorage): Promise<void> {
  const key = newStorageKey('health_probe');
  await storage.put(key, Readable.from([Buffer.from('ok')]));
  await storage.delete(key);
}

/**
 * Liveness and readiness for load balancers and orchestrators (docs/deploy.md "Health"):
 * - GET /livez: 200 `{ status: 'ok' }` while this process answers, touching nothing else, so an
 *   orchestrator restarts it only when it is stuck, not when the database is down.
 * - GET /readyz: 200 when the database answers within 1 s, every committed migration is applied
 *   (the drizzle migrations table against migrations/meta/_journal.json) and the storage takes a
 *   probe write and delete; otherwise 503 naming the failed checks ({@link Readiness}).
 * - GET /healthz: the same as /readyz, for balancers configured before it existed.
 * While the server is closing Fastify itself answers 503. Never cached (`no-store`, as every answer
 * not declared public: plugins/cache-control.ts); logged only on failure.
 */
export async function healthRoutes(app: FastifyInstance, opts: { migrationsTable: string }) {
  // The journal belongs to this build: read once, not on every probe of a balancer.
  const committed = committedMigrations();
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...fromContract(healthContracts.live),
    logLevel: 'warn',
    handler: async () => ({ status: 'ok' as const }),
  });

  const readiness = async (reply: FastifyReply) => {
    const checks: Readiness['checks'] = { database: 'ok', migrations: 'ok', storage: 'ok' };
    const storage = probeStorage(app.providers.storage).then(
      () => 'ok' as const,
      (err: unknown) => {
        app.log.warn({ err }, 'readiness: storage is not writable');
        return 'failed' as const;
      },
    );
    try {
      await within(DATABASE_CHECK_MS, 'the database', app.db.execute(sql`SELECT 1`));
      try {
        const missing = await within(
          DATABASE_CHECK_MS,
          'the migrations table',
          missingMigrations(app.db, opts.migrationsTable, committed),
        );
        if (missing.length) {
          app.log.warn({ missing }, 'readiness: migrations not applied');
          checks.migrations = 'failed';
        }
      } catch (err) {
        app.log.warn({ err }, 'readiness: migrations could not be read');
        checks.migrations = 'failed';
      }
    } catch (err) {
      app.log.warn({ err }, 'readiness: the database does not answer');
      checks.database = 'failed';
      checks.migrations = 'skipped';
    }
    checks.storage = await within(STORAGE_CHECK_MS, 'the storage', storage).catch(() => 'failed' as const);
    const failed = Object.entries(checks)
      .filter(([, v]) => v === 'failed')
      .map(([k]) => k);
    const body: Readiness = failed.length ? { status: 'unavailable', checks, failed } : { status: 'ok', checks };
    return reply.code(failed.length ? 503 : 200).send(body);
  };
  api.route({
    ...fromContract(healthContracts.ready),
    logLevel: 'warn',
    handler: async (_req, reply) => readiness(reply),
  });
  api.route({
    ...fromContract(healthContracts.health),
    logLevel: 'warn',
    handler: async (_req, reply) => readiness(reply),
  });
}
