import fp from 'fastify-plugin';
import { HttpError, TooManyRequests, ValidationError } from '../errors.ts';
import { NO_STORE } from './cache-control.ts';
import type { ErrorReporter } from '../error-reporting.ts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Seconds a client is asked to wait (Retry-After) when the database is unavailable (docs/deploy.md "Health"). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL error codes that mean "the database cannot serve this now", not "this request is
 * wrong": statement timeout / cancel (57014), shutdown (57P01 admin, 57P02 crash, 57P03 cannot
 * connect now), too many connections (53300), and every connection exception (class 08).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300']);
/** Node's socket errors on the way to the database server. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's and pg-pool's messages for lost or refused connections; the PGlite thread's when it has ended. */
const UNAVAILABLE_MESSAGES = [
  /^timeout exceeded when trying to connect/i,
  /^Connection terminated/i,
  /^Client has encountered a connection error/i,
  /^Cannot use a pool after calling end on the pool/i,
  /^the PGlite thread ended/i,
];

/**
 * Whether `err` (or an error it wraps: Drizzle's query error, an AggregateError of a refused
 * connection to each address) says the database is unreachable, refusing, shutting down or took
 * too long (docs/deploy.md "Health"), so the request may succeed if tried again shortly.
 */
function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (
    typeof e.code === 'string' &&
    (UNAVAILABLE_SQLSTATES.has(e.code) || e.code.startsWith('08') || UNAVAILABLE_SOCKET_CODES.has(e.code))
  )
    return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** A browser asking for a page (not the client's Ajax calls, not /api): gets HTML, not JSON. */
function wantsHtml(req: FastifyRequest): boolean {
  return (
    req.method === 'GET' &&
    String(req.headers.accept ?? '').includes('text/html') &&
    !req.url.startsWith('/api/') &&
    req.headers['x-requested-with'] !== 'XMLHttpRequest'
  );
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A small self-contained error page (no script, no stylesheet, since the server may be failing to
 * serve them): the title, what to do, and the request id to quote to support.
 */
function errorPage(title: string, message: string, requestId: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f2f2f2;padding:.1rem .3rem}</style></head><body>' +
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` +
    `<p>If this keeps happening, contact us and quote this reference: <code>${escapeHtml(requestId)}</code></p>` +
    '</body></html>'
  );
}

/**
 * Maps every error to the JSON shapes of docs/requirements/platform.md §3: 422 validation, 419 CSRF, 429 rate limit,
 * 4xx with a safe message, and a 5xx that never carries internal text. A database that refuses,
 * has gone away or timed out answers 503 with `Retry-After: 5`, never 500 (docs/deploy.md
 * "Health"); a 5xx carries the request id (`requestId` in JSON; an HTML page with it for a
 * browser's page request, docs/deploy.md "Observability"), and an unexpected one (500) is sent to
 * `reporter` (Sentry when SENTRY_DSN is set).
 */
export const errorsPlugin = fp(async (app: FastifyInstance, opts: { reporter?: ErrorReporter }) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ValidationError) {
      return reply
        .status(422)
        .send({ message: err.message, errors: err.errors, ...(err.page ? { page: err.page } : {}) });
    }
    if (err instanceof TooManyRequests) reply.header('retry-after', String(err.retryAfterSeconds));
    if (err instanceof HttpError) {
      return reply.status(err.statusCode).send({ ...err.extra, message: err.message });
    }
    if (err.code === 'FST_CSRF_INVALID_TOKEN' || err.code === 'FST_CSRF_MISSING_SECRET') {
      return reply.status(419).send({ message: 'Your session has expired. Please reload the page and try again.' });
    }
    if (err.statusCode === 429) {
      return reply.status(429).send({
        message: err.message?.startsWith('Too many requests')
          ? err.message
          : 'Too many requests. Please wait a minute and try again.',
      });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      return reply.status(413).send({ message: 'The request is too large.' });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
      return reply.status(415).send({ message: 'Unsupported content type.' });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply
        .status(err.statusCode)
        .send({ message: err.statusCode === 400 ? 'The request could not be read.' : 'The request was refused.' });
    }
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      const message = 'The service is briefly unavailable. Please try again in a few seconds.';
      reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      if (wantsHtml(req))
        return reply.type('text/html; charset=utf-8').send(errorPage('Temporarily unavailable', message, req.id));
      return reply.send({ message, requestId: req.id });
    }
    req.log.error({ err }, 'unhandled error');
    opts.reporter?.report(err, req);
    const message = 'Something went wrong on our side. Please try again.';
    reply.status(500);
    if (wantsHtml(req))
      return reply.type('text/html; charset=utf-8').send(errorPage('Something went wrong', message, req.id));
    return reply.send({ message, requestId: req.id });
  });
});

/**
 * Fastify's `frameworkErrors` option: answers the requests its router refuses before any route or
 * error handler runs (an address with broken percent-encoding, 400; a path parameter over the
 * router's length limit, 414) in the same `{ message }` shape, instead of Fastify's default body,
 * which echoes the address and names Fastify's error code (docs/requirements/platform.md §3, §5.9).
 * These answers run no hook, so this sets their `Cache-Control: no-store` itself (docs/security.md
 * "Caching of answers").
 */
export function answerFrameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode ?? 500;
  const message =
    status === 414
      ? 'The address is too long.'
      : status < 500
        ? 'The request could not be read.'
        : 'Something went wrong on our side. Please try again.';
  void reply.status(status).header('cache-control', NO_STORE).send({ message });
}
