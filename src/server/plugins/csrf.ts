import csrfProtection from '@fastify/csrf-protection';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false for the few routes that take no browser session (gateway callbacks); true for a GET
     * that changes state because docs/requirements/calls.md fixes its method (GET /app/payments/paypal/init and /clear).
     */
    csrf?: boolean;
  }
  interface FastifyReply {
    /** The CSRF token for the current session, for the page's meta tag. */
    csrfToken(): string;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF protection (docs/requirements/platform.md §3, §5.2): every state-changing request must carry `X-CSRF-TOKEN`, an
 * HMAC token bound to the session cookie (a new session at sign-in invalidates old tokens). A
 * missing or wrong token fails with FST_CSRF_INVALID_TOKEN, answered 419 by the error plugin.
 */
export const csrfPlugin = fp(async (app: FastifyInstance, opts: { hmacKey: string }) => {
  await app.register(csrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: app.config.cookieSecure ? '__Host-gs_csrf' : 'gs_csrf',
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure: app.config.cookieSecure, signed: false },
    csrfOpts: { hmacKey: opts.hmacKey },
    getUserInfo: (req) => req.sessionToken,
    getToken: (req) => {
      const header = req.headers['x-csrf-token'];
      return (Array.isArray(header) ? header[0] : header) ?? '';
    },
  });

  app.decorateReply('csrfToken', function csrfToken(this: import('fastify').FastifyReply) {
    return this.generateCsrf({ userInfo: this.request.sessionToken } as never);
  });

  app.addHook('onRequest', (req, reply, done) => {
    const csrf = req.routeOptions.config?.csrf;
    if (csrf === false || (SAFE_METHODS.has(req.method) && csrf !== true)) return done();
    app.csrfProtection(req, reply, done);
  });
});
