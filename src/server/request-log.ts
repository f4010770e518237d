import fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's per-request log lines, as one line per request (docs/requirements/platform.md §5.9 JSON logs; §6): Fastify
 * writes "incoming request" and "request completed" for every request, two JSON lines and two
 * writes; this writes only the second, carrying the request too (method, url, host, remote address
 * and port, request id), the status code and the response time in ms. Measured under load
 * (`npm run bench -- --profile`) the two lines took about a seventh of the server's CPU time on
 * PostgreSQL. A request that never completes leaves no line; errors and warnings are logged as before.
 */
export class OneLinePerRequest extends fastify.LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}

/** What a secret in a logged address is replaced by. */
const REDACTED = '[redacted]';

/**
 * Addresses whose path carries a secret (docs/security.md "Logs"), as [pattern, kept prefix]:
 * the reset link and the invitation's "This was not me" page, the application's token (or id), the bylaws hash. Case-insensitive, as an
 * attacker's probe may be; the router itself is case-sensitive.
 */
const SECRET_PATHS: RegExp[] = [
  /^(\/password\/reset\/)[^/?]+/i,
  // "This was not me": the invitation's set-password token (docs/roles.md "Invitations").
  /^(\/invitation\/not-me\/)[^/?]+/i,
  /^(\/application\/(?:create|switch|upload|bylaws)\/)[^/?]+/i,
  /^(\/api\/applications\/)[^/?]+/i,
  /^(\/api\/bylaws\/)[^/?]+/i,
  /^(\/bylaws-generator\/(?:edit|preview|download)\/)[^/?]+/i,
  // PUT /bylaws-generator/{hash}; the variants' own pages (school, short) are not secrets.
  /^(\/bylaws-generator\/)(?!(?:school|short|edit|preview|download)(?:[/?]|$))[^/?]+/i,
];

/** A path segment that looks like a random token (24+ URL-safe characters with letters and digits): redacted wherever it appears. */
const TOKEN_LIKE_SEGMENT = /^(?=[^/]*\d)(?=[^/]*[A-Za-z])[A-Za-z0-9_-]{24,}$/;

/** Query parameters whose value is a secret: any `token` (PayPal's return among them), PayPal's PayerID, and the like. */
const SECRET_QUERY_KEY = /token|payerid|password|secret|hash|signature/i;

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

function redactPath(path: string): string {
  for (const pattern of SECRET_PATHS) {
    if (pattern.test(path)) return path.replace(pattern, `$1${REDACTED}`);
  }
  return path
    .split('/')
    .map((segment) => (TOKEN_LIKE_SEGMENT.test(segment) ? REDACTED : segment))
    .join('/');
}

/**
 * A request address as it may be logged (docs/security.md "Logs"): secrets in the path (reset
 * and application tokens, bylaws hashes, anything token-like) and in the query string (`token`,
 * `PayerID`, …) become `[redacted]`; a query value that is itself a path (`/login?next=…`) is
 * redacted the same way. Everything else is kept as sent.
 * @param url the request's path and query, e.g. `/password/reset/abc?email=x`
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = redactPath(q === -1 ? url : url.slice(0, q));
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const key = safeDecode(pair.slice(0, eq));
      if (SECRET_QUERY_KEY.test(key)) return `${pair.slice(0, eq)}=${REDACTED}`;
      const value = safeDecode(pair.slice(eq + 1));
      if (!value.startsWith('/')) return pair;
      const redacted = redactUrl(value);
      return redacted === value ? pair : `${pair.slice(0, eq)}=${encodeURIComponent(redacted)}`;
    });
  return `${path}?${query.join('&')}`;
}

/**
 * Fastify's request serializer (the `req` of every log line) with the address passed through
 * {@link redactUrl}: the same fields as Fastify's own (method, url, version, host, remote address
 * and port).
 */
export function serializeRequest(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
