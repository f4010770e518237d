import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { queryKeyOf } from '../../../shared/contracts/contract.ts';
import { PAGE_QUERY, type PageQueryName } from '../../../shared/page-queries.ts';
import { redactUrl } from '../../request-log.ts';
import { pricingBody, stateRequirementsBody } from '../content/routes.ts';
import type { BootData } from '../../../shared/routes.ts';
import type { Db } from '../../db/client.ts';
import type { FastifyBaseLogger } from 'fastify';

/** The render functions of src/web/entry-server.tsx: built into `dist/ssr/entry-server.js`, or loaded by Vite in development. */
export interface EntryServer {
  renderPageHtml(url: string, data: BootData): Promise<string | null>;
  themeCssVariablesHtml(): string;
  pageQueriesOf(url: string): PageQueryName[];
}

/**
 * How the server loads each page query (src/shared/page-queries.ts): what the query's API route
 * answers, from the same function, so the server's render shows what the browser would fetch.
 */
const PAGE_QUERY_LOADERS: Record<PageQueryName, (db: Db) => Promise<unknown>> = {
  pricing: pricingBody,
  stateRequirements: stateRequirementsBody,
};
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Renders for visitors, by everything they depend on; a few hundred pages of about 30 KB. */
const CACHE_ENTRIES = 200;

export interface ServerRenderer {
  /** The theme's CSS variables as a `<style>` element, for the head of every page; computed once. */
  headHtml(): Promise<string>;
  /**
   * The query results the page at `url` shows, for its boot data: the page queries its routes name
   * in the router (src/web/router.tsx `handle`), loaded as their API routes answer them.
   * @returns undefined when the page shows none (or the render could not be loaded)
   */
  queriesFor(url: string, db: Db): Promise<BootData['queries']>;
  /**
   * The page's HTML for inside `<div id="root">`, or null when the page is left to the browser
   * (the router would redirect or fail, or rendering threw, which is logged).
   * @param url the path and query as requested
   */
  render(url: string, data: BootData): Promise<string | null>;
}

/**
 * Loads the server's render of the pages built by `npm run build` (`dist/ssr` beside the web
 * client's `dist/web`).
 * @returns null when the client was built without it (or not at all): pages are then drawn by the browser alone
 */
export async function loadServerRenderer(webDistDir: string, log: FastifyBaseLogger): Promise<ServerRenderer | null> {
  const entry = path.join(webDistDir, '..', 'ssr', 'entry-server.js');
  if (!fs.existsSync(entry)) return null;
  const built = (await import(pathToFileURL(entry).href)) as EntryServer;
  const renderer = createServerRenderer(async () => built, log, { cacheRenders: true });
  await renderer.headHtml();
  return renderer;
}

/**
 * The server's render of the pages around `load`, which gives the render functions: the build's,
 * or in development the sources' as Vite has them now (src/server/modules/pages/web-dev-server.ts).
 * With `cacheRenders`, renders for visitors are kept in a small LRU cache keyed by the address and
 * the boot data without the CSRF token (which the HTML does not contain), so a visitor's page costs
 * one render per change of company details, banners or prices, not 10–20 ms per request.
 */
export function createServerRenderer(
  load: () => Promise<EntryServer>,
  log: FastifyBaseLogger,
  opts: { cacheRenders: boolean },
): ServerRenderer {
  const cache = new Map<string, string | null>();
  let headHtml: Promise<string> | undefined;
  return {
    headHtml() {
      headHtml ??= load()
        .then((entry) => entry.themeCssVariablesHtml())
        .catch((err: unknown) => {
          // The browser then puts the variables in itself (src/web/main.tsx); the next page tries again.
          log.error({ err }, 'server render failed to load; the browser draws the page');
          headHtml = undefined;
          return '';
        });
      return headHtml;
    },
    async queriesFor(url, db) {
      let names: PageQueryName[];
      try {
        names = (await load()).pageQueriesOf(url);
      } catch {
        // The render is then left to the browser, which asks the API itself (logged by headHtml or render).
        return undefined;
      }
      if (names.length === 0) return undefined;
      return Promise.all(
        names.map(async (name) => ({
          queryKey: queryKeyOf(PAGE_QUERY[name].route, {}),
          data: asJson(await PAGE_QUERY_LOADERS[name](db)),
        })),
      );
    },
    async render(url, data) {
      const key =
        data.user || !opts.cacheRenders
          ? null
          : JSON.stringify([url, new Date().getFullYear(), { ...data, csrfToken: '' }]);
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
        const { renderPageHtml } = await load();
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
