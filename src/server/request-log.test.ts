import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OneLinePerRequest, redactUrl } from './request-log.ts';

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
    expect(ok[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/ok?x=1' },
      res: { statusCode: 200 },
    });
    expect(typeof ok[0].responseTime).toBe('number');
    expect(perRequest.some((l) => l.msg === 'incoming request')).toBe(false);
    const boom = perRequest.filter(
      (l) => (l.req as { url: string } | undefined)?.url === '/boom' && l.msg === 'request completed',
    );
    expect(boom).toHaveLength(1);
    expect(boom[0]).toMatchObject({ res: { statusCode: 500 } });
  });
});

describe('redactUrl (docs/security.md "Logs")', () => {
  it('redacts the secret segment of each address that carries one, in any letter case', () => {
    const token = 'q0Zx8mVt3kQa1bC2dE3fG4hI5jK6lM7n';
    expect(redactUrl(`/password/reset/${token}?email=a%40b.example`)).toBe(
      '/password/reset/[redacted]?email=a%40b.example',
    );
    expect(redactUrl(`/PASSWORD/Reset/${token}`)).toBe('/PASSWORD/Reset/[redacted]');
    // The invitation's token is 22 characters, below the token-like rule's 24: named here.
    expect(redactUrl('/invitation/not-me/Lu7wl3JHyoCDojLzcZ0zBw')).toBe('/invitation/not-me/[redacted]');
    for (const verb of ['create', 'switch', 'upload'])
      expect(redactUrl(`/application/${verb}/${token}`)).toBe(`/application/${verb}/[redacted]`);
    expect(redactUrl(`/application/upload/${token}/12`)).toBe('/application/upload/[redacted]/12');
    expect(redactUrl('/api/applications/42')).toBe('/api/applications/[redacted]');
    const hash = '0123456789abcdef0123456789abcdef';
    for (const path of [
      `/bylaws-generator/${hash}`,
      `/bylaws-generator/edit/${hash}`,
      `/bylaws-generator/preview/${hash}`,
      `/bylaws-generator/download/${hash}`,
      `/api/bylaws/${hash}`,
    ]) {
      expect(redactUrl(path), path).toBe(path.replace(hash, '[redacted]'));
    }
    expect(redactUrl(`/api/bylaws/${hash}/document`)).toBe('/api/bylaws/[redacted]/document');
  });

  it('keeps addresses without secrets as they came', () => {
    for (const url of [
      '/',
      '/pricing',
      '/bylaws-generator',
      '/bylaws-generator/school',
      '/bylaws-generator/short?x=1',
      '/assets/wizard-page-BQ3x9aLm2Kd81.js',
      '/search?search=verify-501c3&keyword=eagle%20river&page=2',
      '/admin/accounts/show/123',
      '/api/admin/revocation-risk',
    ]) {
      expect(redactUrl(url), url).toBe(url);
    }
  });

  it('redacts token-like segments anywhere, and token, PayerID and similar query values', () => {
    expect(redactUrl('/some/new/route/Ab3dEf6hIj9kLm2nOp5qRs8t')).toBe('/some/new/route/[redacted]');
    expect(redactUrl('/app/payments?paypal=return&token=EC-5JW81447PG4171234&PayerID=PAYERX7TQ2Z')).toBe(
      '/app/payments?paypal=return&token=[redacted]&PayerID=[redacted]',
    );
    expect(redactUrl('/x?access_token=a&csrf_token=b&Password=c&hash=d&keep=e')).toBe(
      '/x?access_token=[redacted]&csrf_token=[redacted]&Password=[redacted]&hash=[redacted]&keep=e',
    );
    expect(redactUrl('/x?%74oken=a')).toBe('/x?%74oken=[redacted]');
  });

  it("redacts a path given as a query value (the sign-in page's next), and survives broken encoding", () => {
    expect(redactUrl('/login?next=%2Fapplication%2Fcreate%2FAbCdEfGhIjKlMnOpQrStUvWx12')).toBe(
      `/login?next=${encodeURIComponent('/application/create/[redacted]')}`,
    );
    expect(redactUrl('/login?next=/password/reset/abc')).toBe(
      `/login?next=${encodeURIComponent('/password/reset/[redacted]')}`,
    );
    expect(redactUrl('/login?next=%E0%A4%A')).toBe('/login?next=%E0%A4%A');
    expect(redactUrl('/x?flag&next=/pricing')).toBe('/x?flag&next=/pricing');
  });
});
