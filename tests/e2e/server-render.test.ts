import http from 'node:http';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src/shared/routes.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/chromium.ts';
import { baseUrl, openBrowser, signIn, type Session } from './support/browser.ts';

const PUBLIC_PATHS = PAGES.filter((p) => p.access === 'visitor' && !p.path.includes(':')).map((p) => p.path);

/** The page as the server sends it, and the part React takes over. */
async function fetchPage(path: string, cookie?: string) {
  const res = await fetch(new URL(path, baseUrl()), {
    headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
  });
  const html = await res.text();
  const root = html.slice(html.indexOf('<div id="root">'), html.lastIndexOf('</div>'));
  return { status: res.status, html, root };
}

describe('public pages are rendered by the server (docs/requirements/platform.md §6)', () => {
  let noScript: Browser;
  beforeAll(async () => {
    noScript = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await noScript.close();
  });

  it('every public page shows its heading, navigation and footer with JavaScript turned off', async () => {
    const context = await noScript.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    for (const path of PUBLIC_PATHS) {
      await page.goto(path);
      expect(await page.getByRole('heading', { level: 1 }).count(), path).toBe(1);
      expect(await page.getByRole('navigation', { name: 'Main' }).count(), path).toBe(1);
      expect(await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy' }).count(), path).toBe(1);
    }
    // The contact form's fields are there to read, held disabled until the page's script runs.
    await page.goto('/contact');
    expect(await page.getByLabel('E-mail').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);
    // Data the page loads through the API is in the server's HTML too: the levels and prices.
    await page.goto('/pricing');
    const prices = await page.getByText(/\$\d/).count();
    expect(prices).toBeGreaterThan(0);
    // The states and their requirements, the query the state registration route names in the router.
    await page.goto('/state-registration');
    expect(await page.getByText('Wyoming').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('React takes over the server’s HTML without drawing it again: no hydration errors, forms work', async () => {
    const s: Session = await openBrowser();
    try {
      for (const path of PUBLIC_PATHS) {
        await s.page.goto(path);
        await s.page.getByRole('heading', { level: 1 }).first().waitFor();
        // The rating widget's fieldset is enabled once the page is interactive.
        if (PAGES.find((p) => p.path === path)?.hasRating)
          await s.page.getByRole('textbox', { name: 'Comments' }).and(s.page.locator(':enabled')).waitFor();
      }
      expect(s.errors).toEqual([]);
      await s.page.goto('/contact');
      await s.page.getByRole('button', { name: 'Send message' }).click();
      await s.page.getByText('The subject field is required.').waitFor();
    } finally {
      await s.close();
    }
  });

  it('a field keeps the id the server gave it once the page is interactive, so its label stays attached', async () => {
    const { root } = await fetchPage('/contact');
    const serverId = /<label[^>]*for="([^"]+)"[^>]*>Name/.exec(root)?.[1];
    expect(serverId).toMatch(/^mantine-/);
    const s = await openBrowser();
    try {
      await s.page.goto('/contact');
      const name = s.page.getByRole('textbox', { name: 'Name' });
      await name.and(s.page.locator(':enabled')).waitFor();
      expect(await name.getAttribute('id')).toBe(serverId);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('each visitor gets their own CSRF token; a signed-in person sees their own header', async () => {
    const a = await fetchPage('/contact');
    const b = await fetchPage('/contact');
    const token = (html: string) => html.match(/<meta name="csrf-token" content="([^"]+)"/)?.[1];
    expect(token(a.html)).toBeTruthy();
    expect(token(a.html)).not.toBe(token(b.html));
    expect(a.root).toContain('Sign in');
    expect(a.root).not.toContain(token(a.html));
    // The scripts are asked for once the page is drawn, by the one inline script the CSP allows.
    expect(a.html).not.toMatch(/<script type="module"|rel="modulepreload"/);
    expect(a.html).toMatch(
      /<script type="application\/json" id="page-scripts">\{"entry":"\/assets\/index-[\w-]+\.js","preload":\["\/assets\/contact-page-/,
    );
    expect(a.html).toMatch(/<head>[\s\S]*<style data-mantine-styles="true">[\s\S]*<\/head>/);

    const s = await openBrowser();
    try {
      await signIn(s.page, 'admin');
      const cookie = (await s.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
      const signedIn = await fetchPage('/contact', cookie);
      expect(signedIn.root).toContain('Sign out');
      expect(signedIn.root).not.toContain('>Sign in<');
    } finally {
      await s.close();
    }
  });

  it('a page’s script list names its screen’s chunk, however its route is written in the router', async () => {
    const preloadOf = async (path: string) => {
      const { html } = await fetchPage(path);
      const list = /<script type="application\/json" id="page-scripts">(.*?)<\/script>/.exec(html)?.[1];
      return (JSON.parse(list ?? '{"preload":[]}') as { preload: string[] }).preload;
    };
    for (const [path, chunk] of [
      ['/contact', '/assets/contact-page-'],
      ['/bylaws-generator', '/assets/bylaws-pages-'],
      ['/bylaws-generator/school', '/assets/bylaws-pages-'],
      ['/contests/photo', '/assets/contest-page-'],
      ['/compliance-check', '/assets/compliance-check-page-'],
    ]) {
      expect(
        (await preloadOf(path)).some((href) => href.startsWith(chunk)),
        path,
      ).toBe(true);
    }
  });

  it('a dismissed banner is left out of the server’s HTML', async () => {
    const shown = await fetchPage('/pricing');
    expect(shown.root).toContain('Holiday hours');
    const s = await openBrowser();
    try {
      await s.page.goto('/pricing');
      // The button works once React has taken over the page, as the rating form shows.
      await s.page.getByRole('textbox', { name: 'Comments' }).and(s.page.locator(':enabled')).waitFor();
      await s.page.getByRole('button', { name: 'Dismiss this notice' }).click();
      const cookie = (await s.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
      expect((await fetchPage('/pricing', cookie)).root).not.toContain('Holiday hours');
      await s.page.reload();
      await s.page.getByRole('heading', { level: 1 }).waitFor();
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });
  it('sends a page compressed to a browser that accepts it (brotli, else gzip), and plain to one that does not', async () => {
    /** The raw answer, bytes as they travelled. */
    const raw = (path: string, acceptEncoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(
            new URL(path, baseUrl()),
            { headers: { accept: 'text/html', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          )
          .on('error', reject);
      });
    const plain = await raw('/pricing');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const html = plain.body.toString('utf8');
    expect(html).toContain('<div id="root">');

    const br = await raw('/pricing', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const gz = await raw('/pricing', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    // The same page once unpacked, apart from the visitor's own CSRF token (meta tag and boot data).
    const withoutToken = (page: string) =>
      page.replace(/"csrfToken":"[^"]*"/, '').replace(/name="csrf-token" content="[^"]*"/, '');
    expect(withoutToken(zlib.brotliDecompressSync(br.body).toString('utf8'))).toBe(withoutToken(html));
    expect(withoutToken(zlib.gunzipSync(gz.body).toString('utf8'))).toBe(withoutToken(html));
  });
});
