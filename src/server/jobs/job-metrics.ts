import { sql } from 'drizzle-orm';
import { registerMetricsCollector } from '../plugins/metrics.ts';
import type { FastifyInstance } from 'fastify';

/**
 * Adds `goodstanding_job_runs` to /metrics (docs/deploy.md "Observability", docs/jobs.md
 * "Records"): the runs recorded in job_runs in the last 24 hours, by job and result (ok, failed,
 * timed_out, running), counted at scrape time with the (job_name, started_at) index. Quiet outbox
 * rounds write no row and are not counted.
 */
export function registerJobMetrics(app: FastifyInstance): void {
  registerMetricsCollector(app, {
    name: 'goodstanding_job_runs',
    help: 'Job runs recorded in the last 24 hours, by job and result.',
    labelNames: ['job', 'result'],
    async collect() {
      const result = await app.db.execute(sql`SELECT job_name, result, count(*)::int AS n FROM job_runs
        WHERE started_at > now() - interval '24 hours' GROUP BY job_name, result`);
      return (result.rows as { job_name: string; result: string; n: number }[]).map((r) => ({
        labels: { job: r.job_name, result: r.result },
        value: Number(r.n),
      }));
    },
  });
}
