import type { FastifyRequest } from 'fastify';

/**
 * Per-route rate-limit settings for @fastify/rate-limit (DESIGN §5.4): keyed by client address,
 * counted per minute.
 */
export function perMinute(max: number, keyExtra?: (req: FastifyRequest) => string) {
  return {
    max,
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => (keyExtra ? `${req.ip}|${keyExtra(req)}` : req.ip),
  };
}
