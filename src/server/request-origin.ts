import type { FastifyRequest } from 'fastify';

/** A host as browsers send it: a name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin the browser used for this request, e.g. `http://127.0.0.1:3000`: Fastify's
 * `req.protocol` and `req.host`, which follow X-Forwarded-Proto / X-Forwarded-Host only when the
 * peer is a proxy TRUST_PROXY names. Addresses the browser is sent to are built from it or are
 * paths, never from PUBLIC_URL, so the site works at whichever address it was opened
 * (docs/security.md "Same origin").
 * @param fallback the origin to use when the request names no usable host or scheme (config.publicUrl)
 * @returns an origin without a trailing slash
 */
export function requestOrigin(req: FastifyRequest, fallback: string): string {
  const protocol = req.protocol;
  const host = req.host;
  if ((protocol !== 'http' && protocol !== 'https') || !host || !HOST.test(host)) return fallback;
  return new URL(`${protocol}://${host}`).origin;
}
