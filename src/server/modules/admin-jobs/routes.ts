import { adminJobContracts } from '../../../shared/contracts/admin-jobs.ts';
import { fromContract } from '../../contracts.ts';
import { HttpError, notFound } from '../../errors.ts';
import { JobBusyError, JobUnavailableError, runView } from '../../jobs/runner.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

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
  const jobOf = (name: string) => {
    const def = app.jobs.find(name);
    if (!def) throw notFound('The job');
    return def;
  };
  app.register(async (plain) => {
    const admin = plain.withTypeProvider<ZodTypeProvider>();
    admin.route({ ...fromContract(adminJobContracts.list), handler: async () => ({ data: await app.jobs.list() }) });
    admin.route({
      ...fromContract(adminJobContracts.runs),
      handler: async (req) => app.jobs.runs(jobOf(req.params.name).name, req.query.page),
    });
    admin.route({
      ...fromContract(adminJobContracts.run),
      handler: async (req) => {
        const def = jobOf(req.params.name);
        let run;
        try {
          run = await app.jobs.runNow(def, { trigger: 'staff', staffUserId: req.currentUser.id });
        } catch (err) {
          if (err instanceof JobBusyError) throw new HttpError(409, `${def.title} is already running.`);
          if (err instanceof JobUnavailableError)
            throw new HttpError(409, `${def.title} cannot run here: ${err.message}`);
          throw err;
        }
        await recordAudit(app.db, {
          actorUserId: req.currentUser.id,
          action: 'job.run',
          details: { job: def.name, runId: run.id, result: run.result, itemsDone: run.itemsDone },
          ip: req.ip,
        });
        const message =
          run.result === 'ok'
            ? `${def.title} ran: ${run.itemsDone} done.`
            : run.result === 'timed_out'
              ? `${def.title} timed out.`
              : `${def.title} failed: ${run.error}`;
        return { message, run: runView(run) };
      },
    });
  });
}
