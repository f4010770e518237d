import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../../validate.ts';
import { HttpError, notFound } from '../../errors.ts';
import { jobRunsQuery } from '../../../shared/schemas/admin-jobs.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { JobBusyError, JobUnavailableError, runView } from '../../jobs/runner.ts';

/**
 * Admin → Jobs (docs/jobs.md "Staff page"). Staff only: 401 for visitors, 403 for everyone else.
 * - `GET /api/admin/jobs`: every job with its title, schedule, last run, next run and recent failures;
 * - `POST /api/admin/jobs/{name}/run`: runs it now in this server and answers
 *   `{ message, run }` with the recorded run (200 whatever the run's result), audited as
 *   `job.run`; 409 when it is running here already or cannot run here (its reason);
 * - `GET /api/admin/jobs/{name}/runs?page=`: its recorded runs, newest first, 25 a page.
 * An unknown job is 404.
 */
export async function adminJobRoutes(app: FastifyInstance) {
  const jobOf = (req: FastifyRequest) => {
    const { name } = req.params as { name?: string };
    const def = name ? app.jobs.find(name) : undefined;
    if (!def) throw notFound('The job');
    return def;
  };
  app.register(async (admin) => {
    admin.get('/api/admin/jobs', { config: { access: 'staff' } }, async () => ({ data: await app.jobs.list() }));
    admin.get('/api/admin/jobs/:name/runs', { config: { access: 'staff' } }, async (req) => {
      const def = jobOf(req);
      return app.jobs.runs(def.name, parseInput(jobRunsQuery, req.query).page);
    });
    admin.post('/api/admin/jobs/:name/run', { config: { access: 'staff' } }, async (req) => {
      const def = jobOf(req);
      let run;
      try {
        run = await app.jobs.runNow(def, { trigger: 'staff', staffUserId: req.currentUser.id });
      } catch (err) {
        if (err instanceof JobBusyError) throw new HttpError(409, `${def.title} is already running.`);
        if (err instanceof JobUnavailableError) throw new HttpError(409, `${def.title} cannot run here: ${err.message}`);
        throw err;
      }
      await recordAudit(app.db, { actorUserId: req.currentUser.id, action: 'job.run', details: { job: def.name, runId: run.id, result: run.result, itemsDone: run.itemsDone }, ip: req.ip });
      const message = run.result === 'ok' ? `${def.title} ran: ${run.itemsDone} done.`
        : run.result === 'timed_out' ? `${def.title} timed out.` : `${def.title} failed: ${run.error}`;
      return { message, run: runView(run) };
    });
  });
}
