import { lazy, useState, type ComponentType } from 'react';

/** The `preload` of every deferred component defined so far (each module defines its own when first evaluated). */
const everyPreload = new Set<() => Promise<unknown>>();

/**
 * Loads every deferred component defined so far: the shell's, and those of the screens the
 * server's router has loaded for the page being rendered, for a render that cannot wait for them
 * (the server's `renderToString`, src/web/entry-server.tsx).
 * @returns once all their chunks are loaded
 */
export const preloadDeferredComponents = () => Promise.all([...everyPreload].map((preload) => preload()));

/**
 * A component whose code is a chunk of its own, out of the entry script every page loads
 * (docs/ARCHITECTURE.md "Initial JavaScript"). In the browser it is `React.lazy`: inside a
 * `Suspense` boundary of a page the server rendered, React leaves the server's HTML in place and
 * takes it over once the chunk has arrived, so the first hydration does less. The server's render
 * cannot wait for a lazy component (`renderToString`), so it calls `preload()` first (through
 * {@link preloadDeferredComponents}) and the component then renders at once.
 * @param load imports the chunk; `pick` selects the component from the module
 * @returns the component and `preload()`, which resolves once the chunk is loaded
 */
export function deferredComponent<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const preload = () => (pending ??= load().then((module) => (loaded = pick(module))));
  everyPreload.add(preload);
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Deferred(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component on a later
    // render would mount it afresh and lose what was typed into it.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Deferred, { preload });
}
