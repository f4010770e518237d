import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * The answers any cache may keep, by kind, each with the Cache-Control it is sent with
 * (docs/security.md "Caching of answers"). A route declares its kind in `config.cache`; no other
 * answer is public.
 */
const PUBLIC_ANSWERS = {
  /** The built client's files under /assets/: each name carries a hash of its content, so a changed file has a new address. */
  'built-asset': 'public, max-age=31536000, immutable',
  /** The build's /robots.txt and older /favicon.svg: one file for everyone, with no data in it, changed only by a new build. */
  'site-file': 'public, max-age=86400',
} as const;

/** A kind of public answer: a key of {@link PUBLIC_ANSWERS}. */
export type PublicAnswer = keyof typeof PUBLIC_ANSWERS;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Declares the route's answers public (plugins/cache-control.ts, docs/security.md "Caching of
     * answers"); without it every answer of the route is `no-store`.
     */
    cache?: PublicAnswer;
  }
}

/** The Cache-Control of every answer that is not public. */
export const NO_STORE = 'no-store';

/** Whether a Cache-Control value already forbids storing the answer (a download's `private, no-store`). */
const forbidsStoring = (value: unknown) =>
  typeof value === 'string' && value.split(',').some((d) => d.trim().toLowerCase() === 'no-store');

/**
 * The Cache-Control an answer leaves with (docs/security.md "Caching of answers"): the declared
 * header for a success (2xx) or not-modified (304) answer of a route declared public that sets no
 * cookie (a cookie is one person's, and a shared cache would hand it to the next); otherwise
 * `no-store`, or the route's own header when it already says `no-store`.
 * @param answer the route's declared kind (if any), the status, the Cache-Control the route set
 *   (if any) and whether the answer sets a cookie
 * @returns the header's value
 */
function cacheControlFor(answer: {
  declared: PublicAnswer | undefined;
  status: number;
  current: unknown;
  setsCookie: boolean;
}): string {
  const success = (answer.status >= 200 && answer.status < 300) || answer.status === 304;
  if (answer.declared && success && !answer.setsCookie) return PUBLIC_ANSWERS[answer.declared];
  return forbidsStoring(answer.current) ? (answer.current as string) : NO_STORE;
}

/**
 * `Cache-Control: no-store` on every answer unless its route declares it public (`config.cache`),
 * so no shared cache, and no browser's disk or back/forward cache, keeps an account's data, a
 * session's CSRF token or a link from the outbox (docs/security.md "Caching of answers"). One
 * onSend hook sets the header last, over whatever a route set: answers of routes registered from a
 * contract or not, files, downloads, redirects, the 404 handler's and the error handler's answers
 * alike. Registered after @fastify/cookie, whose onSend hook writes the Set-Cookie this one reads.
 * Not reached: the router's own refusals (bad percent-encoding, an over-long parameter), which run
 * no hook and are answered `no-store` by `answerFrameworkError` (plugins/errors.ts).
 */
export const cacheControlPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (req, reply, payload, done) => {
      reply.header(
        'cache-control',
        cacheControlFor({
          declared: req.routeOptions.config?.cache,
          status: reply.statusCode,
          current: reply.getHeader('cache-control'),
          setsCookie: reply.hasHeader('set-cookie'),
        }),
      );
      done(null, payload);
    });
  },
  { name: 'cache-control' },
);
