import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRoutePreloads, PAGE_SCRIPT_LOADER_CSP_SOURCE, renderPage } from './render-page.ts';
import type { BootData } from '../../../shared/routes.ts';

const TEMPLATE =
  '<!doctype html><html lang="en"><head><!--app-head--><script type="module" src="/assets/index-a1.js"></script></head><body><div id="root"></div></body></html>';
const BOOT: BootData = {
  csrfToken: 'tok',
  user: null,
  company: { name: 'GoodStanding', phone: '', email: '' },
  banners: [],
  captchaSiteKey: null,
  routingLookupUrl: '/routing-numbers/data.json',
  status: 200,
};

describe('page shell', () => {
  it("lists the page's screen chunks as modulepreload links and its style sheets, before the entry script", () => {
    const html = renderPage(TEMPLATE, {
      title: 'Pricing',
      companyName: 'GoodStanding',
      boot: BOOT,
      preload: { scripts: ['/assets/pricing-page-x1.js', '/assets/kit-y2.js'], styles: ['/assets/pricing-z3.css'] },
    });
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/pricing-page-x1.js" />');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/kit-y2.js" />');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/pricing-z3.css" />');
    expect(html.indexOf('kit-y2.js')).toBeLessThan(html.indexOf('index-a1.js'));
  });

  it('a page rendered by the server asks for its scripts after it is drawn: no script tag, one loader the CSP allows by its hash', () => {
    const html = renderPage(TEMPLATE, {
      title: 'Pricing',
      companyName: 'GoodStanding',
      boot: BOOT,
      body: '<h1>Pricing</h1>',
      preload: { scripts: ['/assets/pricing-page-x1.js', '/assets/kit-y2.js'], styles: ['/assets/pricing-z3.css'] },
    });
    expect(html).not.toMatch(/<script type="module"|rel="modulepreload"/);
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/pricing-z3.css" />');
    const list = /<script type="application\/json" id="page-scripts">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(list!)).toEqual({
      entry: '/assets/index-a1.js',
      preload: ['/assets/pricing-page-x1.js', '/assets/kit-y2.js'],
    });
    const inline = [...html.matchAll(/<script>(.*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(1);
    expect(`'sha256-${createHash('sha256').update(inline[0]).digest('base64')}'`).toBe(PAGE_SCRIPT_LOADER_CSP_SOURCE);
    expect(html.indexOf('<h1>Pricing</h1>')).toBeLessThan(html.indexOf('page-scripts'));
  });

  it('in development the rendered page keeps its script tags, which Vite’s client needs to run first', () => {
    const devTemplate =
      '<!doctype html><html><head><script type="module" src="/@vite/client"></script><!--app-head--></head><body><div id="root"></div><script type="module" src="/main.tsx"></script></body></html>';
    const html = renderPage(devTemplate, {
      title: 'Pricing',
      companyName: 'GoodStanding',
      boot: BOOT,
      body: '<h1>Pricing</h1>',
      scriptsAfterPaint: false,
    });
    expect(html).toContain('<div id="root"><h1>Pricing</h1></div>');
    expect(html).toContain('<script type="module" src="/@vite/client"></script>');
    expect(html).toContain('<script type="module" src="/main.tsx"></script>');
    expect(html).not.toContain('page-scripts');
  });

  it('writes no link for anything but a built asset path', () => {
    const html = renderPage(TEMPLATE, {
      title: 'Pricing',
      companyName: 'GoodStanding',
      boot: BOOT,
      preload: {
        scripts: ['https://evil.example/x.js', '/assets/"><script>.js', '/other/a.js'],
        styles: ['/assets/a.css" onload="x'],
      },
    });
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).not.toContain('rel="stylesheet"');
  });

  it("reads the build's route-preloads.json, and none when the client is not built", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-preloads-'));
    try {
      expect(loadRoutePreloads(dir)).toEqual({});
      fs.writeFileSync(
        path.join(dir, 'route-preloads.json'),
        JSON.stringify({ '/': { scripts: ['/assets/home-page-a.js'], styles: [] } }),
      );
      expect(loadRoutePreloads(dir)['/'].scripts).toEqual(['/assets/home-page-a.js']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
