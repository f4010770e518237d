import fs from 'node:fs';
import path from 'node:path';
import type { BootData } from '../../../shared/routes.ts';

/** Used when the web client has not been built (API-only tests); the real page comes from Vite. */
const FALLBACK_TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--app-head--></head><body><div id="root"></div></body></html>`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a script data block must not be able to close the tag. */
const escapeJsonForHtml = (json: string) => json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/**
 * Loads the built index.html once; `<!--app-head-->` marks where per-request tags go. The build's
 * style sheets move to the top of the head: the page is drawn as soon as they arrive, and the
 * browser requests them before the scripts that fill its few connections (DESIGN §6).
 */
export function loadTemplate(webDistDir: string): string {
  const file = path.join(webDistDir, 'index.html');
  if (!fs.existsSync(file)) return FALLBACK_TEMPLATE;
  const html = fs.readFileSync(file, 'utf8');
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

const assetPath = (p: string) => /^\/assets\/[\w.-]+\.(js|css)$/.test(p);

/**
 * Renders the page shell for one request: title, description, the canonical address of a public
 * page (one address per page for search engines, whatever query it was opened with), the CSRF meta tag (DESIGN §3) and
 * the boot data as a non-executed JSON block (allowed by the CSP without a nonce), and the page's
 * screen chunks as `modulepreload` links, fetched along with the entry script (DESIGN §6). `body`
 * is the server's render of the page (server-render.ts), put inside `<div id="root">`; `headHtml`
 * its theme variables.
 */
export function renderPage(template: string, opts: { title: string; description?: string; canonicalUrl?: string; companyName: string; boot: BootData; preload?: RoutePreload; body?: string | null; headHtml?: string }): string {
  const head = [
    `<title>${escapeHtml(`${opts.title} | ${opts.companyName}`)}</title>`,
    opts.description ? `<meta name="description" content="${escapeHtml(opts.description)}" />` : '',
    opts.canonicalUrl ? `<link rel="canonical" href="${escapeHtml(opts.canonicalUrl)}" />` : '',
    opts.headHtml ?? '',
    `<meta name="csrf-token" content="${escapeHtml(opts.boot.csrfToken)}" />`,
    `<script type="application/json" id="boot-data">${escapeJsonForHtml(JSON.stringify(opts.boot))}</script>`,
    ...(opts.preload?.styles ?? []).filter(assetPath).map((href) => `<link rel="stylesheet" crossorigin href="${href}" />`),
    ...(opts.preload?.scripts ?? []).filter(assetPath).map((href) => `<link rel="modulepreload" crossorigin href="${href}" />`),
  ].filter(Boolean).join('\n    ');
  const page = template.replace('<!--app-head-->', () => head);
  if (!opts.body) return page;
  // The page is drawn from the HTML and the style sheet alone: its scripts, which only make it
  // interactive, must not hold up the style sheet on the browser's few connections.
  return page
    .replace(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"')
    .replace('<div id="root"></div>', () => `<div id="root">${opts.body}</div>`);
}
