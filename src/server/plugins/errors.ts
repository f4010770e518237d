import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError, ValidationError } from '../errors.ts';

/**
 * Maps every error to the JSON shapes of DESIGN §3: 422 validation, 419 CSRF, 429 rate limit,
 * 4xx with a safe message, and a 5xx that never carries internal text.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ValidationError) {
      return reply.status(422).send({ message: err.message, errors: err.errors, ...(err.page ? { page: err.page } : {}) });
    }
    if (err instanceof HttpError) {
      return reply.status(err.statusCode).send({ message: err.message });
    }
    if (err.code === 'FST_CSRF_INVALID_TOKEN' || err.code === 'FST_CSRF_MISSING_SECRET') {
      return reply.status(419).send({ message: 'Your session has expired. Please reload the page and try again.' });
    }
    if (err.statusCode === 429) {
      return reply.status(429).send({ message: err.message?.startsWith('Too many requests') ? err.message : 'Too many requests. Please wait a minute and try again.' });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      return reply.status(413).send({ message: 'The request is too large.' });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
      return reply.status(415).send({ message: 'Unsupported content type.' });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ message: err.statusCode === 400 ? 'The request could not be read.' : 'The request was refused.' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
});

/**
 * Fastify's `frameworkErrors` option: answers the requests its router refuses before any route or
 * error handler runs (an address with broken percent-encoding, 400; a path parameter over the
 * router's length limit, 414) in the same `{ message }` shape, instead of Fastify's default body,
 * which echoes the address and names Fastify's error code (DESIGN §3, §5.9).
 */
export function answerFrameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode ?? 500;
  const message = status === 414 ? 'The address is too long.' : status < 500 ? 'The request could not be read.' : 'Something went wrong on our side. Please try again.';
  void reply.status(status).send({ message });
}
