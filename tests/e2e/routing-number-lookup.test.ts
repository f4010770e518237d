import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, type Session } from './support/browser.ts';

/**
 * The routing-number lookup in a real browser (docs/requirements/calls.md third-party calls: JSONP with rn, answering
 * code, message and customer_name): the page's CSP lets the built-in lookup's script run, and the
 * browser client (src/web/lib/routing-number-lookup.ts, with fetch-jsonp) reads its answers and
 * turns a blocked script into 'unavailable'. No page uses the client yet, so it is bundled here on
 * its own and run in a site page, where it reads the page's real boot data.
 */

interface Client {
  lookupRoutingNumber(
    rn: string,
    opts?: { url?: string; timeoutMs?: number },
  ): Promise<{ code: number; message: string; customer_name?: string }>;
}
declare global {
  interface Window {
    GsRoutingLookup: Client;
    cb?: (data: unknown) => void;
  }
}

let s: Session;
let clientBundle: string;

beforeAll(async () => {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      write: false,
      minify: false,
      lib: { entry: path.resolve('src/web/lib/routing-number-lookup.ts'), formats: ['iife'], name: 'GsRoutingLookup' },
    },
  });
  const outputs = Array.isArray(out) ? out : [out];
  clientBundle = (outputs[0] as { output: { code?: string }[] }).output[0].code!;
  s = await openBrowser();
  // Any site page: it carries the CSP and the boot data a form would have.
  await s.page.goto('/contact');
  await s.page.getByRole('heading', { level: 1 }).first().waitFor();
});
afterAll(async () => {
  await s?.close();
});

describe('routing-number lookup in the browser', () => {
  it('tells pages where the built-in lookup is', async () => {
    const boot = await s.page.evaluate(() => JSON.parse(document.getElementById('boot-data')!.textContent!));
    expect(boot.routingLookupUrl).toBe('/routing-numbers/data.json');
  });

  it('the CSP lets a JSONP script tag for the lookup run, and the callback receives the bank', async () => {
    const received = await s.page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const script = document.createElement('script');
          window.cb = (data) => {
            script.remove();
            resolve(data);
          };
          script.onerror = () => reject(new Error('the lookup script did not load'));
          document.addEventListener(
            'securitypolicyviolation',
            (e) => reject(new Error(`CSP blocked ${e.blockedURI}`)),
            { once: true },
          );
          script.src = '/routing-numbers/data.json?rn=021000021&callback=cb';
          document.head.appendChild(script);
        }),
    );
    expect(received).toMatchObject({ code: 200, message: 'OK', customer_name: 'JPMORGAN CHASE' });
    expect(s.errors).toEqual([]);
  });

  it('lookupRoutingNumber reads found, unknown and invalid answers from the boot-data lookup', async () => {
    await s.page.evaluate(clientBundle);
    const answers = await s.page.evaluate(async () => ({
      found: await window.GsRoutingLookup.lookupRoutingNumber('021000021'),
      sandbox: await window.GsRoutingLookup.lookupRoutingNumber('111000025'),
      unknown: await window.GsRoutingLookup.lookupRoutingNumber('123456780'),
      invalid: await window.GsRoutingLookup.lookupRoutingNumber('021000022'),
      // fetch-jsonp names its script tags after the callback parameter.
      leftover: document.querySelectorAll('script[id^="callback_"]').length,
    }));
    expect(answers.found).toEqual({ code: 200, message: 'OK', customer_name: 'JPMORGAN CHASE' });
    expect(answers.sandbox).toEqual({ code: 200, message: 'OK', customer_name: 'BANK OF AMERICA, N.A.' });
    // The built-in table is small: a number passing the checksum is valid, without a name.
    expect(answers.unknown).toEqual({ code: 200, message: 'OK' });
    expect(answers.invalid).toEqual({ code: 400, message: 'invalid routing number' });
    expect(answers.leftover).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it('resolves unavailable, without waiting out the timeout, when the CSP blocks the lookup', async () => {
    await s.page.evaluate(clientBundle);
    // The same server under another origin name: not 'self' for a page opened on 127.0.0.1.
    const foreign = `${baseUrl().replace('127.0.0.1', 'localhost')}/routing-numbers/data.json`;
    const { result, ms, violations } = await s.page.evaluate(async (url) => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
      const started = performance.now();
      const answer = await window.GsRoutingLookup.lookupRoutingNumber('021000021', { url, timeoutMs: 4000 });
      return { result: answer, ms: performance.now() - started, violations: seen };
    }, foreign);
    expect(result).toEqual({ code: 0, message: 'unavailable' });
    expect(violations.some((d) => d.startsWith('script-src'))).toBe(true);
    expect(ms).toBeLessThan(4000);
  });

  it('resolves unavailable after the timeout when the lookup never answers', async () => {
    // A lookup that accepts the request and never replies: the browser holds it open.
    await s.page.route('**/never-answers/**', () => {});
    await s.page.evaluate(clientBundle);
    const { result, ms } = await s.page.evaluate(async () => {
      const started = performance.now();
      const answer = await window.GsRoutingLookup.lookupRoutingNumber('021000021', {
        url: '/never-answers/data.json',
        timeoutMs: 300,
      });
      return { result: answer, ms: performance.now() - started };
    });
    expect(result).toEqual({ code: 0, message: 'unavailable' });
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(3000);
    await s.page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
