import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareTemplate } from './render-page.ts';
import type { EntryServer } from './server-render.ts';
import type { FastifyInstance } from 'fastify';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const WEB_ROOT = path.join(PROJECT_ROOT, 'src', 'web');

/** What `npm run dev` serves the web client with (docs/decisions/012-server-rendering-and-dev-loop.md). */
export interface WebDevServer {
  /**
   * The CSP `script-src` sources of the inline scripts Vite adds to index.html (React Refresh's
   * preamble), by their sha256, so the policy stays the production one plus these.
   */
  inlineScriptSources: string[];
  /** The page template for `url`: src/web/index.html as Vite transforms it (its client, the preamble). */
  template(url: string): Promise<string>;
  /** src/web/entry-server.tsx as Vite has it now: an edit shows in the next render. */
  entryServer(): Promise<EntryServer>;
}

/** A path Vite's development server answers: its own, a dependency, or a file under src/web. */
function servedByVite(url: string, webEntries: Set<string>): boolean {
  const pathName = url.split('?')[0];
  if (pathName.startsWith('/@') || pathName.startsWith('/__vite') || pathName.startsWith('/node_modules/')) return true;
  return webEntries.has(decodeURIComponent(pathName.split('/')[1] ?? ''));
}

/**
 * Starts Vite's development server inside the app (Vite's documented SSR pattern: middleware mode,
 * `appType: 'custom'`), its hot-reload socket on the app's own port. Requests for Vite's client,
 * the dependencies and the files under src/web (and src/web/public) go to it before any route;
 * everything else is the app's. Closed with the app. Vite is a development dependency: only
 * imported here, when WEB_DEV_SERVER is set (refused in production, src/server/config.ts).
 * @throws when Vite cannot start (e.g. the configuration fails to load)
 */
export async function startWebDevServer(app: FastifyInstance): Promise<WebDevServer> {
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: path.join(PROJECT_ROOT, 'vite.config.ts'),
    root: WEB_ROOT,
    appType: 'custom',
    server: { middlewareMode: true, hmr: { server: app.server } },
  });
  app.addHook('onClose', async () => vite.close());
  const webEntries = new Set([...fs.readdirSync(WEB_ROOT), ...fs.readdirSync(path.join(WEB_ROOT, 'public'))]);
  app.addHook('onRequest', async (req, reply) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !servedByVite(req.url, webEntries)) return;
    reply.hijack();
    vite.middlewares(req.raw, reply.raw, () => {
      reply.raw.statusCode = 404;
      reply.raw.end('Not found.');
    });
    return reply;
  });
  const indexHtml = () => fs.readFileSync(path.join(WEB_ROOT, 'index.html'), 'utf8');
  const sample = await vite.transformIndexHtml('/', indexHtml());
  const inlineScriptSources = [...sample.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(
    ([, code]) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
  );
  return {
    inlineScriptSources,
    template: async (url) => prepareTemplate(await vite.transformIndexHtml(url, indexHtml())),
    entryServer: async () => (await vite.ssrLoadModule('/entry-server.tsx')) as EntryServer,
  };
}
