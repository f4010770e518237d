import fs from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { PAGES, type BootData, type PageRoute } from '../../../shared/routes.ts';
import { isDisplayPreferenceCookie } from '../../../shared/rules/cookies.ts';
import { getCompany } from '../content/get-company.ts';
import { listActiveBanners } from '../content/list-active-banners.ts';
import { routingLookupUrlForBrowser } from '../routing-numbers/lookup.ts';
import { loadRoutePreloads, loadTemplate, renderPage, type RoutePreload } from './render-page.ts';
import { createServerRenderer, loadServerRenderer, type ServerRenderer } from './server-render.ts';
import type { WebDevServer } from './web-dev-server.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A source map's address (`/x.js.map`, any case). */
const isSourceMap = (pathName: string) => /\.map$/i.test(pathName);

/**
 * Serves the web client: built assets under /assets (without their source maps in production), and
 * the HTML shell for every page of src/shared/routes.ts. Pages for signed-in users redirect
 * visitors to /login; admin pages answer 403 to others. Unknown page paths get the shell with
 * status 404, unknown API paths JSON 404. With `webDev` (`npm run dev`) the template and the
 * server's render come from the sources through Vite, and nothing from the build is read.
 */
export async function pageRoutes(app: FastifyInstance, opts: { webDev: WebDevServer | null }) {
  // `dist` is a link that `npm run build` swaps to each new build (scripts/build.mjs): this process
  // keeps serving the build it started with, whose files the pages it already sent refer to.
  const distDir = fs.existsSync(app.config.webDistDir) ? fs.realpathSync(app.config.webDistDir) : app.config.webDistDir;
  // Pages are rendered per request (20–40 KB of HTML with the boot data), so they are compressed
  // as they are sent (brotli quality 4 or gzip, from 1 KB); the assets below come precompressed.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'] });
  const assetsDir = path.join(distDir, 'assets');
  if (!opts.webDev && fs.existsSync(assetsDir)) {
    // The built files are public and kept a year (plugins/cache-control.ts sets the header): their
    // names change with their content. @fastify/static takes no route config, so it is added here.
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/assets/')) route.config = { ...route.config, cache: 'built-asset' };
    });
    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: '/assets/',
      index: false,
      cacheControl: false,
      // The build writes .br and .gz copies of scripts and styles (vite.config.ts).
      preCompressed: true,
      decorateReply: false,
      // The build writes source maps beside the scripts; production keeps them to itself (the
      // site's whole source, comments included): 404 (docs/security.md "Production settings").
      ...(app.config.env === 'production' ? { allowedPath: (pathName: string) => !isSourceMap(pathName) } : {}),
    });
  }
  // The favicon goes through the build (content-hashed under /assets); this serves an older copy if present.
  for (const file of ['favicon.svg', 'robots.txt']) {
    const full = path.join(distDir, file);
    if (!opts.webDev && fs.existsSync(full)) {
      const body = fs.readFileSync(full);
      app.get(`/${file}`, { config: { cache: 'site-file' } }, async (_req, reply) =>
        reply.type(file.endsWith('.svg') ? 'image/svg+xml' : 'text/plain').send(body),
      );
    }
  }
  const { webDev } = opts;
  const builtTemplate = webDev ? '' : loadTemplate(distDir);
  // Vite's development server loads each module as it is asked for: there is nothing to preload.
  const preloads: Record<string, RoutePreload> = webDev ? {} : loadRoutePreloads(distDir);
  const serverRenderer: ServerRenderer | null = webDev
    ? createServerRenderer(webDev.entryServer, app.log, { cacheRenders: false })
    : await loadServerRenderer(distDir, app.log);

  async function send(
    req: FastifyRequest,
    reply: FastifyReply,
    page: Pick<PageRoute, 'title' | 'description'> & Partial<Pick<PageRoute, 'path' | 'access'>>,
    status: number,
  ) {
    // Only fixed public addresses are canonical; pages with parameters or behind sign-in are not indexed.
    const canonicalUrl =
      status === 200 && page.access === 'visitor' && page.path && !page.path.includes(':')
        ? new URL(page.path, app.config.publicUrl).toString()
        : undefined;
    // Public pages arrive rendered, so they paint before any script has run (docs/requirements/platform.md §6).
    const serverRendered =
      serverRenderer && status === 200 && page.access === 'visitor' && page.path ? serverRenderer : null;
    const [company, banners, queries] = await Promise.all([
      getCompany(app.db),
      listActiveBanners(app.db),
      serverRendered?.queriesFor(req.url, app.db),
    ]);
    const boot: BootData = {
      csrfToken: reply.csrfToken(),
      user: req.user,
      company,
      banners,
      captchaSiteKey: app.config.captcha.siteKey ?? null,
      routingLookupUrl: routingLookupUrlForBrowser(app.config),
      status,
      ...(queries ? { queries } : {}),
      ...(serverRendered
        ? { preferenceCookies: Object.keys(req.cookies).filter(isDisplayPreferenceCookie).sort() }
        : {}),
    };
    const body = serverRendered ? await serverRendered.render(req.url, boot) : null;
    const template = webDev ? await webDev.template(req.url) : builtTemplate;
    // Not public: the shell carries the session's CSRF token and the user (plugins/cache-control.ts: no-store).
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(
        renderPage(template, {
          title: page.title,
          description: page.description,
          canonicalUrl,
          companyName: company.name,
          boot,
          // The 403 and 404 screens are not the page's screen.
          preload: status === 200 && page.path ? preloads[page.path] : undefined,
          body,
          headHtml: await serverRenderer?.headHtml(),
          scriptsAfterPaint: !webDev,
        }),
      );
  }

  for (const page of PAGES) {
    app.get(page.path, async (req, reply) => {
      if (page.access !== 'visitor' && !req.user) {
        return reply.redirect(`/login?next=${encodeURIComponent(req.url)}`);
      }
      if (page.access === 'staff' && !req.user?.isAdmin) return send(req, reply, { title: 'Not allowed' }, 403);
      return send(req, reply, page, 200);
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const wantsHtml =
      req.method === 'GET' && String(req.headers.accept ?? '').includes('text/html') && !req.url.startsWith('/api/');
    if (wantsHtml) return send(req, reply, { title: 'Page not found' }, 404);
    return reply.status(404).send({ message: 'Not found.' });
  });
}
