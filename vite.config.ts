import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy next to every built script, style sheet and SVG, so
 * the server sends them compressed without compressing on each request (@fastify/static
 * `preCompressed`). The public pages' JavaScript travels at about a third of its size (docs/requirements/platform.md §6).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'goodstanding-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = path.join(outDir, name);
        const body = fs.readFileSync(file);
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(body, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * A plugin that rewrites one module of a library in the client's build. The build fails when the
 * module is not part of it or `rewrite` finds nothing to change (returns null), so an update of the
 * library cannot make the change stop applying unnoticed.
 */
function libraryPatch(name: string, module: RegExp, rewrite: (code: string) => string | null): Plugin {
  let applied = false;
  return {
    name: `goodstanding-${name}`,
    apply: 'build',
    transform(code, id) {
      if (!module.test(id)) return null;
      const patched = rewrite(code);
      if (patched === null) this.error(`${name}: ${id} no longer has the code this change expects; see vite.config.ts`);
      applied = true;
      return { code: patched, map: null };
    },
    generateBundle() {
      if (!applied) this.error(`${name}: no module matching ${module} was built; see vite.config.ts`);
    },
  };
}

/**
 * Mantine's `useId` swaps every component's id for a random one once mounted, a fallback from
 * before React had `useId`. With React's id, already unique and the same in the server's render
 * and the browser's, the swap only re-rendered every input and alert at once, synchronously, right
 * after React took over a page: the longest task on the form pages (docs/requirements/platform.md §6, total blocking
 * time). This build keeps React's id, which is also the id the server rendered.
 */
const stableMantineIds = () =>
  libraryPatch('stable-mantine-ids', /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/, () =>
    [
      'import { useId as useReactId } from "react";',
      'function useId(staticId) {',
      '  const reactId = useReactId();',
      '  return typeof staticId === "string" ? staticId : `mantine-${reactId.replace(/:/g, "")}`;',
      '}',
      'export { useId };',
    ].join('\n'),
  );

const RHF_READY_STATE = `        updateFormState((data) => ({
            ...data,
            isReady: true,
        }));
`;

/**
 * React Hook Form's `useForm` sets `formState.isReady` in a layout effect once mounted, which
 * re-renders the component holding the form, and with it every field, synchronously right after
 * React takes over the page (docs/requirements/platform.md §6, total blocking time). The app never reads `isReady` from
 * the form state; the library's own checks read it from its control, which is still set.
 */
const noReadyRerender = () =>
  libraryPatch('form-ready-without-rerender', /[\\/]react-hook-form[\\/]dist[\\/]index\.esm\.mjs$/, (code) =>
    code.includes(RHF_READY_STATE) ? code.replace(RHF_READY_STATE, '') : null,
  );

const FLOATING_MERGE_REFS = 'import { useMergeRefs } from "@floating-ui/react";';

/**
 * Mantine's scroll area merges two refs with Floating UI's `useMergeRefs`, and that one import
 * brings most of Floating UI (about 9 KB gzipped) to every page with a table (`Table` carries the
 * scroll area for `Table.ScrollContainer`), such as /pricing and /verify-501c3, which place
 * nothing (docs/requirements/platform.md §6). Mantine's own `useMergedRef` does the same from
 * `@mantine/hooks`, which every page loads already.
 */
const scrollAreaOwnRefs = () =>
  libraryPatch(
    'scroll-area-own-refs',
    /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/,
    (code) =>
      code.includes(FLOATING_MERGE_REFS)
        ? code.replace(
            FLOATING_MERGE_REFS,
            'import { useMergedRef } from "@mantine/hooks";\nconst useMergeRefs = (refs) => useMergedRef(...refs);',
          )
        : null,
  );

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  publicDir: isSsrBuild ? false : 'public',
  // The server's render needs no compressed copies; scripts/build.mjs adds the client's preload
  // list (scripts/route-preloads.mjs), which it derives from the server's render.
  plugins: isSsrBuild
    ? [react()]
    : [react(), stableMantineIds(), noReadyRerender(), scrollAreaOwnRefs(), precompress()],
  resolve: {
    // React Router's package exports only its development build (checks and warnings, about a third
    // slower to set up its routes); the production build sits beside it (docs/requirements/platform.md §6).
    alias: [
      { find: /^react-router$/, replacement: path.resolve('node_modules/react-router/dist/production/index.mjs') },
    ],
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
}));
