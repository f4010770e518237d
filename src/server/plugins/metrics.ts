import { timingSafeEqual, createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/client.ts';
import type { FastifyInstance } from 'fastify';

/** One sample of a collected gauge: its labels and value. */
interface MetricSample {
  labels?: Record<string, string>;
  value: number;
}

/** A gauge whose values are read at each scrape of /metrics (see {@link registerMetricsCollector}). */
export interface MetricsCollector {
  /** Prometheus name, e.g. `goodstanding_job_runs` (snake_case, with the `goodstanding_` prefix). */
  name: string;
  help: string;
  labelNames?: string[];
  /** Reads the current values; a failure leaves the gauge empty for this scrape and is logged. */
  collect(): Promise<MetricSample[]> | MetricSample[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry (docs/deploy.md "Observability"). */
    metrics: Registry;
  }
}

/**
 * Adds a gauge to /metrics whose samples `collector.collect()` reads at each scrape
 * (docs/deploy.md "Observability"): the way a module wires its numbers in without touching this
 * plugin, e.g. job runs by result once the jobs record them:
 * `registerMetricsCollector(app, { name: 'goodstanding_job_runs', help: '…', labelNames: ['job', 'result'], collect: () => … })`.
 * Call it after the metrics plugin is registered (buildApp), before or after `ready()`.
 * @throws Error when a metric of that name is already registered
 */
export function registerMetricsCollector(app: FastifyInstance, collector: MetricsCollector): void {
  const log = app.log;
  new Gauge({
    name: collector.name,
    help: collector.help,
    labelNames: collector.labelNames ?? [],
    registers: [app.metrics],
    async collect() {
      this.reset();
      try {
        for (const s of await collector.collect()) {
          if (s.labels) this.set(s.labels, s.value);
          else this.set(s.value);
        }
      } catch (err) {
        log.warn({ err, metric: collector.name }, 'metrics collector failed');
      }
    },
  });
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Prometheus metrics (docs/deploy.md "Observability"), GET /metrics in the text format, only when
 * METRICS_TOKEN is set (otherwise the address does not exist, 404, and nothing is measured) and only with
 * `Authorization: Bearer <METRICS_TOKEN>` (otherwise 401). Exposes:
 * - `goodstanding_http_request_duration_seconds` histogram by method, route pattern and status;
 * - `goodstanding_payments` payments by status (outcome), counted in the table at scrape;
 * - `goodstanding_mail_outbox_pending` and `goodstanding_mail_outbox_oldest_pending_age_seconds`;
 * - `goodstanding_db_pool_connections` by state (total, idle, waiting; PGlite: total 1);
 * - Node's process metrics (`goodstanding_process_*`, `goodstanding_nodejs_*`);
 * - whatever {@link registerMetricsCollector} adds.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { database: Database }) => {
  const registry = new Registry();
  app.decorate('metrics', registry);
  const token = app.config.metricsToken;
  // Without a token nothing reads the numbers: collectors may still register, nothing is measured.
  if (!token) return;
  collectDefaultMetrics({ register: registry, prefix: 'goodstanding_' });

  const duration = new Histogram({
    name: 'goodstanding_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by route pattern, method and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    // The pattern (/api/accounts/:id/public), never the address: one series per route, no secrets.
    duration.observe(
      { method: req.method, route: req.routeOptions?.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  registerMetricsCollector(app, {
    name: 'goodstanding_payments',
    help: 'Payments by status (outcome), counted in the payments table at scrape time.',
    labelNames: ['status'],
    async collect() {
      const result = await app.db.execute(sql`SELECT status, count(*)::int AS n FROM payments GROUP BY status`);
      return (result.rows as { status: string; n: number }[]).map((r) => ({
        labels: { status: r.status },
        value: Number(r.n),
      }));
    },
  });

  // One query for both outbox numbers, through the (status, next_attempt_at) index.
  let outbox: Promise<{ pending: number; age: number }> | undefined;
  const readOutbox = async () => {
    const result = await app.db.execute(sql`
      SELECT count(*)::int AS pending, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
      FROM mail_outbox WHERE status = 'pending'`);
    const row = result.rows[0] as { pending: number; age: number };
    return { pending: Number(row.pending), age: Number(row.age) };
  };
  const outboxOnce = () => (outbox ??= readOutbox().finally(() => setImmediate(() => (outbox = undefined))));
  registerMetricsCollector(app, {
    name: 'goodstanding_mail_outbox_pending',
    help: 'Mails waiting in the outbox to be sent.',
    collect: async () => [{ value: (await outboxOnce()).pending }],
  });
  registerMetricsCollector(app, {
    name: 'goodstanding_mail_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest mail still waiting to be sent, in seconds (0 when none waits).',
    collect: async () => [{ value: (await outboxOnce()).age }],
  });

  registerMetricsCollector(app, {
    name: 'goodstanding_db_pool_connections',
    help: 'Database connections of this process by state: total open, idle, and queries waiting for one (PGlite: one connection).',
    labelNames: ['state'],
    collect() {
      const stats = opts.database.poolStats?.();
      if (!stats) return [{ labels: { state: 'total' }, value: 1 }];
      return [
        { labels: { state: 'total' }, value: stats.total },
        { labels: { state: 'idle' }, value: stats.idle },
        { labels: { state: 'waiting' }, value: stats.waiting },
      ];
    },
  });

  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', { logLevel: 'warn' }, async (req, reply) => {
    const given = req.headers.authorization;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ message: 'A valid bearer token is required.' });
    }
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).send(text);
  });
});
