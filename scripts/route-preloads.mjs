// Each page's preloads (route-preloads.json) from the router's own routes, for scripts/build.mjs.
//
// The build of the server's render comes first. Its entry lists every route of src/web/router.tsx
// with its `lazy` loader (`pageScreenLoaders` in src/web/entry-server.tsx); calling each loader
// in this process, with a Node resolve hook watching, tells which source modules the page's screen
// is loaded from (through that build's manifest). The client's build then turns those modules into
// its own chunks, their imports and style sheets (`routePreloads`).
import fs from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The module that `screen()` in src/web/router.tsx loads beside a screen: the query cache. */
const QUERY_ROOT = 'lib/query-root.tsx';

/**
 * Which source modules each page's screen loads, found by calling the route's own loader in the
 * built server render.
 * @param {string} ssrDir the server render's build (with `build.manifest`), e.g. `.dist/<build>/ssr`
 * @returns {Promise<Record<string, string[]>>} route path (as in src/web/router.tsx) to the modules
 *   its loader imports, relative to src/web, in the order it imports them
 */
export async function routeScreens(ssrDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(ssrDir, '.vite', 'manifest.json'), 'utf8'));
  /** @type {Map<string, string[]>} a lazily loaded chunk's address to the source modules it is the chunk of */
  const sourcesOf = new Map();
  for (const chunk of Object.values(manifest)) {
    // Only what is loaded with import(): a screen's chunk also imports shared code statically.
    if (!chunk.src || !chunk.isDynamicEntry) continue;
    const url = pathToFileURL(path.join(ssrDir, chunk.file)).href;
    sourcesOf.set(url, [...(sourcesOf.get(url) ?? []), chunk.src]);
  }
  /** @type {Set<string> | null} what the loader being called has imported so far */
  let imported = null;
  // Node 22.15 and later (package.json engines); an older one is told so instead of failing on a missing export.
  if (typeof nodeModule.registerHooks !== 'function') {
    throw new Error(
      `The build needs Node 22.15 or newer (module.registerHooks); this is Node ${process.versions.node}.`,
    );
  }
  // Node resolves every import() call, a module already loaded included, so a screen shared by two
  // routes (the bylaws pages) is seen by both.
  const hooks = nodeModule.registerHooks({
    resolve(specifier, context, next) {
      const result = next(specifier, context);
      if (imported) for (const src of sourcesOf.get(result.url) ?? []) imported.add(src);
      return result;
    },
  });
  try {
    const { pageScreenLoaders } = await import(pathToFileURL(path.join(ssrDir, 'entry-server.js')).href);
    /** @type {Record<string, string[]>} */
    const screens = {};
    for (const { path: routePath, load } of pageScreenLoaders()) {
      imported = new Set();
      await load();
      screens[routePath] = [...imported];
    }
    return screens;
  } finally {
    imported = null;
    hooks.deregister();
  }
}

/**
 * A Vite plugin for the client's build writing `route-preloads.json`: for each page, the script
 * chunks its screen needs (and their style sheets) beyond what index.html already loads, the query
 * cache's chunk included for screens loaded with `screen()`. The server lists them in the page's
 * head, so a visitor's browser fetches the screen together with the entry script instead of after
 * running it (docs/requirements/platform.md §6 Lighthouse). The build fails when a screen loaded
 * with `lightScreen()` imports TanStack Query after all, or when a screen is in no chunk.
 * @param {Record<string, string[]>} screens the result of {@link routeScreens}
 * @returns {import('vite').Plugin}
 */
export function routePreloads(screens) {
  let root = '';
  return {
    name: 'goodstanding-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) this.error('route preloads: the client has no entry chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const initial = new Set([entry.fileName, ...entry.imports]);
      /** A chunk and its static imports, depth first, without what the entry already loads. */
      const closure = (fileName, seen) => {
        if (seen.has(fileName) || initial.has(fileName)) return seen;
        seen.add(fileName);
        for (const dep of byName.get(fileName)?.imports ?? []) closure(dep, seen);
        return seen;
      };
      const chunkOf = (moduleId) =>
        chunks.find((c) => c.facadeModuleId === moduleId) ?? chunks.find((c) => c.moduleIds.includes(moduleId));
      /** @type {Record<string, { scripts: string[]; styles: string[] }>} */
      const preloads = {};
      for (const [routePath, modules] of Object.entries(screens)) {
        /** @type {Set<string>} */
        const seen = new Set();
        for (const src of modules) {
          const chunk = chunkOf(path.resolve(root, src));
          if (!chunk) this.error(`route preloads: ${routePath} loads ${src}, which no chunk of the client holds`);
          closure(chunk.fileName, seen);
        }
        if (
          !modules.includes(QUERY_ROOT) &&
          [...seen].some((f) => byName.get(f)?.moduleIds.some((id) => id.includes(`${path.sep}@tanstack${path.sep}`)))
        ) {
          this.error(
            `route preloads: the screen of ${routePath} uses the query cache; load it with screen(), not lightScreen() (src/web/router.tsx)`,
          );
        }
        const files = [...seen];
        const styles = files.flatMap((f) => [...(byName.get(f)?.viteMetadata?.importedCss ?? [])]);
        // A chunk of style sheets only is not written as a script (Vite drops it); its styles above still count.
        const scripts = files.filter((f) => !byName.get(f)?.moduleIds.every((id) => /\.css($|\?)/.test(id)));
        preloads[routePath] = {
          scripts: scripts.map((f) => `/${f}`),
          styles: [...new Set(styles)].map((f) => `/${f}`),
        };
      }
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: JSON.stringify(preloads, null, 1) });
    },
  };
}
