import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import proxyAddr from '@fastify/proxy-addr';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** What code deep inside a request may need to know about it without being handed it. */
export interface RequestContext {
  /** The request's id: Fastify's `req.id`, the `reqId` of its log lines and its X-Request-Id. */
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * The context of the request whose handling is running now (docs/deploy.md "Observability"), or
 * undefined outside a request (background jobs, commands). Mail enqueued during a request takes
 * its id from here.
 */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/** An X-Request-Id a proxy may hand us: 1-128 of A-Z a-z 0-9 . _ : - */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId` (docs/deploy.md "Observability"): the `X-Request-Id` header when the
 * request's direct peer is a proxy TRUST_PROXY names and the value is 1-128 characters of
 * [A-Za-z0-9._:-]; otherwise a new random UUID, so a client cannot plant ids in our logs.
 * @param trustProxy config.trustProxy (false trusts no one)
 * @returns (raw request) => request id
 */
export function requestIdGenerator(trustProxy: string | false): (req: IncomingMessage) => string {
  const trusted = trustProxy ? proxyAddr.compile(trustProxy.split(',').map((s) => s.trim())) : undefined;
  return (req) => {
    const sent = req.headers['x-request-id'];
    const peer = req.socket?.remoteAddress;
    if (trusted && typeof sent === 'string' && REQUEST_ID.test(sent) && peer && trusted(peer, 0)) return sent;
    return randomUUID();
  };
}

/**
 * Runs each request inside its {@link RequestContext} and answers its id in `X-Request-Id`
 * (docs/deploy.md "Observability"). Register first, before any hook that may log or enqueue mail.
 */
export function requestContextHooks(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    // `done` runs the rest of the request (hooks, handler) synchronously inside the store.
    storage.run({ requestId: req.id }, done);
  });
  // A body is read in the socket's own async context: enter the request's again once it is parsed.
  app.addHook('preValidation', (req, _reply, done) => {
    storage.run({ requestId: req.id }, done);
  });
}

/**
 * pino's `mixin`: adds `reqId` to a line logged during a request through a logger that does not
 * carry it already (app.log rather than req.log), so every line of a request names it.
 */
export function requestIdMixin(_merge: object, _level: number, logger?: unknown): Record<string, string> {
  const ctx = storage.getStore();
  if (!ctx) return {};
  const bound = (logger as Record<symbol, unknown> | undefined)?.[pino.symbols.chindingsSym];
  if (typeof bound === 'string' && bound.includes('"reqId"')) return {};
  return { reqId: ctx.requestId };
}
