import { ValidationError } from '../errors.ts';
import type { FastifyRequest } from 'fastify';

const CAPTCHA_FIELD = 'g-recaptcha-response';
const CAPTCHA_FAILED = 'The captcha check failed. Please try again.';

/**
 * preHandler for public forms (docs/requirements/platform.md §5.3): when a captcha is configured, the body's
 * `g-recaptcha-response` must verify; otherwise 422 on that field.
 */
export async function requireCaptcha(req: FastifyRequest) {
  const verifier = req.server.providers.captcha;
  if (!verifier.isEnabled) return;
  const body = (req.body ?? {}) as Record<string, unknown>;
  const token = typeof body[CAPTCHA_FIELD] === 'string' ? (body[CAPTCHA_FIELD] as string) : undefined;
  if (!(await verifier.verify(token, req.ip))) throw ValidationError.field(CAPTCHA_FIELD, CAPTCHA_FAILED);
}
