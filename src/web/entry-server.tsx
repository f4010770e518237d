import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router';
import { AppProviders, ThemeCssVariables } from './app-providers.tsx';
import { setServerBoot } from './lib/boot.ts';
import { preloadDeferredComponents } from './lib/deferred-component.tsx';
import { routes } from './router.tsx';
import type { PageHandle, PageQueryName } from '../shared/page-queries.ts';
import type { BootData } from '../shared/routes.ts';
import type { RouteObject } from 'react-router';

const handler = createStaticHandler(routes);

/**
 * The server's render of one page (docs/requirements/platform.md §6 public pages: the browser paints the page before any
 * script runs, and src/web/main.tsx then hydrates it). Built by `npm run build` into
 * `dist/ssr/entry-server.js` and called by src/server/modules/pages.
 * @param url the page's absolute address (path and query as requested)
 * @param data the page's boot data, exactly as embedded in the page, `queries` included
 * @returns the HTML inside `<div id="root">`, or null when the router would not show the page
 *   itself (a redirect, an error, an address it does not know), so the browser renders it
 */
export async function renderPageHtml(url: string, data: BootData): Promise<string | null> {
  const context = await handler.query(new Request(url));
  if (context instanceof Response || context.statusCode !== 200 || context.errors) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  // Loaded the way the router loads it (src/web/router.tsx), so the build has one way to split it.
  const { createQueryClient } = await import('./lib/query-root.tsx');
  const queryClient = createQueryClient();
  for (const { queryKey, data: result } of data.queries ?? []) queryClient.setQueryData(queryKey, result);
  setServerBoot(data);
  // The shell's and the screen's deferred parts: the browser loads them after the entry script and
  // the screen; this render cannot wait for them (renderToString).
  await preloadDeferredComponents();
  return renderToString(
    <StrictMode>
      <AppProviders withCssVariables={false}>
        {/* One cache per page: the screens' QueryRoot uses it instead of the browser's. */}
        <QueryClientProvider client={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </QueryClientProvider>
      </AppProviders>
    </StrictMode>,
  );
}

/**
 * The page queries the page at `url` shows, as its routes in the router name them in their `handle`
 * (src/shared/page-queries.ts): the server loads them for the page's boot data and its render.
 * @param url the page's path (and query), as requested
 * @returns the queries' names, outermost route first; none for an address the router does not know
 */
export function pageQueriesOf(url: string): PageQueryName[] {
  const pathname = new URL(url, 'http://localhost').pathname;
  return (matchRoutes(routes, pathname) ?? []).flatMap(
    ({ route }) => (route.handle as PageHandle | undefined)?.pageQueries ?? [],
  );
}

/**
 * The theme's CSS variables as a `<style>` element for the head of every page; the server's and
 * the browser's renders then leave them out (src/web/main.tsx looks for this element).
 */
export function themeCssVariablesHtml(): string {
  return renderToString(<ThemeCssVariables />);
}

/**
 * Every page's screen loader, from the router's own routes (src/web/router.tsx): the path and the
 * route's `lazy`. For the build only (scripts/route-screens.mjs), which calls each loader to learn
 * which modules the page's screen is made of, and so which chunks its page preloads
 * (docs/ARCHITECTURE.md "Requests").
 * @returns one entry per route with both a path and a lazy loader, in the router's order
 */
export function pageScreenLoaders(): { path: string; load: () => Promise<unknown> }[] {
  const found: { path: string; load: () => Promise<unknown> }[] = [];
  const visit = (list: RouteObject[]) => {
    for (const route of list) {
      if (route.path && typeof route.lazy === 'function') found.push({ path: route.path, load: route.lazy });
      if (route.children) visit(route.children);
    }
  };
  visit(routes);
  return found;
}
