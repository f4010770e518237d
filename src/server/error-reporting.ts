import { redactUrl } from './request-log.ts';
import type { ErrorEvent } from '@sentry/node';
import type { FastifyRequest } from 'fastify';

/** Sends unexpected errors somewhere people look at them; a no-op without a destination. */
export interface ErrorReporter {
  /** Reports `err`, raised while handling `req`, tagged with the request id. Never throws. */
  report(err: unknown, req: FastifyRequest): void;
  /** Sends what is queued (waits up to 2 s) and stops. */
  close(): Promise<void>;
}

const noReporter: ErrorReporter = { report() {}, close: async () => {} };

/** Request headers an event may carry: nothing that identifies a session or holds a secret. */
const KEPT_HEADERS = ['user-agent', 'accept', 'content-type', 'referer'];

/**
 * Drops what an event must not carry (docs/security.md "Logs", docs/deploy.md "Observability"):
 * cookies, bodies, query strings and any header but a few harmless ones; the address is redacted
 * like a log line's. Applied to every event just before it is sent.
 */
function scrubEvent(event: ErrorEvent): ErrorEvent {
  if (event.request) {
    const headers = event.request.headers ?? {};
    event.request = {
      method: event.request.method,
      url: event.request.url ? redactUrl(event.request.url) : undefined,
      headers: Object.fromEntries(Object.entries(headers).filter(([k]) => KEPT_HEADERS.includes(k.toLowerCase()))),
    };
  }
  delete event.user;
  if (event.extra) delete event.extra;
  return event;
}

/**
 * The Sentry client of one app (docs/deploy.md "Observability"), or a no-op without SENTRY_DSN.
 * A client of its own rather than Sentry.init(): no global instrumentation, no default
 * integrations (which would read request bodies and cookies), one client per app in tests.
 * Events carry the error with its stack, the request's method and redacted path, and the tag
 * `request_id`; never cookies, bodies, passwords, tokens or card data.
 * @param dsn SENTRY_DSN, e.g. https://public@o1.ingest.sentry.io/2
 */
export async function sentryReporter(
  dsn: string | undefined,
  opts: { environment?: string } = {},
): Promise<ErrorReporter> {
  if (!dsn) return noReporter;
  // Loaded only when used: the SDK brings OpenTelemetry along, which a server without a DSN never needs.
  const { NodeClient, Scope, defaultStackParser, makeNodeTransport } = await import('@sentry/node');
  const client = new NodeClient({
    dsn,
    environment: opts.environment,
    integrations: [],
    transport: makeNodeTransport,
    stackParser: defaultStackParser,
    beforeSend: (event) => scrubEvent(event),
  });
  client.init();
  return {
    report(err, req) {
      try {
        const scope = new Scope();
        scope.setClient(client);
        scope.setTag('request_id', req.id);
        scope.setTag('route', req.routeOptions?.url ?? 'unmatched');
        const headers = Object.fromEntries(
          KEPT_HEADERS.flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h] as string]] : [])),
        );
        scope.addEventProcessor((event) => ({
          ...event,
          request: { method: req.method, url: redactUrl(req.url), headers },
        }));
        scope.captureException(err);
      } catch {
        // Reporting must never turn one error into two.
      }
    },
    close: async () => {
      await client.close(2_000);
    },
  };
}
