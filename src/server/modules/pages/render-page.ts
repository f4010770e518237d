import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BootData } from '../../../shared/routes.ts';

/** Used when the web client has not been built (API-only tests); the real page comes from Vite. */
const FALLBACK_TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--app-head--></head><body><div id="root"></div></body></html>`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a script data block must not be able to close the tag. */
const escapeJsonForHtml = (json: string) =>
  json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/**
 * Loads the built index.html once; `<!--app-head-->` marks where per-request tags go. The build's
 * style sheets move to the top of the head: the page is drawn as soon as they arrive, and the
 * browser requests them before the scripts that fill its few connections (docs/requirements/platform.md §6).
 */
export function loadTemplate(webDistDir: string): string {
  const file = path.join(webDistDir, 'index.html');
  if (!fs.existsSync(file)) return FALLBACK_TEMPLATE;
  return prepareTemplate(fs.readFileSync(file, 'utf8'));
}

/**
 * The page template from an index.html (the build's, or src/web/index.html as Vite's development
 * server transforms it): its style sheets moved to the top of the head (see {@link loadTemplate}).
 */
export function prepareTemplate(html: string): string {
  const styles: string[] = [];
  const rest = html.replace(/\s*<link rel="stylesheet"[^>]*>/g, (tag) => {
    styles.push(tag.trim());
    return '';
  });
  return rest.replace('<!--app-head-->', () => [...styles, '<!--app-head-->'].join('\n    '));
}

/** The chunks a page's screen needs beyond the entry (written by the build: vite.config.ts). */
export interface RoutePreload {
  scripts: string[];
  styles: string[];
}

/**
 * Loads the build's `route-preloads.json` once: page path (as in src/shared/routes.ts) to the
 * screen's script chunks and style sheets. Empty when the client is not built.
 */
export function loadRoutePreloads(webDistDir: string): Record<string, RoutePreload> {
  const file = path.join(webDistDir, 'route-preloads.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, RoutePreload>) : {};
}

/**
 * The one inline script of a server-rendered page: after the first paint it adds the page's entry
 * script and chunk preloads, listed in the `page-scripts` data block. In a tab that is not shown
 * there is no paint to wait for, so it adds them at once.
 */
const PAGE_SCRIPT_LOADER =
  "(function(){var d=JSON.parse(document.getElementById('page-scripts').textContent);" +
  "function add(){var s=document.createElement('script');s.type='module';s.crossOrigin='anonymous';s.src=d.entry;document.head.appendChild(s);" +
  "d.preload.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='anonymous';l.href=h;document.head.appendChild(l)})}" +
  "if(document.visibilityState==='visible')requestAnimationFrame(function(){setTimeout(add)});else add()})()";

/** The CSP `script-src` source that allows {@link PAGE_SCRIPT_LOADER} and no other inline script. */
export const PAGE_SCRIPT_LOADER_CSP_SOURCE = `'sha256-${createHash('sha256').update(PAGE_SCRIPT_LOADER).digest('base64')}'`;

const assetPath = (p: string) => /^\/assets\/[\w.-]+\.(js|css)$/.test(p);

/**
 * The template without its entry script and `modulepreload` links, and their addresses in order,
 * for a page whose scripts the loader adds after the first paint.
 */
function takeTemplateScripts(template: string): { html: string; entry: string | null; preload: string[] } {
  let entry: string | null = null;
  const preload: string[] = [];
  const html = template
    .replace(/\s*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/g, (_tag, src: string) => {
      entry ??= src;
      return '';
    })
    .replace(/\s*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g, (_tag, href: string) => {
      preload.push(href);
      return '';
    });
  return { html, entry, preload };
}

/**
 * Renders the page shell for one request: title, description, the canonical address of a public
 * page (one address per page for search engines, whatever query it was opened with), the CSRF meta tag (docs/requirements/platform.md §3) and
 * the boot data as a non-executed JSON block (allowed by the CSP without a nonce), and the page's
 * screen chunks to preload. `body` is the server's render of the page (server-render.ts), put
 * inside `<div id="root">`; `headHtml` its theme variables. Without a body, the screen chunks are
 * `modulepreload` links fetched along with the entry script. With one, the page has no script tag:
 * the entry and the chunks go into a `page-scripts` JSON block that {@link PAGE_SCRIPT_LOADER}
 * reads once the page is drawn (docs/requirements/platform.md §6).
 */
export function renderPage(
  template: string,
  opts: {
    title: string;
    description?: string;
    canonicalUrl?: string;
    companyName: string;
    boot: BootData;
    preload?: RoutePreload;
    body?: string | null;
    headHtml?: string;
    /**
     * False in development: the template's scripts stay as they are, since Vite's client and
     * React Refresh's preamble must run before the entry (default true).
     */
    scriptsAfterPaint?: boolean;
  },
): string {
  const screenScripts = (opts.preload?.scripts ?? []).filter(assetPath);
  const head = [
    `<title>${escapeHtml(`${opts.title} | ${opts.companyName}`)}</title>`,
    opts.description ? `<meta name="description" content="${escapeHtml(opts.description)}" />` : '',
    opts.canonicalUrl ? `<link rel="canonical" href="${escapeHtml(opts.canonicalUrl)}" />` : '',
    opts.headHtml ?? '',
    `<meta name="csrf-token" content="${escapeHtml(opts.boot.csrfToken)}" />`,
    `<script type="application/json" id="boot-data">${escapeJsonForHtml(JSON.stringify(opts.boot))}</script>`,
    ...(opts.preload?.styles ?? [])
      .filter(assetPath)
      .map((href) => `<link rel="stylesheet" crossorigin href="${href}" />`),
    ...(opts.body ? [] : screenScripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}" />`)),
  ]
    .filter(Boolean)
    .join('\n    ');
  if (!opts.body) return template.replace('<!--app-head-->', () => head);
  if (opts.scriptsAfterPaint === false) {
    return template
      .replace('<!--app-head-->', () => head)
      .replace('<div id="root"></div>', () => `<div id="root">${opts.body}</div>`);
  }
  // The page is drawn from the HTML and the style sheet alone. Its scripts only make it
  // interactive, so they are requested once it is drawn: fetched earlier, they share the
  // connection with the style sheet and hold up the first paint on a slow network.
  const { html, entry, preload } = takeTemplateScripts(template);
  const scripts =
    entry === null
      ? ''
      : `<script type="application/json" id="page-scripts">${escapeJsonForHtml(JSON.stringify({ entry, preload: [...screenScripts, ...preload] }))}</script><script>${PAGE_SCRIPT_LOADER}</script>`;
  return html
    .replace('<!--app-head-->', () => head)
    .replace('<div id="root"></div>', () => `<div id="root">${opts.body}</div>${scripts}`);
}
