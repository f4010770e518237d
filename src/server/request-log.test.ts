import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OneLinePerRequest } from './request-log.ts';

/** The server's access log (request-log.ts): one JSON line per request, with the request and the answer. */
describe('OneLinePerRequest', () => {
  it('writes one line per request with method, url, status and response time; a failed request is one line too', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream }, logController: new OneLinePerRequest() });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/boom', async () => {
      throw new Error('kaput');
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/ok?x=1' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/boom' })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
    const perRequest = lines.filter((l) => l.req || l.res);
    const ok = perRequest.filter((l) => (l.req as { url: string } | undefined)?.url === '/ok?x=1');
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/ok?x=1' }, res: { statusCode: 200 } });
    expect(typeof ok[0].responseTime).toBe('number');
    expect(perRequest.some((l) => l.msg === 'incoming request')).toBe(false);
    const boom = perRequest.filter((l) => (l.req as { url: string } | undefined)?.url === '/boom' && l.msg === 'request completed');
    expect(boom).toHaveLength(1);
    expect(boom[0]).toMatchObject({ res: { statusCode: 500 } });
  });
});
