import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * Browsers that have signed in to an address before (docs/security.md "Sign-in and address
 * probing"): a signed cookie listing a short digest of each address this browser signed in with.
 * The per-account limit on failed sign-ins counts only browsers without the address, so a person
 * guessing an account's password from elsewhere is stopped while its owner, on a browser they
 * have used, still signs in (OWASP's "device cookies").
 */

/** How long a browser stays known: half a year after its last sign-in. */
const KNOWN_FOR_SECONDS = 183 * 24 * 3600;
/** At most this many addresses per browser (a shared family or office computer). */
const MAX_ADDRESSES = 5;

/** The cookie's name; `__Host-` prefixed when cookies are Secure, like the session's. */
const cookieName = (secure: boolean) => (secure ? '__Host-gs_device' : 'gs_device');

/** A short digest of an address as compared (lower case): no address is readable in the cookie. */
const digestOf = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 16);

/** The digests of the cookie, when its signature holds (signed with the app's secret: @fastify/cookie). */
function digestsOf(req: FastifyRequest, secure: boolean): string[] {
  const raw = req.cookies[cookieName(secure)];
  if (!raw) return [];
  const unsigned = req.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return [];
  return unsigned.value.split('~').filter((d) => /^[A-Za-z0-9_-]{16}$/.test(d));
}

/** Whether this browser has signed in with `email` before. */
export function browserKnowsAddress(req: FastifyRequest, secure: boolean, email: string): boolean {
  return digestsOf(req, secure).includes(digestOf(email));
}

/**
 * Remembers that this browser signed in with `email`: the address's digest first in the signed
 * cookie, at most {@link MAX_ADDRESSES}, for half a year.
 * Writes: the cookie (Set-Cookie).
 */
export function rememberAddress(req: FastifyRequest, reply: FastifyReply, secure: boolean, email: string): void {
  const digest = digestOf(email);
  const kept = [digest, ...digestsOf(req, secure).filter((d) => d !== digest)].slice(0, MAX_ADDRESSES);
  reply.setCookie(cookieName(secure), kept.join('~'), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    signed: true,
    maxAge: KNOWN_FOR_SECONDS,
  });
}
