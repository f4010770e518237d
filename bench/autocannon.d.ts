/** Minimal typings for autocannon 9 (the package ships none); only what bench/ uses. */
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p1: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    sent?: number;
    totalCount?: number;
  }
  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    workers?: number;
    timeout?: number;
    pipelining?: number;
    /** Called once per connection (a function only without `workers`), e.g. to give it its own headers. */
    setupClient?: (client: { setHeaders(headers: Record<string, string>): void }) => void;
    /** Request sequence; `setupRequest` builds each request (not with `workers`). */
    requests?: {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
    }[];
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
