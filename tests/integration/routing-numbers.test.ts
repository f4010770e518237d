import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SCRIPT_LOADER_CSP_SOURCE } from '../../src/server/modules/pages/render-page.ts';
import { ROUTING_LOOKUP_PER_MINUTE } from '../../src/server/modules/routing-numbers/routes.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The built-in routing-number lookup (docs/requirements/calls.md third-party calls: JSONP with rn, answering code,
 * message and customer_name), how pages learn where the lookup is, and the CSP that lets its
 * scripts run.
 */

let t: TestApp;
let external: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  external = await createTestApp({
    config: { publicUrl: 'https://gs.example', routingLookupUrl: 'https://www.routingnumbers.info/api/data.json' },
  });
});
afterAll(async () => {
  await t?.close();
  await external?.close();
});

const get = (url: string, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'GET', url, remoteAddress });

/** Runs a JSONP body the way a script tag would, returning what the callback received. */
function runJsonp(body: string, callback: string): unknown {
  const match = new RegExp(`^/\\*\\*/${callback.replace(/[.$]/g, '\\$&')}\\((.*)\\);$`, 's').exec(body);
  expect(match, body).not.toBeNull();
  return JSON.parse(match![1]);
}

describe('GET /routing-numbers/data.json', () => {
  it('answers a known number by JSONP with the bank name', async () => {
    const res = await get('/routing-numbers/data.json?rn=021000021&callback=cb');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(runJsonp(res.body, 'cb')).toEqual({
      code: 200,
      message: 'OK',
      rn: '021000021',
      customer_name: 'JPMORGAN CHASE',
      city: 'TAMPA',
      state: 'FL',
    });
  });

  it('accepts the callback names fetch-jsonp generates and dotted names', async () => {
    for (const callback of ['jsonp_1712345678901_4242', 'window.gs.cb']) {
      const res = await get(`/routing-numbers/data.json?callback=${callback}&rn=111000025`);
      expect(res.headers['content-type']).toMatch(/^application\/javascript/);
      expect(runJsonp(res.body, callback)).toMatchObject({ code: 200, rn: '111000025' });
    }
  });

  it('answers 200 without a name for a well-formed number it does not know', async () => {
    const res = await get('/routing-numbers/data.json?rn=123456780&callback=cb');
    expect(res.statusCode).toBe(200);
    expect(runJsonp(res.body, 'cb')).toEqual({
      code: 200,
      message: 'OK',
      rn: '123456780',
      customer_name: '',
      city: '',
      state: '',
    });
  });

  it('answers 400 for a failed checksum, a wrong length, letters or no rn at all', async () => {
    for (const query of [
      'rn=021000022',
      'rn=02100002',
      'rn=0210000210',
      'rn=02100002a',
      'rn=000000000',
      'rn=',
      '',
      'rn=021000021&rn=021000021',
    ]) {
      const res = await get(`/routing-numbers/data.json?${query}&callback=cb`);
      expect(res.statusCode, query).toBe(200);
      expect(runJsonp(res.body, 'cb'), query).toMatchObject({ code: 400, message: 'invalid routing number' });
    }
  });

  it('answers plain JSON, never script, when the callback is missing or not a plain name', async () => {
    for (const callback of ['', 'alert(1)', 'a%20b', '1cb', '%3Cscript%3E', 'x'.repeat(65)]) {
      const res = await get(`/routing-numbers/data.json?rn=021000021&callback=${callback}`);
      expect(res.statusCode, callback).toBe(200);
      expect(res.headers['content-type'], callback).toBe('application/json; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.json()).toMatchObject({ code: 200, customer_name: 'JPMORGAN CHASE' });
    }
    const bare = await get('/routing-numbers/data.json?rn=021000022');
    expect(bare.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(bare.json()).toEqual({ code: 400, message: 'invalid routing number', rn: '021000022' });
  });

  it('needs no session or CSRF token, and is not cached', async () => {
    const res = await get('/routing-numbers/data.json?rn=026009593&callback=cb');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(runJsonp(res.body, 'cb')).toMatchObject({ code: 200, customer_name: 'BANK OF AMERICA N.A.' });
  });

  it(`allows ${ROUTING_LOOKUP_PER_MINUTE} lookups a minute per address, then 429`, async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < ROUTING_LOOKUP_PER_MINUTE; i++) {
      expect((await get('/routing-numbers/data.json?rn=021000021&callback=cb', ip)).statusCode).toBe(200);
    }
    expect((await get('/routing-numbers/data.json?rn=021000021&callback=cb', ip)).statusCode).toBe(429);
    expect((await get('/routing-numbers/data.json?rn=021000021&callback=cb', '203.0.113.78')).statusCode).toBe(200);
  });
});

describe('where pages find the lookup', () => {
  const bootOf = (html: string) =>
    JSON.parse(/<script type="application\/json" id="boot-data">(.*?)<\/script>/s.exec(html)![1]);

  it('gives pages the built-in lookup as a path, allowed by script-src self', async () => {
    const res = await new Agent(t.app).request('GET', '/contact', undefined, { accept: 'text/html' });
    expect(res.statusCode).toBe(200);
    expect(bootOf(res.body).routingLookupUrl).toBe('/routing-numbers/data.json');
    const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))![1];
    // Besides itself, only the page's script loader, by its hash.
    expect(scriptSrc.trim()).toBe(`'self' ${PAGE_SCRIPT_LOADER_CSP_SOURCE}`);
  });

  it('gives pages a configured lookup in full and adds its origin to script-src', async () => {
    const res = await new Agent(external.app).request('GET', '/contact', undefined, { accept: 'text/html' });
    expect(bootOf(res.body).routingLookupUrl).toBe('https://www.routingnumbers.info/api/data.json');
    const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))![1];
    expect(scriptSrc.split(' ')).toEqual(["'self'", PAGE_SCRIPT_LOADER_CSP_SOURCE, 'https://www.routingnumbers.info']);
  });
});
