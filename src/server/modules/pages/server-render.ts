import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PAGE_QUERY } from '../../../shared/page-queries.ts';
import { redactUrl } from '../../request-log.ts';
import { pricingBody, stateRequirementsBody } from '../content/routes.ts';
import type { BootData } from '../../../shared/routes.ts';
import type { Db } from '../../db/client.ts';
import type { FastifyBaseLogger } from 'fastify';

/** The render function of the built `dist/ssr/entry-server.js` (src/web/entry-server.tsx). */
interface EntryServer {
  renderPageHtml(url: string, data: BootData): Promise<string | null>;
  themeCssVariablesHtml(): string;
}

/**
 * Query results a page shows, loaded by the server for its render, under the page's query keys
 * (src/shared/page-queries.ts). The values are what the API would answer, as JSON.
 */
const PAGE_QUERIES: Record<string, (db: Db) => Promise<NonNullable<BootData['queries']>>> = {
  '/pricing': async (db) => [{ queryKey: PAGE_QUERY.pricing.queryKey, data: asJson(await pricingBody(db)) }],
  '/state-registration': async (db) => [
    { queryKey: PAGE_QUERY.stateRequirements.queryKey, data: asJson(await stateRequirementsBody(db)) },
  ],
};
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Renders for visitors, by everything they depend on; a few hundred pages of about 30 KB. */
const CACHE_ENTRIES = 200;

export interface ServerRenderer {
  /** The theme's CSS variables as a `<style>` element, for the head of every page. */
  headHtml: string;
  /** The query results the page at `pagePath` (a path of src/shared/routes.ts) shows, for its boot data. */
  queriesFor(pagePath: string, db: Db): Promise<BootData['queries']>;
  /**
   * The page's HTML for inside `<div id="root">`, or null when the page is left to the browser
   * (the router would redirect or fail, or rendering threw, which is logged).
   * @param url the path and query as requested
   */
  render(url: string, data: BootData): Promise<string | null>;
}

/**
 * Loads the server's render of the pages built by `npm run build` (`dist/ssr` beside the web
 * client's `dist/web`). Renders for visitors are kept in a small LRU cache keyed by the address
 * and the boot data without the CSRF token (which the HTML does not contain), so a visitor's page
 * costs one render per change of company details, banners or prices, not 10–20 ms per request.
 * @returns null when the client was built without it (or not at all): pages are then drawn by the browser alone
 */
export async function loadServerRenderer(webDistDir: string, log: FastifyBaseLogger): Promise<ServerRenderer | null> {
  const entry = path.join(webDistDir, '..', 'ssr', 'entry-server.js');
  if (!fs.existsSync(entry)) return null;
  const { renderPageHtml, themeCssVariablesHtml } = (await import(pathToFileURL(entry).href)) as EntryServer;
  const cache = new Map<string, string | null>();
  return {
    headHtml: themeCssVariablesHtml(),
    async queriesFor(pagePath, db) {
      return PAGE_QUERIES[pagePath]?.(db);
    },
    async render(url, data) {
      const key = data.user ? null : JSON.stringify([url, new Date().getFullYear(), { ...data, csrfToken: '' }]);
      const cached = key !== null ? cache.get(key) : undefined;
      if (key !== null && cached !== undefined) {
        const html = cached;
        // Most recently used last, so the oldest is evicted first.
        cache.delete(key);
        cache.set(key, html);
        return html;
      }
      let html: string | null;
      try {
        html = await renderPageHtml(new URL(url, 'http://localhost').href, data);
      } catch (err) {
        log.error({ err, url: redactUrl(url) }, 'server render failed; the browser draws the page');
        return null;
      }
      if (key !== null) {
        cache.set(key, html);
        const oldest = cache.keys().next();
        if (cache.size > CACHE_ENTRIES && !oldest.done) cache.delete(oldest.value);
      }
      return html;
    },
  };
}
