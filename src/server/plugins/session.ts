import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { sessions, users } from '../db/schema.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The signed-in user as the rest of the server sees it. */
export interface SessionUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  accountId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Raw session cookie value ('a.' visitor or 'u.' signed-in); the CSRF token is bound to it. */
    sessionToken: string;
    user: SessionUser | null;
  }
}

/** Cookie holding the session id; `__Host-` prefixed when cookies are Secure (docs/requirements/platform.md §5.1). */
export const sessionCookieName = (secure: boolean) => (secure ? '__Host-gs_session' : 'gs_session');

/** sha256 hex of a session cookie value: what the database keeps instead of the value. */
export const hashId = (raw: string) => createHash('sha256').update(raw).digest('hex');
const newToken = (prefix: 'a' | 'u') => `${prefix}.${randomBytes(16).toString('base64url')}`;

/**
 * Database sessions (docs/requirements/platform.md §5.1): visitors carry an 'a.' cookie with no row; signing in issues a
 * fresh 'u.' id whose sha256 is stored with idle and absolute expiry. Decorates request.user. A
 * visitor's cookie is set on any answer but a public one (`config.cache`, docs/security.md "Caching of answers").
 */
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  const { config, db } = app;
  const cookieName = sessionCookieName(config.cookieSecure);
  const cookieOpts = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.cookieSecure };
  const idleMs = config.sessionIdleMinutes * 60_000;

  app.decorateRequest('sessionToken', '');
  app.decorateRequest('user', null);

  app.addHook('onRequest', async (req, reply) => {
    const raw = req.cookies[cookieName];
    if (raw && /^[au]\.[A-Za-z0-9_-]{22}$/.test(raw)) {
      req.sessionToken = raw;
      if (raw.startsWith('u.')) {
        const now = new Date();
        const [row] = await db
          .select({
            lastSeenAt: sessions.lastSeenAt,
            id: users.id,
            email: users.email,
            firstName: users.firstName,
            lastName: users.lastName,
            isAdmin: users.isAdmin,
            accountId: users.accountId,
          })
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(and(eq(sessions.idHash, hashId(raw)), gt(sessions.expiresAt, now)))
          .limit(1);
        if (row && now.getTime() - row.lastSeenAt.getTime() < idleMs) {
          const { lastSeenAt, ...user } = row;
          req.user = user;
          // Touch at most once a minute so reads stay reads.
          if (now.getTime() - lastSeenAt.getTime() > 60_000) {
            await db
              .update(sessions)
              .set({ lastSeenAt: now })
              .where(eq(sessions.idHash, hashId(raw)));
          }
        } else {
          req.sessionToken = '';
        }
      }
    }
    if (!req.sessionToken) {
      req.sessionToken = newToken('a');
      // A public answer is the same for everyone and may be kept by a shared cache, so it starts no
      // session: its cookie would go to whoever the cache answers next (plugins/cache-control.ts).
      if (!req.routeOptions.config?.cache) reply.setCookie(cookieName, req.sessionToken, cookieOpts);
    }
  });

  app.decorate('startSession', async (req: FastifyRequest, reply: FastifyReply, userId: number) => {
    if (req.sessionToken.startsWith('u.'))
      await db.delete(sessions).where(eq(sessions.idHash, hashId(req.sessionToken)));
    const token = newToken('u');
    const now = Date.now();
    await db.insert(sessions).values({
      idHash: hashId(token),
      userId,
      expiresAt: new Date(now + config.sessionAbsoluteHours * 3_600_000),
      ip: req.ip,
      userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300),
    });
    req.sessionToken = token;
    reply.setCookie(cookieName, token, cookieOpts);
  });

  app.decorate('endSession', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.sessionToken.startsWith('u.'))
      await db.delete(sessions).where(eq(sessions.idHash, hashId(req.sessionToken)));
    req.user = null;
    req.sessionToken = newToken('a');
    reply.setCookie(cookieName, req.sessionToken, cookieOpts);
  });

  // Expired sessions are removed now and then so the table stays small.
  const sweep = setInterval(() => {
    db.delete(sessions)
      .where(
        sql`${sessions.expiresAt} < now() OR ${sessions.lastSeenAt} < now() - make_interval(mins => ${config.sessionIdleMinutes})`,
      )
      .catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
  }, 10 * 60_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs the user in with a new session id (the old one is destroyed). */
    startSession(req: FastifyRequest, reply: FastifyReply, userId: number): Promise<void>;
    /** Signs out: destroys the server-side session and issues a visitor cookie. */
    endSession(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}
