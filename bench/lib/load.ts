import autocannon, { type Options, type Result } from 'autocannon';

/** What the bench reports for one load run. Latencies in milliseconds. */
export interface LoadSummary {
  connections: number;
  durationS: number;
  requests: number;
  reqPerSec: number;
  latencyMs: { avg: number; p50: number; p97_5: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export function summarize(r: Result, connections: number): LoadSummary {
  const completed = Object.values(r.statusCodeStats ?? {}).reduce((n, s) => n + s.count, 0);
  return {
    connections,
    durationS: r.duration,
    requests: completed,
    reqPerSec: Math.round((completed / r.duration) * 10) / 10,
    latencyMs: {
      avg: Math.round(r.latency.average * 100) / 100,
      p50: r.latency.p50,
      p97_5: r.latency.p97_5,
      p99: r.latency.p99,
      max: r.latency.max,
    },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count])),
  };
}

/**
 * Runs autocannon against 127.0.0.1 (the server is another process; both share the machine's
 * cores). With `perConnectionHeaders` each connection sends its own headers (its own visitor:
 * session cookie, CSRF token, client address); autocannon then runs in this thread, since its
 * worker threads cannot take a function. Otherwise it runs in a worker thread.
 */
export async function runLoad(
  opts: Options & { connections: number; duration: number; perConnectionHeaders?: Record<string, string>[] },
): Promise<LoadSummary> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(opts.url))
    throw new Error(`bench traffic goes to 127.0.0.1 only, not ${opts.url}`);
  const { perConnectionHeaders, ...rest } = opts;
  let next = 0;
  const result = perConnectionHeaders
    ? await autocannon({
        timeout: 10,
        ...rest,
        setupClient: (client) => client.setHeaders(perConnectionHeaders[next++ % perConnectionHeaders.length]),
      })
    : await autocannon({ timeout: 10, workers: 1, ...rest });
  return summarize(result, opts.connections);
}

export const log = (msg: string) => process.stderr.write(`${msg}\n`);

/** Percentile (0-100) of a list of numbers, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
