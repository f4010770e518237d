import type { FastifyInstance } from 'fastify';
import { applicationStartSchema } from '../../../shared/schemas/application.ts';
import { parseInput } from '../../validate.ts';
import { requireCaptcha } from '../../plugins/captcha.ts';
import { perMinute } from '../../plugins/rate-limits.ts';
import { getCompany } from '../content/get-company.ts';
import { startApplication } from './start-application.ts';

/** Joining (SPEC tools 1-2). The wizard's routes follow in the same module. */
export async function applicationRoutes(app: FastifyInstance) {
  app.post('/application/start', {
    config: { rateLimit: perMinute(app.config.rateLimits.formsPerMinute) },
    preHandler: requireCaptcha,
  }, async (req, reply) => {
    const input = parseInput(applicationStartSchema, req.body);
    const company = await getCompany(app.db);
    const { userId, token } = await startApplication(app.db, input, { publicUrl: app.config.publicUrl, companyName: company.name, ip: req.ip });
    // The applicant is signed in so the draft can be resumed from the account area too.
    await app.startSession(req, reply, userId);
    return reply.status(201).send({ token, csrfToken: reply.csrfToken() });
  });
}
