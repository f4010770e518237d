import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers Helmet's middleware sets on a response, by lower-case name. */
type HeaderSet = Record<string, string>;

/**
 * Runs Helmet's middleware once against a response that only records what is done to it, and
 * returns the headers it set. Every directive of the product's options is a fixed string, so the
 * headers are the same for every request.
 * @throws when Helmet rejects the options, when a directive is a function of the request (the
 *   recorded headers would not hold for other requests), or when the middleware fails
 */
function recordHelmetHeaders(opts: HelmetOptions): HeaderSet {
  const middleware = helmet(opts);
  const headers: HeaderSet = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      return recorder;
    },
    removeHeader(name: string) {
      Reflect.deleteProperty(headers, name.toLowerCase());
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  };
  const request = new Proxy(
    {},
    {
      get() {
        throw new Error('security headers: a Helmet option reads the request, so its headers cannot be computed once');
      },
    },
  );
  let done = false;
  let failure: unknown;
  middleware(request as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    done = true;
    failure = err;
  });
  if (failure) throw failure;
  if (!done) throw new Error('security headers: Helmet did not finish at once');
  return headers;
}

/**
 * Security headers on every response (docs/security.md: the CSP, HSTS on https): Helmet computes
 * them from `opts` once, at start, and an onRequest hook puts them on each reply. Applying Helmet's
 * middleware per request set each header on the raw response through Node's validation, about 3 %
 * of the server's CPU per form submit, and @fastify/helmet, before that, also parsed the whole CSP
 * every time (docs/benchmarks.md). No route sets options of its own.
 * @param opts Helmet's options, as for helmet(opts)
 * @throws at registration when Helmet rejects the options or one of them depends on the request
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: HelmetOptions) => {
    const headers = recordHelmetHeaders(opts);
    app.addHook('onRequest', (_req, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
